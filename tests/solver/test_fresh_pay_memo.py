"""Rows remembered across fresh boards (``solver/supply/build.py``): a permanent whose mana counts
permanents (Elvish Archdruid, Gaea's Cradle) is remembered per count, so the same permanent sent
again on a board with another count gets that count's options, never another board's."""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer

ELVES = [{"id": f"elf{i}", "card": "Llanowar Elves", "sick": True} for i in range(3)]


def _board(extra: list[dict[str, Any]]) -> dict[str, Any]:
    """Elvish Archdruid ("{T}: Add {G} for each Elf you control") and Gaea's Cradle ("{T}: Add
    {G} for each creature you control"), the same two permanents on every board, beside ``extra``
    (summoning-sick creatures: counted, never tapped)."""
    return {"players": [{"name": "you", "life": 20}],
            "battlefield": [{"id": "druid", "card": "Elvish Archdruid"},
                            {"id": "cradle", "card": "Gaea's Cradle"}] + extra}


def _payable(board: dict[str, Any], n: int) -> bool:
    out = answer({"query": "pay", "state": board, "cost": "{G}" * n})
    assert "error" not in out, out
    payable = out["payable"]
    assert isinstance(payable, bool)
    if payable:
        assert out["payment"]["total"] == "{G}" * n
    return payable


def test_elvish_archdruid_and_gaeas_cradle_count_each_board_anew() -> None:
    # (creatures beside the two, the most {G} they add together): Archdruid 1 + Elves, Cradle the same
    for extra, most in ((ELVES, 8), ([], 2), (ELVES[:1], 4), (ELVES, 8), ([], 2)):
        board = _board(extra)
        assert _payable(board, most), (len(extra), most)
        assert not _payable(board, most + 1), (len(extra), most + 1)


def test_gaeas_cradle_counts_a_bird_but_the_archdruid_does_not() -> None:
    bird = {"id": "bird", "card": "Birds of Paradise", "sick": True}
    assert _payable(_board(ELVES[:1] + [bird]), 5)  # Archdruid 2, Cradle 3
    assert not _payable(_board(ELVES[:1] + [bird]), 6)
    assert not _payable(_board(ELVES[:1]), 5)


def _mirror_board(land: str, opponent_land: str) -> dict[str, Any]:
    """Exotic Orchard (what opponents' lands could produce) and Reflecting Pool (what your lands
    could produce), the same two permanents on every board, beside ``land`` (tapped: mirrored, never
    tapped itself) and an opponent's ``opponent_land``."""
    return {"players": [{"name": "you", "life": 20}, {"name": "them", "life": 20}],
            "battlefield": [{"id": "orchard", "card": "Exotic Orchard"},
                            {"id": "pool", "card": "Reflecting Pool"},
                            {"id": "mine", "card": land, "tapped": True},
                            {"id": "theirs", "card": opponent_land, "controller": "them"}]}


def test_exotic_orchard_and_reflecting_pool_mirror_each_board_anew() -> None:
    # (your land, the opponent's, a cost both pay, a cost neither pays)
    for land, theirs, payable, unpayable in (("Forest", "Island", "{G}{U}", "{W}"),
                                             ("Plains", "Mountain", "{W}{R}", "{G}"),
                                             ("Forest", "Island", "{U}{G}", "{R}"),
                                             ("Forest", "Forest", "{G}{G}", "{U}")):
        board = _mirror_board(land, theirs)
        out = answer({"query": "pay", "state": board, "cost": payable})
        assert out.get("payable") is True, (land, theirs, out)
        out = answer({"query": "pay", "state": board, "cost": unpayable})
        assert out.get("payable") is False, (land, theirs, out)
