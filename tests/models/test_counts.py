"""Counts that need no solver (the protocol's ``counts``, CR 105, 202.3, 205).

Real cards come from the bundled database; cards printed after its data (battles)
are given inline, with their real type lines.
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.models.rules.counts import (
    card_types,
    card_types_of,
    colors_among_permanents,
    counts,
    devotion,
    domain,
    happily_ever_after,
    mana_value,
)
from manasolver.models.errors import BadQuery
from manasolver.models.state import GameState
from paths import EXAMPLES


def state_of(*cards: str | dict[str, Any], graveyard: list[Any] | None = None,
             opponent: tuple[str, ...] = (), **player: Any) -> GameState:
    """Player "you" controls ``cards`` (names or inline objects); "opp" controls ``opponent``."""
    field: list[dict[str, Any]] = []
    for i, c in enumerate(cards):
        entry = {"card": c} if isinstance(c, str) else dict(c)
        entry["id"] = f"y{i}"
        field.append(entry)
    for i, c in enumerate(opponent):
        field.append({"id": f"o{i}", "card": c, "controller": "opp"})
    you = {"name": "you", "graveyard": graveyard or [], **player}
    return load_state({"players": [you, {"name": "opp"}], "battlefield": field})


BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")


def test_basics_and_everywhere_have_no_colors_and_domain_five() -> None:
    """Plains, Island, Swamp, Mountain, Forest and the Everywhere token answer no
    colors, card types ["land"], domain 5 (CR 202.2b lands are colorless; 205.4a basic is a
    supertype; Everywhere is every basic land type)."""
    answer = counts(state_of(*BASICS, "Everywhere"))
    assert answer == {"colors_among_permanents": [], "card_types": ["land"],
                      "devotion": {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0}, "domain": 5}


def test_t16_forest_and_everywhere_are_colorless_mana_value_0() -> None:
    """T16 (CR 202.1b, 202.2b, 202.3a; Happily Ever After ruling): a Forest and the Everywhere
    token have no mana cost: colorless, mana value 0."""
    state = state_of("Forest", "Everywhere")
    for perm in state.battlefield:
        assert mana_value(perm.card) == {"mana_value": 0, "colors": []}
        assert perm.card.mana_cost is None


def test_t17_five_basics_and_everywhere_have_no_colors() -> None:
    """T17 (CR 202.2b; Happily Ever After ruling): number of colors among permanents is 0."""
    assert colors_among_permanents(state_of(*BASICS, "Everywhere")) == []


def test_t18_reaper_king_alone_is_five_colors() -> None:
    """T18 (CR 202.2d; Happily Ever After ruling): Reaper King alone gives five colors."""
    assert colors_among_permanents(state_of("Reaper King")) == ["W", "U", "B", "R", "G"]


def test_t19_seven_card_types_among_permanents_and_graveyard() -> None:
    """T19 (CR 205.2a, 205.2b): an artifact creature and a land on the battlefield; an instant,
    a sorcery and a kindred enchantment in the graveyard give seven card types."""
    state = state_of("Ornithopter", "Forest",
                     graveyard=["Lightning Bolt", "Divination", "Bitterblossom"])
    assert card_types(state) == ["artifact", "creature", "enchantment", "instant", "kindred",
                                 "land", "sorcery"]


def test_t19_tribal_is_read_as_kindred() -> None:
    """CR 308.3: "tribal" in an old type line is kindred."""
    state = state_of(graveyard=[{"name": "Old Tribal", "type_line": "Tribal Instant — Goblin"}])
    assert card_types(state) == ["instant", "kindred"]


def test_t20_snow_covered_forest_is_one_card_type() -> None:
    """T20 (CR 205.4a; Happily Ever After ruling): Basic Snow Land — Forest counts only land."""
    assert card_types(state_of("Snow-Covered Forest")) == ["land"]


def test_t21_adventurer_in_graveyard_counts_only_creature() -> None:
    """T21 (CR 715.4; Happily Ever After ruling): Bonecrusher Giant in the graveyard is a
    creature card only; its Adventure's instant type does not count."""
    state = state_of(graveyard=["Bonecrusher Giant"])
    assert card_types(state) == ["creature"]


