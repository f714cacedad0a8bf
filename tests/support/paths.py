"""Where the tests find the repository's files, wherever the test module sits."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
TEST_DATA = TESTS / "data"
EXAMPLES = REPO / "solver" / "examples"
SHARED_DATA = REPO.parent / "shared" / "data"
