"""How far the board's effects on mana reach (``reached_by_effects``), and that reading only the
permanents they reach changes no supply: on hand-made boards and on boards sampled from the real
decks with effects in force, every player's supply equals the one built with every permanent's
row made on the board (the reach forced to "any permanent", nothing remembered from a board
without effects)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from manasolver.benchmarks.deck_boards import Family
from manasolver.benchmarks.deck_boards import board as deck_board
from manasolver.models.board.load import load_state
from manasolver.models.errors import ManasolverError
from manasolver.models.rules import board_effects
from manasolver.models.rules.board_effects import active_effects, reached_by_effects
from manasolver.models.state import GameState
from manasolver.solver.supply.build import build_supply


def _board(prefix: str, extra: list[dict[str, Any]]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "them"}],
            "battlefield": [{"id": f"{prefix}1", "card": "Forest"},
                            {"id": f"{prefix}2", "card": "Swamp"},
                            {"id": f"{prefix}3", "card": "Sol Ring"},
                            {"id": f"{prefix}4", "card": "Llanowar Elves"},
                            {"id": f"{prefix}5", "card": "Swamp", "controller": "them"},
                            {"id": f"{prefix}6", "card": "Mind Stone", "controller": "them"}] + extra}


def _lands(n: int) -> list[dict[str, Any]]:
    return [{"id": f"w{i}", "card": "Forest"} for i in range(n)]


def test_cr_613_1f_a_conditional_grant_reaches_nothing_while_its_condition_does_not_hold() -> None:
    """The World Tree: "As long as you control six or more lands, lands you control have …"."""
    state = load_state(_board("a", [{"id": "a7", "card": "The World Tree"}]))
    assert reached_by_effects(state) == frozenset()


def test_cr_613_1f_a_conditional_grant_reaches_what_it_gives_while_it_holds() -> None:
    state = load_state(_board("b", [{"id": "b7", "card": "The World Tree"}] + _lands(4)))
    assert reached_by_effects(state) == frozenset({"b1", "b2", "b7", "w0", "w1", "w2", "w3"})


def test_cr_613_1f_a_conditional_grant_to_itself_reaches_itself_alone() -> None:
    """Orochi Merge-Keeper: "As long as this creature is modified, it has "{T}: Add {G}{G}."" (a
    counter on it modifies it, CR 700.9)."""
    plain = load_state(_board("c", [{"id": "c7", "card": "Orochi Merge-Keeper"}]))
    assert reached_by_effects(plain) == frozenset()
    modified = load_state(_board("d", [{"id": "d7", "card": "Orochi Merge-Keeper", "counters": {"+1/+1": 1}}]))
    assert reached_by_effects(modified) == frozenset({"d7"})
    [row] = [cls for cls in build_supply(modified, "you").classes if cls.members == ("d7",)]
    assert [o.slots for o in row.options] == [(16,), (16, 16)]  # its printed {T}: Add {G}, and the grant


def test_cr_605_1b_kinnan_reaches_its_controllers_nonland_permanents() -> None:
    """Kinnan, Bonder Prodigy: "Whenever you tap a nonland permanent for mana, add one mana of any
    type that permanent produced.": its controller's nonland permanents, no land, nothing of theirs."""
    state = load_state(_board("e", [{"id": "e7", "card": "Kinnan, Bonder Prodigy"}]))
    assert reached_by_effects(state) == frozenset({"e3", "e4", "e7"})


def test_cr_605_1b_crypt_ghast_reaches_its_controllers_lands() -> None:
    """Crypt Ghast: "Whenever you tap a Swamp for mana, add an additional {B}.": the lands of its
    controller, whichever side it is on."""
    theirs = load_state(_board("f", [{"id": "f7", "card": "Crypt Ghast", "controller": "them"}]))
    assert reached_by_effects(theirs) == frozenset({"f5"})
    mine = load_state(_board("g", [{"id": "g7", "card": "Crypt Ghast"}]))
    assert reached_by_effects(mine) == frozenset({"g1", "g2"})
    [swamp] = [cls for cls in build_supply(mine, "you").classes if cls.members == ("g2",)]
    assert [o.slots for o in swamp.options] == [(4, 4)]  # {B} and the trigger's {B}


def test_cr_605_1b_caged_sun_reaches_its_controllers_lands() -> None:
    state = load_state(_board("h", [{"id": "h7", "card": "Caged Sun", "controller": "them",
                                     "chosen": {"color": "B"}}]))
    assert reached_by_effects(state) == frozenset({"h5"})


def test_cr_605_1b_mana_flare_still_reaches_every_land() -> None:
    state = load_state(_board("i", [{"id": "i7", "card": "Mana Flare", "controller": "them"}]))
    assert reached_by_effects(state) == frozenset({"i1", "i2", "i5"})


