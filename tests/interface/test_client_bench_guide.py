"""The client benchmark's ``guide`` section (benchmarks/client.py): a manual payment clicked
through on the bundled Commander board in a session and on deck boards, every answer checked."""

from __future__ import annotations

import pytest

from manasolver.benchmarks import client


@pytest.mark.slow
def test_guide_section_pays_deck_boards_by_hand_along_pays_payment() -> None:
    """Its quick run: one session row and one row per deck family; along ``pay``'s payment every
    prefix is completable and the next activation is among those lit (times are reported, never
    asserted)."""
    results = client.run(client.QUICK, log=lambda s: None, sections=("guide",))
    rows = [r for r in results["rows"] if r.get("query") == "guide"]
    assert [r["board"] for r in rows] == ["example:commander", "commander", "sixty"], rows
    assert rows[0]["n"] > 0 and "median_ms" in rows[0]
    for r in rows[1:]:
        assert r["errors"] == 0, r
    assert sum(r["payable"] for r in rows[1:]) > 0, rows
    assert "guide, bundled Commander board" in client.markdown(results)
