"""Castability over a deck: Karsten's anchor reproduced, the land rules, fetch lands, mana
sources, exact payment on real boards, and chunks that add up the same in one process or two."""

from __future__ import annotations

import math

import pytest

from manasolver.solver.castability.board import BoardOracle
from manasolver.solver.castability.deck import Deck, DeckError, parse_deck
from manasolver.solver.castability.lands import land_rule
from manasolver.solver.castability.run import Options, run


def _row(result: dict, card: str, turn: int) -> dict:  # type: ignore[type-arg]
    spell = next(s for s in result["spells"] if s["card"] == card)
    return next(r for r in spell["turns"] if r["turn"] == turn)  # type: ignore[no-any-return]


def _deck(db, text: str) -> Deck:  # type: ignore[no-untyped-def]
    return parse_deck(text, db)


# -- Karsten's anchor ----------------------------------------------------------------------------

@pytest.mark.parametrize("sources, spell, turn, karsten", [
    (14, "Opt", 1, 0.913),          # C on turn 1, 14 sources
    (13, "Opt", 1, 0.890),          # C on turn 1, 13 sources
    (21, "Counterspell", 2, 0.929),  # CC on turn 2, 21 sources
])
def test_karsten_anchor_25_lands(db, sources: int, spell: str, turn: int, karsten: float) -> None:  # type: ignore[no-untyped-def]
    """25 lands of two basic types in 60 cards, on the play: p_given_lands (games with at least the
    spell's mana value in lands, as Karsten conditions) is his figure within three standard errors of
    60,000 games plus the rounding of his table (0.05%)."""
    deck = _deck(db, f"{sources} Island\n{25 - sources} Mountain\n35 {spell}\n")
    result = run(deck, Options(turns=(1, turn), samples=60_000, seed=2022))
    row = _row(result, spell, turn)
    n = row["games_with_lands"]
    p = row["p_given_lands"]
    se = math.sqrt(p * (1 - p) / n)
    assert abs(p - karsten) <= 3 * se + 0.0005, (p, karsten, se)
    assert row["p_given_lands_interval"][0] <= p <= row["p_given_lands_interval"][1]


def test_karsten_anchor_separates_13_from_14_sources(db) -> None:  # type: ignore[no-untyped-def]
    """One more source is visible: 14 sources beat 13 by more than both intervals' widths."""
    r13 = run(_deck(db, "13 Island\n12 Mountain\n35 Opt\n"), Options(turns=(1, 1), samples=20_000, seed=5))
    r14 = run(_deck(db, "14 Island\n11 Mountain\n35 Opt\n"), Options(turns=(1, 1), samples=20_000, seed=5))
    assert _row(r13, "Opt", 1)["p_interval"][1] < _row(r14, "Opt", 1)["p_interval"][1]
    assert _row(r14, "Opt", 1)["p"] - _row(r13, "Opt", 1)["p"] > 0.01


# -- chunks ---------------------------------------------------------------------------------------

def test_same_seed_same_numbers_over_two_workers(db) -> None:  # type: ignore[no-untyped-def]
    """Chunks are fixed by the sample count: two local processes give exactly one process's numbers."""
    deck = _deck(db, "10 Island\n10 Mountain\n4 Steam Vents\n12 Izzet Charm\n12 Opt\n12 Crackling Drake\n")
    one = run(deck, Options(turns=(1, 4), samples=4500, seed=9, workers=1))
    two = run(deck, Options(turns=(1, 4), samples=4500, seed=9, workers=2))
    assert one["spells"] == two["spells"]
    other = run(deck, Options(turns=(1, 4), samples=4500, seed=10, workers=1))
    assert other["spells"] != one["spells"]


def test_first_progress_after_one_game_same_numbers(db) -> None:  # type: ignore[no-untyped-def]
    """The first chunk is played in the calling process while two workers take the others: the first
    progress line comes after one game, and the numbers are one process's."""
    deck = _deck(db, "10 Island\n10 Mountain\n4 Steam Vents\n12 Izzet Charm\n12 Opt\n12 Crackling Drake\n")
    seen: list[int] = []
    two = run(deck, Options(turns=(1, 4), samples=4500, seed=9, workers=2), lambda done, total, s: seen.append(done))
    one = run(deck, Options(turns=(1, 4), samples=4500, seed=9, workers=1))
    assert seen[0] == 1 and seen[-1] == 4500
    assert one["spells"] == two["spells"]


