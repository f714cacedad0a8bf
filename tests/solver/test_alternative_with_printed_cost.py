"""An alternative cost asked beside the card's printed mana cost (a client often sends both): the
alternative replaces the printed cost (CR 118.9); any other cost beside it is a bad query."""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer


def _forests(n: int) -> dict[str, Any]:
    return {"players": [{"name": "you"}], "battlefield": [{"id": f"f{i}", "card": "Forest"} for i in range(n)]}


def test_overlord_of_the_hauntwoods_impending_beside_its_printed_cost() -> None:
    """Overlord of the Hauntwoods ({3}{G}{G}; impending 4—{1}{G}{G}): asked with
    ``alternative: "impending"`` and ``cost: "{3}{G}{G}"`` it pays the impending cost, as without
    the cost; validate reads the same announcement."""
    base: dict[str, Any] = {"state": _forests(3), "spell": {"card": "Overlord of the Hauntwoods"},
                            "alternative": "impending"}
    both = answer({"query": "pay", **base, "cost": "{3}{G}{G}"})
    alone = answer({"query": "pay", **base})
    assert both == alone and both["payable"] is True and both["payment"]["total"] == "{1}{G}{G}"
    check = answer({"query": "validate", **base, "cost": "{3}{G}{G}", "payment": both["payment"]})
    assert check["legal"] is True, check


def test_another_cost_beside_an_alternative_is_a_bad_query() -> None:
    out = answer({"query": "pay", "state": _forests(3), "spell": {"card": "Overlord of the Hauntwoods"},
                  "alternative": "impending", "cost": "{G}"})
    assert out["error"]["code"] == "bad_query" and out["error"]["where"] == "cost"