#: Hand-made boards with effects in force: grants (Chromatic Lantern, Rishkar on a creature with a
#: counter, The World Tree, Orochi Merge-Keeper), triggered mana (Wild Growth, Crypt Ghast on either
#: side, Caged Sun, Kinnan), land-type changes (Urborg, Blood Moon).
_HAND_MADE: tuple[list[dict[str, Any]], ...] = (
    [{"id": "x7", "card": "Chromatic Lantern"}],
    [{"id": "x7", "card": "Wild Growth", "attached_to": "x1"}],
    [{"id": "x7", "card": "Rishkar, Peema Renegade", "counters": {"+1/+1": 1}},
     {"id": "x8", "card": "Llanowar Elves", "counters": {"+1/+1": 1}}],
    [{"id": "x7", "card": "Urborg, Tomb of Yawgmoth"}],
    [{"id": "x7", "card": "Blood Moon", "controller": "them"}, {"id": "x8", "card": "Urborg, Tomb of Yawgmoth"}],
    [{"id": "x7", "card": "Chromatic Lantern"}, {"id": "x8", "card": "Blood Moon", "controller": "them"}],
    [{"id": "x7", "card": "The World Tree"}] + _lands(4),
    [{"id": "x7", "card": "Orochi Merge-Keeper", "counters": {"+1/+1": 1}}],
    [{"id": "x7", "card": "Crypt Ghast", "controller": "them"}],
    [{"id": "x7", "card": "Crypt Ghast"}, {"id": "x8", "card": "Wild Growth", "attached_to": "x2"}],
    [{"id": "x7", "card": "Caged Sun", "chosen": {"color": "G"}}, {"id": "x8", "card": "Chromatic Lantern"}],
    [{"id": "x7", "card": "Kinnan, Bonder Prodigy"}, {"id": "x8", "card": "Chromatic Lantern", "controller": "them"}],
)


def _supplies(state: GameState) -> list[object]:
    """Every player's supply, with and without resources, and what each class's options reveal; or
    the refusal building one raises."""
    out: list[object] = []
    for player in state.players:
        for resources in (False, True):
            try:
                got = build_supply(state, player.name, resources=resources)
            except ManasolverError as err:
                out.append((type(err).__name__, str(err)))
                continue
            out.append((got, [cls.options.reveals for cls in got.classes]))
    return out


def _reach_changes_nothing(raw: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The supplies of ``raw`` built with the board's reach equal those built with every permanent
    reached, a permanent outside the reach has its card's printed mana abilities, and every
    permanent's effective abilities are indexed 0, 1, … in order."""
    state = load_state(raw)
    got = _supplies(state)
    reached = reached_by_effects(state)
    for perm in state.battlefield:
        try:
            indexes = [a.index for a in board_effects.effective_mana_abilities(state, perm)]
        except ManasolverError:
            continue
        assert indexes == list(range(len(indexes))), (perm.card.name, perm.id)
    if reached is not None:
        for perm in state.battlefield:
            if perm.id not in reached:
                try:
                    effective = board_effects._effective(state, perm)
                except ManasolverError:
                    continue  # (what every permanent reached would refuse, read where it is reached)
                assert effective == perm.card.mana_abilities, (perm.card.name, perm.id)
    with monkeypatch.context() as patched:
        patched.setattr(board_effects, "_reached", lambda _: None)
        everywhere = load_state(raw)
        assert reached_by_effects(everywhere) is None
        expected = _supplies(everywhere)
    assert got == expected


@pytest.mark.parametrize("extra", _HAND_MADE, ids=lambda extra: "+".join(p["card"].split(",")[0] for p in extra[:2]))
def test_supplies_on_hand_made_boards_equal_those_with_every_row_made_on_the_board(
        extra: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    _reach_changes_nothing(_board("x", extra), monkeypatch)


def _deck_boards(family: Family, n: int) -> list[dict[str, Any]]:
    """``n`` boards of ``family`` sampled from the real decks' games with effects on mana in force."""
    out: list[dict[str, Any]] = []
    seed = 0
    while len(out) < n:
        raw, _, _ = deck_board(family, random.Random(f"reached-{family}-{seed}"))
        seed += 1
        if active_effects(load_state(raw)):
            out.append(raw)
    return out


@pytest.mark.parametrize("family", ["commander", "sixty"])
def test_supplies_on_deck_boards_with_effects_equal_those_with_every_row_made_on_the_board(
        family: Family, monkeypatch: pytest.MonkeyPatch) -> None:
    for raw in _deck_boards(family, 25):
        _reach_changes_nothing(raw, monkeypatch)