# -- lands by their text ---------------------------------------------------------------------------

def test_check_land_alone_enters_tapped_on_turn_one(db) -> None:  # type: ignore[no-untyped-def]
    """Glacial Fortress with no Plains or Island in play enters tapped: never {U} on turn 1; from turn 2
    an untapped Fortress is there whenever two lands were drawn."""
    result = run(_deck(db, "25 Glacial Fortress\n35 Opt\n"), Options(turns=(1, 3), samples=2000, seed=1))
    assert _row(result, "Opt", 1)["p"] == 0.0
    assert _row(result, "Opt", 2)["p"] > 0.9


def test_check_land_untapped_after_an_island(db) -> None:  # type: ignore[no-untyped-def]
    """With Islands in the deck, playing the Island first makes the Fortress untapped: {W}{U} on turn 2
    needs Island then Fortress, which the search finds."""
    result = run(_deck(db, "12 Island\n12 Glacial Fortress\n36 Azorius Charm\n"),
                 Options(turns=(1, 2), samples=3000, seed=3))
    row = _row(result, "Azorius Charm", 2)
    # castable exactly when the hand by turn 2 has an Island and a Fortress: close to its probability
    assert 0.4 < row["p"] < 0.8


def test_fast_land_untapped_early(db) -> None:  # type: ignore[no-untyped-def]
    """Spirebluff Canal with two or fewer other lands enters untapped: {U} on turn 1 with any land."""
    rule = land_rule(db.get("Spirebluff Canal"))
    assert rule.kind == "fast" and rule.lands == 2
    result = run(_deck(db, "24 Spirebluff Canal\n36 Opt\n"), Options(turns=(1, 1), samples=2000, seed=1))
    row = _row(result, "Opt", 1)
    assert row["p"] == pytest.approx(row["games_with_lands"] / 2000, abs=1e-4)


def test_tapped_land_and_shock_land(db) -> None:  # type: ignore[no-untyped-def]
    """Temple of Epiphany always enters tapped (no {U} on turn 1); Steam Vents enters untapped for 2 life."""
    temple = run(_deck(db, "25 Temple of Epiphany\n35 Opt\n"), Options(turns=(1, 1), samples=1000, seed=1))
    vents = run(_deck(db, "25 Steam Vents\n35 Opt\n"), Options(turns=(1, 1), samples=1000, seed=1))
    assert _row(temple, "Opt", 1)["p"] == 0.0
    assert _row(vents, "Opt", 1)["p"] == 1.0
    assert land_rule(db.get("Steam Vents")).kind == "shock"


def test_fetch_land_finds_what_the_library_holds(db) -> None:  # type: ignore[no-untyped-def]
    """Scalding Tarn finds an Island from the library and it enters untapped (turn-1 {U}); Evolving
    Wilds puts its land onto the battlefield tapped (no turn-1 mana); with no Island left to find,
    Tarn makes nothing blue."""
    tarn = run(_deck(db, "20 Scalding Tarn\n4 Island\n36 Opt\n"), Options(turns=(1, 1), samples=1000, seed=1))
    wilds = run(_deck(db, "24 Evolving Wilds\n4 Island\n32 Opt\n"), Options(turns=(1, 1), samples=1000, seed=1))
    dry = run(_deck(db, "24 Scalding Tarn\n4 Mountain\n32 Opt\n"), Options(turns=(1, 2), samples=1000, seed=1))
    assert _row(tarn, "Opt", 1)["p"] == 1.0
    assert _row(wilds, "Opt", 1)["p"] < 0.5
    assert _row(dry, "Opt", 2)["p"] == 0.0


# -- mana sources -----------------------------------------------------------------------------------