def test_t22_battle_counts_as_battle_not_siege() -> None:
    """T22 (CR 205.2a, 310): a Battle — Siege contributes the card type battle; Siege is a
    subtype.  (Battles are newer than the bundled data: given inline.)"""
    siege = {"name": "Invasion of Gobakhan", "type_line": "Battle — Siege", "mana_cost": "{1}{W}",
             "oracle_text": "(As a Siege enters, choose an opponent to protect it.)",
             "counters": {"defense": 3}}
    assert card_types(state_of(siege)) == ["battle"]


def test_supertypes_are_not_card_types() -> None:
    """CR 205.4a: legendary, basic and snow are supertypes."""
    assert card_types(state_of("Reaper King", "Snow-Covered Island")) == [
        "artifact", "creature", "land"]


def test_double_faced_card_in_graveyard_is_its_front_face() -> None:
    """CR 712.8a: a transforming card in the graveyard has only its front face's
    characteristics (Delver of Secrets is a creature either way; Ixalan's Search for Azcanta
    is an enchantment that would transform into a land)."""
    assert card_types(state_of(graveyard=["Search for Azcanta"])) == ["enchantment"]


def test_split_card_in_graveyard_has_both_halves_types() -> None:
    """CR 709.4: off the stack a split card has the combined characteristics of both halves;
    Commit // Memory (aftermath) is an instant and a sorcery in the graveyard."""
    state = state_of(graveyard=["Commit // Memory"])
    assert card_types(state) == ["instant", "sorcery"]
    assert card_types_of(state.player().graveyard[0]) == ("instant", "sorcery")


def test_impending_overlord_is_not_a_creature() -> None:
    """CR 702.176a: cast for impending and with a time counter, Overlord of the Hauntwoods is
    an enchantment only; without time counters it is a creature again.  Its color stays green
    and its devotion counts its printed cost (CR 702.176a)."""
    impending = {"card": "Overlord of the Hauntwoods", "cast_for": "impending",
                 "counters": {"time": 4}}
    state = state_of(impending)
    assert card_types(state) == ["enchantment"]
    assert colors_among_permanents(state) == ["G"]
    assert devotion(state)["G"] == 2
    done = dict(impending, counters={})
    assert card_types(state_of(done)) == ["creature", "enchantment"]


def test_tokens_follow_their_characteristics() -> None:
    """CR 202.1b, 205.2c: a Treasure token is a colorless artifact; a creature token given
    inline with a color indicator is that color."""
    spirit = {"name": "Spirit", "type_line": "Token Creature — Spirit", "colors": ["W"],
              "token": True}
    state = state_of("Treasure", spirit)
    assert colors_among_permanents(state) == ["W"]
    assert card_types(state) == ["artifact", "creature"]


def test_devotion_counts_hybrid_and_phyrexian_for_each_color() -> None:
    """CR 700.5; Nykthos ruling 2013-09-15: each hybrid symbol counts toward each of its
    colors.  Reaper King {2/W}{2/U}{2/B}{2/R}{2/G}: one of each; Kitchen Finks {1}{G/W}{G/W}:
    two green and two white; Birds of Paradise {G}; a land adds nothing."""
    state = state_of("Reaper King", "Kitchen Finks", "Birds of Paradise", "Forest")
    assert devotion(state) == {"W": 3, "U": 1, "B": 1, "R": 1, "G": 4}


def test_devotion_phyrexian_and_hybrid_phyrexian() -> None:
    """CR 107.4f-g, 700.5: {G/W/P} counts for green and white; {B/P} for black."""
    ajani = {"name": "Ajani Cost", "type_line": "Legendary Creature — Cat",
             "mana_cost": "{1}{G}{G/W/P}{W}"}
    state = state_of(ajani, "Dismember")   # an instant on the battlefield: still counted by cost
    assert devotion(state) == {"W": 2, "U": 0, "B": 2, "R": 0, "G": 2}


