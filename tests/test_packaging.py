"""Every package folder of the three import packages is in pyproject's ``packages`` list, so a normal
(non-editable) install, as CI and users make, holds it: an editable install finds a folder missing
from the list and hides the mistake."""

from __future__ import annotations

import pytest
from paths import REPO

tomllib = pytest.importorskip("tomllib")  # Python 3.11 and newer


def test_every_package_folder_is_installed() -> None:
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(cfg["packages"])
    found = set()
    for package, folder in cfg["package-dir"].items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            found.add(".".join([package, *rel.parts]))
    assert found <= listed, f"package folders missing from pyproject's packages: {sorted(found - listed)}"