def test_llanowar_elves_used_the_turn_after_it_is_cast(db) -> None:  # type: ignore[no-untyped-def]
    """Elves cast on turn 1 or 2 pay on turn 3 (never on the turn cast: summoning sick): a {2}{G} spell
    on turn 3 is castable more often than the games with three lands; with vanilla creatures in their
    place, never more often; the {1}{G} on turn 1 never."""
    elves = run(_deck(db, "14 Forest\n20 Llanowar Elves\n26 Centaur Courser\n"),
                Options(turns=(1, 3), samples=3000, seed=4))
    bears = run(_deck(db, "14 Forest\n20 Grizzly Bears\n26 Centaur Courser\n"),
                Options(turns=(1, 3), samples=3000, seed=4))
    with_elves, without = _row(elves, "Centaur Courser", 3), _row(bears, "Centaur Courser", 3)
    assert with_elves["p"] > with_elves["games_with_lands"] / 3000 + 0.05
    assert without["p"] == pytest.approx(without["games_with_lands"] / 3000, abs=1e-4)
    assert _row(elves, "Llanowar Elves", 1)["p"] > 0.8
    # three mana on turn 2 only from an Elf cast on turn 1 (one cast on turn 2 is summoning sick)
    assert 0.1 < _row(elves, "Centaur Courser", 2)["p"] < with_elves["p"]
    assert _row(bears, "Centaur Courser", 2)["p"] == 0.0


def test_signet_turns_one_land_into_two_colours(db) -> None:  # type: ignore[no-untyped-def]
    """Izzet Signet on a Mountain pays {U}{R}: a board a land count calls one red source."""
    cards = [db.get("Mountain"), db.get("Izzet Signet")]
    charm = db.get("Izzet Charm").mana_cost
    oracle = BoardOracle(cards, [charm], db)
    assert oracle.castable((0, 2)) == 1          # Mountain + Signet
    assert oracle.castable((0,)) == 0            # Mountain alone
    assert oracle.castable((1, 2)) == 0          # the Mountain tapped: nothing to start the Signet


def test_filter_land_and_hybrid_exact(db) -> None:  # type: ignore[no-untyped-def]
    """Mystic Gate filters an Island's {U} into {W}{W}; {U/R}{U/R} from Island + Mountain; a gold
    {W}{U}{B} from two duals and an Island in the one assignment that works, not from two Scrublands
    and a Mountain (three lands, three of the colours "counted", no {U})."""
    from manasolver.models.cost import ManaCost
    cards = [db.get("Island"), db.get("Mystic Gate"), db.get("Mountain"), db.get("Scrubland"),
             db.get("Underground Sea")]
    costs = [ManaCost.parse("{W}{W}"), db.get("Frostburn Weird").mana_cost, db.get("Esper Charm").mana_cost]
    oracle = BoardOracle(cards, costs, db)
    island, gate, mountain, scrub, sea = 0, 2, 4, 6, 8
    assert oracle.castable((island, gate)) & 0b001            # {U} into the Gate: {W}{W}
    assert not oracle.castable((island, mountain)) & 0b001
    assert oracle.castable((island, mountain)) & 0b010        # hybrid from one of each
    assert oracle.castable((island, scrub, sea)) & 0b100      # W from Scrubland, B from the Sea, U Island
    assert not oracle.castable((mountain, scrub, scrub)) & 0b100


# -- decks -----------------------------------------------------------------------------------------

def test_arena_export_sections_and_comments(db) -> None:  # type: ignore[no-untyped-def]
    text = ("// a comment\nDeck\n4 Lightning Bolt (M11) 149\n4x Opt\n# another\n\n26 Mountain (M21) 269\n"
            "26 Island\nSideboard\n3 Negate (M20) 69\n")
    deck = _deck(db, text)
    assert deck.size == 60
    assert [n for n, _, _ in deck.cards] == ["Lightning Bolt", "Opt", "Mountain", "Island"]


def test_mtgo_export_second_block_is_the_sideboard(db) -> None:  # type: ignore[no-untyped-def]
    deck = _deck(db, "30 Island\n30 Opt\n\n4 Negate\n")
    assert deck.size == 60 and all(n != "Negate" for n, _, _ in deck.cards)


def test_split_card_name_is_not_a_comment(db) -> None:  # type: ignore[no-untyped-def]
    deck = _deck(db, "4 Fire // Ice\n4 Lightning Bolt // burn\n52 Mountain\n")
    assert [n for n, _, _ in deck.cards] == ["Fire // Ice", "Lightning Bolt", "Mountain"]


