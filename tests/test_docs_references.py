"""The repository never sends a reader to a document it does not hold.

The contract, the design notes and the rules digest the project was built from live outside the
repository; a user has none of them.  So the code, the tests, the docs, the README and the changelog
say the thing itself (the field, the rule, the target), and cite only what a reader can look up:
the Comprehensive Rules by their numbers (CR 601.2f), rulings by card and date, files of this
repository by path.  This test fails on any mention of those outside documents: by file name, by
a section sign after their names, or by a relative path out of the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: The outside documents.
_OUTSIDE = ("SPEC", "DESIGN", "RULES", "STYLE", "PEERS")
#: A mention: ``SPEC.md`` (any of the five), ``SPEC §4``/``RULES §12``/``RULES T117``, ``../shared/``.
MENTION = re.compile(r"\b(?:%s)\.md\b|\b(?:%s) (?:§|T\d)|\.\./shared/" % ("|".join(_OUTSIDE), "|".join(_OUTSIDE)))

#: The text files checked: everything tracked under these folders, and these top-level files.
FOLDERS = ("models", "solver", "benchmarks", "scripts", "tests", "docs", "package", ".ci")
TOP_FILES = ("README.md", "CHANGELOG.md", "pyproject.toml", ".pre-commit-config.yaml")
#: Binary or vendored files: card data, images, third-party licences.
SKIP_SUFFIXES = (".sqlite", ".png", ".svg", ".woff", ".woff2", ".ttf", ".otf", ".gz", ".ico")


#: Folders that are never the repository's own text: environments, caches, builds.
_NOT_OURS = {".venv", "__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache", "build"}


def _tracked() -> list[Path]:
    """The files checked: git's tracked files, or in a tree without git (``.ci/run`` checks an
    archive of HEAD) every file under the folders but environments, caches and builds."""
    try:
        out = subprocess.run(["git", "-C", str(REPO), "ls-files", "--", *FOLDERS, *TOP_FILES],
                             capture_output=True, text=True, check=True).stdout
        names = out.splitlines()
    except (subprocess.CalledProcessError, FileNotFoundError):
        names = [str(p.relative_to(REPO)) for folder in FOLDERS for p in sorted((REPO / folder).rglob("*"))
                 if p.is_file() and not _NOT_OURS.intersection(p.relative_to(REPO).parts)
                 and not p.name.endswith(".egg-info")]
        names += [name for name in TOP_FILES if (REPO / name).is_file()]
    here = Path(__file__).resolve()  # this file spells out the patterns it looks for
    return [REPO / name for name in names
            if not name.endswith(SKIP_SUFFIXES) and "/LICENSES/" not in name and (REPO / name).resolve() != here]


def _mentions(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError):
        return []
    return [f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}"
            for number, line in enumerate(text.splitlines(), 1) if MENTION.search(line)]


def test_the_pattern_catches_each_kind_of_mention() -> None:
    caught = ["see %s.md" % name for name in _OUTSIDE] + ["(SPEC \u00a74)", "RULES T117", "RULES \u00a712",
                                                          "``../shared/data/x.md``"]
    kept = ["CR 601.2f", "vector T117", "docs/architecture.md", "SPECIAL", "the RULES tuple", "_SPEC.loader"]
    assert all(MENTION.search(s) for s in caught), [s for s in caught if not MENTION.search(s)]
    assert not any(MENTION.search(s) for s in kept), [s for s in kept if MENTION.search(s)]


def test_no_file_sends_a_reader_outside_the_repository() -> None:
    files = _tracked()
    assert any(p.name == "README.md" for p in files) and len(files) > 100
    found = [m for path in files for m in _mentions(path)]
    assert not found, "references to documents outside the repository:\n" + "\n".join(found)
