"""Castability's unit boards: Hall's condition on boards of plain permanents, and the bounds on other
boards, answer exactly what the payment engine answers (they replace it only where they decide)."""

from __future__ import annotations

import itertools

import pytest

from manasolver.models.cost import ManaCost
from manasolver.solver.castability.board import BoardOracle
from manasolver.solver.castability.units import cost_need, have, pays

COSTS = ["{W}", "{U}{U}", "{1}{W}{U}", "{2}{B}{B}", "{W/U}{W/U}", "{C}", "{C}{C}{1}", "{4}", "{G}",
         "{1}{W}{U}{B}", "{X}{R}", "{2/W}", "{W/P}", "{3}{U}{B}"]


def _engine_and_units(db, cards: list[str], commander: tuple[str, ...] = (),  # type: ignore[no-untyped-def]
                      chosen: dict[int, int] | None = None) -> None:
    """For every board of up to three of ``cards`` (each untapped or tapped) and every cost of
    :data:`COSTS`: when the units decide the cost, their answer is the engine's.  ``chosen``: the
    color chosen as the card of that index entered."""
    costs = [ManaCost.parse(c) for c in COSTS]
    oracle = BoardOracle([db.get(n) for n in cards], costs, db, list(commander), chosen)
    decided = 0
    for size in (1, 2, 3):
        for combo in itertools.combinations_with_replacement(range(2 * len(cards)), size):
            key = tuple(sorted(combo))
            units = oracle._units_of(key)
            for j, cost in enumerate(oracle._distinct):
                need = oracle._unit_need[j]
                fast = oracle._decide(units, need) if need is not None else None
                if fast is None:
                    continue
                decided += 1
                engine = oracle._engine_pays(key, cost, None, [])
                assert fast == engine, ([(cards[c >> 1], c & 1) for c in key], cost.format())
    assert decided > 0


def test_units_plain_lands_and_hybrid_cr_107_4e(db) -> None:  # type: ignore[no-untyped-def]
    """Basics, a dual, a tri-land and Sol Ring: every cost of colored, hybrid (CR 107.4e), colorless
    and generic symbols decided by Hall's condition as the engine decides it."""
    _engine_and_units(db, ["Plains", "Island", "Underground Sea", "Arcane Sanctum", "Sol Ring", "Wastes"])


def test_units_command_tower_commander_identity_cr_903_4(db) -> None:  # type: ignore[no-untyped-def]
    """Command Tower and Arcane Signet add a color of the commander's identity (CR 903.4); Exotic
    Orchard and Fellwar Stone find no opponent's land (CR 106.7); Path of Ancestry's scry and Altar of
    the Pantheon's life are riders: the units answer as the engine."""
    _engine_and_units(db, ["Command Tower", "Arcane Signet", "Exotic Orchard", "Fellwar Stone", "Swamp",
                           "Path of Ancestry", "Altar of the Pantheon"], ("Sidisi, Brood Tyrant",))


def test_units_exotic_orchard_and_path_of_ancestry_are_plain(db) -> None:  # type: ignore[no-untyped-def]
    """Exotic Orchard adds nothing on a castability board (no opponent's land, CR 106.7); Path of
    Ancestry one unit of the commander's identity: both plain, so their boards need no engine call."""
    from manasolver.solver.castability.units import perm_units
    assert perm_units(db.get("Exotic Orchard"), 0b11100).plain == ()
    assert perm_units(db.get("Path of Ancestry"), 0b11100).plain == (0b11100,)
    assert perm_units(db.get("Dimir Signet"), 0b11100).plain is None


def test_units_bounds_with_signets_and_filters(db) -> None:  # type: ignore[no-untyped-def]
    """Boards with a Signet, a filter land and Llanowar Elves: what the bounds decide is the engine's
    answer."""
    _engine_and_units(db, ["Dimir Signet", "Darkwater Catacombs", "Forest", "Llanowar Elves", "Island"])


def test_units_thriving_isle_with_its_chosen_color_cr_614_12(db) -> None:  # type: ignore[no-untyped-def]
    """Thriving Isle that chose black (or red) as it entered is a plain land adding {U} or that color,
    one unit ``U|B``; without a chosen color it is left to the engine.  Its boards with an Island and a
    Swamp: the units answer as the engine."""
    from manasolver.models.symbols import B, R, U
    from manasolver.solver.castability.units import perm_units
    isle = db.get("Thriving Isle")
    assert perm_units(isle, 0, B).plain == (U | B,)
    assert perm_units(isle, 0).plain is None
    _engine_and_units(db, ["Thriving Isle", "Thriving Isle", "Island", "Swamp"], chosen={0: B, 1: R})


def test_units_thriving_isle_color_chosen_per_question_cr_614_12(db) -> None:  # type: ignore[no-untyped-def]
    """Thriving Isle whose color is chosen for each question (black or red): one unit ``U|B|R``, and
    the engine asked each color on boards the units leave open (with a Signet and a filter land)."""
    from manasolver.models.symbols import B, R, U
    from manasolver.solver.castability.units import perm_units
    assert perm_units(db.get("Thriving Isle"), 0, B | R).plain == (U | B | R,)
    _engine_and_units(db, ["Thriving Isle", "Dimir Signet", "Graven Cairns", "Mountain"], chosen={0: B | R})
    oracle = BoardOracle([db.get("Thriving Isle"), db.get("Dimir Signet")], [ManaCost.parse("{R}{B}")], db,
                         chosen={0: B | R})
    assert oracle.castable((0, 0, 2)) == 1  # one Isle red, the other black through the Signet


@pytest.mark.parametrize("units, cost, ok", [
    ([1, 2], "{W}{U}", True),
    ([3, 3], "{W}{U}", True),
    ([3, 1], "{U}{U}", False),
    ([1 | 2], "{W/U}", True),
    ([32, 32], "{C}{1}", True),
    ([1, 1], "{C}", False),
    ([1, 1, 1], "{2}{W}", True),
    ([1, 1], "{2}{W}", False),
])
def test_units_hall_condition(units: list[int], cost: str, ok: bool) -> None:
    """Hall's condition on units by hand: each symbol a unit of its own that pays it."""
    need = cost_need(ManaCost.parse(cost))
    assert need is not None
    assert pays(have(units), need) is ok


def test_units_symbols_not_one_unit_left_to_the_engine() -> None:
    """Phyrexian (CR 107.4f), snow and {2/W} symbols can be paid otherwise than by one unit: no answer."""
    for cost in ("{W/P}", "{S}", "{2/W}"):
        assert cost_need(ManaCost.parse(cost)) is None