def test_only_the_players_own_permanents_count() -> None:
    state = state_of("Forest", opponent=("Reaper King", "Island", "Plains"))
    assert counts(state)["colors_among_permanents"] == []
    assert domain(state) == 1
    other = counts(state, "opp")
    assert other["colors_among_permanents"] == ["W", "U", "B", "R", "G"]
    assert other["domain"] == 2
    assert other["card_types"] == ["artifact", "creature", "land"]


def test_domain_counts_basic_land_types_of_lands() -> None:
    """Domain: basic land types among lands you control; duals count both; a nonland with a
    land subtype name does not exist, but Dryad Arbor is a land creature Forest."""
    assert domain(state_of("Tundra", "Volcanic Island")) == 3
    assert domain(state_of("Dryad Arbor")) == 1
    assert domain(state_of("Command Tower", "Reflecting Pool")) == 0
    assert domain(state_of()) == 0


def test_unknown_player_is_a_bad_query() -> None:
    with pytest.raises(BadQuery) as info:
        counts(state_of("Forest"), "nobody")
    assert info.value.where == "player"


# -- mana value helper -----------------------------------------------------------------------------

@pytest.mark.parametrize("cost,mv,colors", [
    ("{2/W}{2/U}{2/B}{2/R}{2/G}", 10, ["W", "U", "B", "R", "G"]),   # T01 (202.3f)
    ("{1}{W/U}{W/U}", 3, ["W", "U"]),                                # T04
    ("{2/B}{2/B}{2/B}", 6, ["B"]),                                   # T05
    ("{1}{B/P}{B/P}", 3, ["B"]),                                     # T06 (202.3g)
    ("{U/P}", 1, ["U"]),                                             # T07
    ("{1}{G}{G/W/P}{W}", 4, ["W", "G"]),                             # T08
    ("{2}{C/W}", 3, ["W"]),                                          # T09
    ("{8}{C}{C}", 10, []),                                           # T10
])
def test_mana_value_of_costs(cost: str, mv: int, colors: list[str]) -> None:
    """CR 202.3f-g (largest half, Phyrexian 1) and 202.2d colors."""
    assert mana_value(cost) == {"mana_value": mv, "colors": colors}
    assert mana_value(ManaCost.parse(cost)) == {"mana_value": mv, "colors": colors}


def test_x_counts_only_on_the_stack() -> None:
    """T11–T13 (CR 202.3e, 107.3g): Chord of Calling {X}{G}{G}{G} is 3 in the library and 7 on
    the stack with X=4; Walking Ballista {X}{X} cast with X=2 is 0 on the battlefield."""
    state = state_of("Walking Ballista")
    chord = ManaCost.parse("{X}{G}{G}{G}")
    assert mana_value(chord, zone="library")["mana_value"] == 3
    assert mana_value(chord, x=4, zone="stack")["mana_value"] == 7
    assert mana_value(chord, x=4)["mana_value"] == 3
    assert mana_value(ManaCost.parse("{X}{X}"), x=2, zone="stack")["mana_value"] == 4
    assert mana_value(state.battlefield[0].card, x=2, zone="battlefield") == \
        {"mana_value": 0, "colors": []}


def test_mana_value_of_cards_keeps_color_indicator_and_impending() -> None:
    """T15 (CR 118.9c): Overlord of the Hauntwoods is mana value 5 however it was cast;
    Dryad Arbor has no mana cost but a green color indicator (CR 202.2e)."""
    state = state_of({"card": "Overlord of the Hauntwoods", "cast_for": "impending",
                      "counters": {"time": 4}}, "Dryad Arbor")
    assert mana_value(state.battlefield[0].card, zone="battlefield") == \
        {"mana_value": 5, "colors": ["G"]}
    assert mana_value(state.battlefield[1].card) == {"mana_value": 0, "colors": ["G"]}


@pytest.mark.parametrize("kw", [{"zone": "deck"}, {"x": -1}, {"x": True}])
def test_mana_value_refuses_bad_arguments(kw: dict[str, Any]) -> None:
    with pytest.raises(BadQuery):
        mana_value("{1}", **kw)


# -- Happily Ever After (CR 603.4) ----------------------------------------------------------------

