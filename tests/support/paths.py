"""Where the tests find the repository's files, wherever the test module sits."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
TEST_DATA = TESTS / "data"
EXAMPLES = REPO / "solver" / "service" / "examples"
#: The card data in the repository (``data/cards.jsonl.gz``, the source of the bundled database).
CARD_DATA = REPO / "data"
