"""Damping Sphere: "Each spell a player casts costs {1} more to cast for each other spell that player
has cast this turn" (CR 601.2f), counted from the caster's ``spells_cast_this_turn``, the same total
in ``pay``, ``can_pay``, ``payments``, ``max_x`` and ``validate``."""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer


def _board(cast: int, forests: int = 3) -> dict[str, Any]:
    lands = [{"id": f"f{i}", "card": "Forest"} for i in range(forests)]
    return {"players": [{"name": "you", "spells_cast_this_turn": cast}],
            "battlefield": [{"id": "d", "card": "Damping Sphere"}, *lands]}


ELVES = {"card": "Llanowar Elves"}


def test_damping_sphere_first_spell_costs_its_printed_cost() -> None:
    out = answer({"query": "pay", "state": _board(0), "spell": ELVES})
    assert out["payable"] is True and out["payment"]["total"] == "{G}"


def test_damping_sphere_third_spell_costs_two_more_in_every_query() -> None:
    board = _board(2)
    out = answer({"query": "pay", "state": board, "spell": ELVES})
    assert out["payable"] is True and out["payment"]["total"] == "{2}{G}"
    assert answer({"query": "validate", "state": board, "spell": ELVES, "payment": out["payment"]})["legal"] is True
    short = dict(out["payment"], total="{G}", activations=out["payment"]["activations"][:1])
    short.pop("allocation", None)
    assert answer({"query": "validate", "state": board, "spell": ELVES, "payment": short})["legal"] is False
    listed = answer({"query": "payments", "state": board, "spell": ELVES})
    assert listed["payments"] and all(p["total"] == "{2}{G}" for p in listed["payments"])
    assert answer({"query": "max_x", "state": board, "spell": ELVES, "cost": "{X}{G}"})["max_x"] == 0


def test_damping_sphere_makes_a_spell_unpayable_after_three_spells() -> None:
    """Three other spells this turn: {3}{G} for the Elves, more than three Forests make."""
    out = answer({"query": "can_pay", "state": _board(3), "spell": ELVES})
    assert out["payable"] is False


def test_damping_sphere_plan_of_several_spells_is_refused_naming_it() -> None:
    """A plan's costs are announced on one board, so its own earlier spells are not counted: refused."""
    out = answer({"query": "plan", "state": _board(0), "costs": [{"spell": ELVES}, {"spell": ELVES}]})
    assert out["error"]["code"] == "unsupported" and "Damping Sphere" in out["error"]["message"]