def _hea(*cards: str | dict[str, Any], graveyard: list[Any] | None = None,
         **player: Any) -> bool:
    return happily_ever_after(state_of(*cards, graveyard=graveyard, **player), "you")


def test_happily_ever_after_wins_with_reaper_king_and_six_types() -> None:
    """Happily Ever After rulings 2019-10-04: one five-color permanent is enough; six card
    types among permanents and graveyard (artifact, creature from Reaper King; land; enchantment
    from Happily Ever After itself; instant, sorcery in the graveyard); life ≥ starting life."""
    cards = ("Reaper King", "Forest", "Happily Ever After")
    grave = ["Lightning Bolt", "Divination"]
    assert _hea(*cards, graveyard=grave)
    assert not _hea(*cards, graveyard=grave, life=19)                  # below starting life
    assert _hea(*cards, graveyard=grave, life=45, starting_life=40)
    assert not _hea(*cards, graveyard=["Lightning Bolt"])            # five types only


def test_happily_ever_after_lands_give_no_colors() -> None:
    """Rulings: lands are colorless, so five basics never give five colors."""
    assert not _hea(*BASICS, "Everywhere", "Ornithopter", "Happily Ever After",
                    graveyard=["Lightning Bolt", "Divination", "Bonecrusher Giant"])


def test_happily_ever_after_adventurer_counts_only_creature() -> None:
    """Rulings + CR 715.4: Bonecrusher Giant in the graveyard does not add instant."""
    cards = ("Reaper King", "Forest", "Happily Ever After")
    assert not _hea(*cards, graveyard=["Bonecrusher Giant", "Divination"])   # no instant


# -- through the protocol and the command line ------------------------------------------------------

def test_counts_through_the_protocol_and_batch() -> None:
    """End to end: the protocol's ``counts`` query and ``manasolver
    batch`` (a real subprocess) on the bundled basics board (five basics and Everywhere)."""
    import json
    import subprocess
    import sys

    from manasolver.solver.service.protocol import answer

    board = json.loads((EXAMPLES /
                        "basics.json").read_text(encoding="utf-8"))
    expected = {"colors_among_permanents": [], "card_types": ["land"],
                "devotion": {"W": 0, "U": 0, "B": 0, "R": 0, "G": 0}, "domain": 5}
    assert answer({"query": "counts", "state": board}) == expected
    lines = "\n".join(json.dumps(q) for q in (
        {"query": "counts", "state": board, "id": 1},
        {"query": "counts", "state": {"players": [{"name": "a"}],
                                      "battlefield": [{"id": "x", "card": "Forrest"}]}, "id": 2},
    ))
    run = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "batch"], input=lines, check=False,
                         capture_output=True, text=True, timeout=60)
    first, second = (json.loads(line) for line in run.stdout.splitlines())
    assert first == {"id": 1, **expected}
    assert second["error"]["code"] == "unknown_card"
    assert second["error"]["where"] == "battlefield[0].card"


def test_module_examples_run() -> None:
    """The examples in the docstrings of board.py, board_status.py and counts.py run."""
    import doctest

    import manasolver.models.rules.counts as counts_module
    from manasolver.models.board import load as board
    from manasolver.models.board import status as board_status

    for module in (board, board_status, counts_module):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_happily_ever_after_conditions_name_each_part() -> None:
    """Happily Ever After rulings 2019-10-04 (CR 603.4): the three parts of its intervening
    "if" apart; the win condition is all three."""
    from manasolver.models.rules.counts import happily_ever_after_conditions
    raw = {"players": [{"name": "you", "life": 19, "graveyard": ["Lightning Bolt"]}],
           "battlefield": [{"id": "h", "card": "Happily Ever After"}, {"id": "r", "card": "Reaper King"},
                           {"id": "f", "card": "Forest"}]}
    state = load_state(raw)
    assert happily_ever_after_conditions(state) == {"five_colors": True, "six_card_types": False, "life": False}
    assert happily_ever_after(state) is False
    raw["players"] = [{"name": "you", "graveyard": ["Lightning Bolt", "Divination"]}]
    assert happily_ever_after(load_state(raw)) is True