@pytest.mark.parametrize("text, where, words", [
    ("4 Lightning Bolt\n4 Lightnin Bolt\n52 Mountain\n", "line 2", "did you mean"),
    ("0 Lightning Bolt\n60 Mountain\n", "line 1", "at least 1"),
    ("60 Mountain\n10000 Opt\n", "line 2", "more than 9,999"),
    ("60 Mountain\nfour Opt\n", "line 2", "not a card line"),
    ("3 Mountain\n3 Opt\n", "deck", "at least 7"),
])
def test_bad_decks_name_the_line(db, text: str, where: str, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DeckError) as err:
        _deck(db, text)
    assert err.value.where == where
    assert words in err.value.message


def test_json_deck_with_commander(db) -> None:  # type: ignore[no-untyped-def]
    deck = _deck(db, '{"cards": [{"name": "Island", "count": 40}, {"name": "Opt", "count": 59}],'
                     ' "commander": ["Niv-Mizzet, Parun"]}')
    assert deck.is_commander and deck.size == 99
    result = run(deck, Options(turns=(1, 2), samples=500, seed=1))
    assert result["model"]["commander"] == ["Niv-Mizzet, Parun"]
    assert "commander_rules" in result["model"]
    assert any(s["card"] == "Niv-Mizzet, Parun" for s in result["spells"])


# -- a color chosen as a land enters --------------------------------------------------------------

def test_thriving_isle_adds_the_color_chosen_as_it_enters_cr_614_12(db) -> None:  # type: ignore[no-untyped-def]
    """Thriving Isle ("choose a color other than blue") chooses red in a deck of Lightning Bolts: tapped
    on the turn it is played, a Bolt the next turn; its deck model offers only the deck's other colors,
    each a card when a mana source's cost has a color, one card of either otherwise."""
    from manasolver.solver.castability.deckmodel import DeckModel
    from manasolver.models.symbols import G, R
    result = run(_deck(db, "24 Thriving Isle\n36 Lightning Bolt\n"), Options(turns=(1, 2), samples=2000, seed=3))
    assert _row(result, "Lightning Bolt", 1)["p"] == 0.0
    assert _row(result, "Lightning Bolt", 2)["p"] > 0.95
    deck = _deck(db, "20 Thriving Isle\n20 Lightning Bolt\n20 Llanowar Elves\n")
    model = DeckModel.build(deck.cards, deck.commander)
    isle = next(i for i, c in enumerate(model.cards) if c.name == "Thriving Isle")
    # Llanowar Elves costs {G}: played as one card of either color, split into a card of each when
    # the Elves' casting depends on the color (or played as each from the start without the split)
    (either,) = model.choices[isle]
    assert model.chosen[either] == R | G
    assert sorted(model.chosen[i] for i in model.splits[either]) == [R, G]
    model = DeckModel.build(deck.cards, deck.commander, split=False)
    assert sorted(model.chosen[i] for i in model.choices[isle]) == [R, G]
    deck = _deck(db, "20 Thriving Isle\n20 Lightning Bolt\n20 Giant Growth\n")
    model = DeckModel.build(deck.cards, deck.commander)
    isle = next(i for i, c in enumerate(model.cards) if c.name == "Thriving Isle")
    assert [model.chosen[i] for i in model.choices[isle]] == [R | G]  # no source: chosen per question


def test_thriving_isle_choice_is_fixed_once_entered(db) -> None:  # type: ignore[no-untyped-def]
    """Two Thriving Isles pay {R}{G} only when one chose red and the other green: the choice is made
    as each enters, not when its mana is spent."""
    from manasolver.models.cost import ManaCost
    from manasolver.models.symbols import G, R
    isle = db.get("Thriving Isle")
    costs = [ManaCost.parse("{R}{G}"), ManaCost.parse("{U}{R}")]
    oracle = BoardOracle([isle, isle, isle], costs, db, chosen={0: R, 1: G, 2: R})
    red, green, red2 = 0, 2, 4
    assert oracle.castable((red, green)) == 0b11
    assert oracle.castable((red, red2)) == 0b10
