"""Castability: every face of a card counts (modal double-faced lands and spells, Pathways, split and
adventure cards), costs the model can't credit are lower bounds with a note, and why a spell failed."""

from __future__ import annotations

import pytest
from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.solver.castability.board import implies
from manasolver.solver.castability.deck import parse_deck
from manasolver.solver.castability.run import Options, run, table


@pytest.fixture(scope="module")
def db():  # type: ignore[no-untyped-def]
    return default_db()


def _spell(result: dict, name: str) -> dict:  # type: ignore[type-arg]
    return next(s for s in result["spells"] if s["card"] == name)  # type: ignore[no-any-return]


def test_shatterskull_smashing_counts_as_a_land_and_as_a_spell(db) -> None:  # type: ignore[no-untyped-def]
    """A deck whose only red sources are Shatterskull Smashing's land face casts Lightning Bolt, and
    Shatterskull Smashing is also its own row (X is 0: {R}{R})."""
    deck = parse_deck("24 Shatterskull Smashing\n36 Lightning Bolt\n", db)
    result = run(deck, Options(turns=(1, 3), samples=1000, seed=3))
    assert _spell(result, "Lightning Bolt")["turns"][1]["p"] > 0.9
    assert _spell(result, "Shatterskull Smashing")["cost"] == "{X}{R}{R}"
    assert _spell(result, "Shatterskull Smashing")["turns"][2]["p"] > 0.8


def test_pathway_either_land_face(db) -> None:  # type: ignore[no-untyped-def]
    """Brightclimb Pathway is played as Brightclimb (W) or Grimclimb (B): one Pathway pays {W} or {B}."""
    deck = parse_deck("24 Brightclimb Pathway\n18 Swords to Plowshares\n18 Fatal Push\n", db)
    result = run(deck, Options(turns=(1, 2), samples=1000, seed=4))
    for name in ("Swords to Plowshares", "Fatal Push"):
        assert _spell(result, name)["turns"][0]["p"] > 0.85


def test_fire_ice_gives_fire_and_ice_rows(db) -> None:  # type: ignore[no-untyped-def]
    """A split card is read as both halves: Fire {1}{R} and Ice {1}{U}, each its own row; with only
    Mountains, Fire is castable on turn 2 and Ice never, for want of blue."""
    deck = parse_deck("24 Mountain\n36 Fire // Ice\n", db)
    result = run(deck, Options(turns=(1, 3), samples=1000, seed=5))
    fire, ice = _spell(result, "Fire"), _spell(result, "Ice")
    assert fire["cost"] == "{1}{R}" and ice["cost"] == "{1}{U}"
    assert fire["turns"][1]["p"] > 0.8 and ice["turns"][2]["p"] == 0.0
    assert ice["turns"][2]["why"]["colors"].get("U", 0) > 0.8


def test_treasure_cruise_delve_is_a_lower_bound_with_a_note(db) -> None:  # type: ignore[no-untyped-def]
    """Delve is not modelled: Treasure Cruise's row says so (lower_bound, a note), never a silent 0."""
    deck = parse_deck("24 Island\n36 Treasure Cruise\n", db)
    result = run(deck, Options(turns=(1, 3), samples=300, seed=6))
    cruise = _spell(result, "Treasure Cruise")
    assert cruise["lower_bound"] is True and "delve" in cruise["note"]
    assert "delve not modelled" in table(result)


def test_adventure_gives_both_rows(db) -> None:  # type: ignore[no-untyped-def]
    """Bonecrusher Giant: the creature {2}{R} and the adventure Stomp {1}{R}."""
    deck = parse_deck("24 Mountain\n36 Bonecrusher Giant\n", db)
    result = run(deck, Options(turns=(1, 3), samples=300, seed=7))
    assert _spell(result, "Stomp")["cost"] == "{1}{R}"
    assert _spell(result, "Bonecrusher Giant")["cost"] == "{2}{R}"


def test_why_too_few_lands_and_tapped(db) -> None:  # type: ignore[no-untyped-def]
    """With only tapped lands (Guildgates), a one-drop on turn 1 fails for lack of a land or because the
    land entered tapped, never for its color."""
    deck = parse_deck("24 Izzet Guildgate\n36 Opt\n", db)
    result = run(deck, Options(turns=(1, 1), samples=500, seed=8))
    row = _spell(result, "Opt")["turns"][0]
    assert row["p"] == 0.0
    assert row["why"]["tapped"] > 0.9 and row["why"]["colors"] == {}


def test_table_never_prints_100_for_less_than_certain(db) -> None:  # type: ignore[no-untyped-def]
    """99.99% is shown as >99.9, and the table states the mulligan rule and what p means."""
    deck = parse_deck("30 Mountain\n30 Lightning Bolt\n", db)
    result = run(deck, Options(turns=(1, 4), samples=3000, seed=9))
    text = table(result)
    assert "mulligan:" in text and "p given lands" in text
    for s in result["spells"]:
        for r in s["turns"]:
            if 0.9995 <= r["p"] < 1:
                assert "100.0" not in text


def test_cost_inclusion_carries_answers_between_costs() -> None:
    """A board paying {2}{B}{B} pays {1}{B} (its symbols are part of it); {B}{B} is not part of {2}{B}."""
    c = ManaCost.parse
    assert implies(c("{1}{B}"), c("{2}{B}{B}"))
    assert implies(c("{3}"), c("{1}{B}{B}"))
    assert not implies(c("{B}{B}"), c("{2}{B}"))
    assert not implies(c("{1}{B/P}"), c("{3}{B}"))


@pytest.mark.parametrize("name, word", [("Fury", "evoke"), ("Chord of Calling", "convoke"),
                                        ("Thoughtcast", "affinity"), ("Force of Will", "alternative cost"),
                                        ("Gurmag Angler", "delve")])
def test_uncredited_cost_note(db, name: str, word: str) -> None:  # type: ignore[no-untyped-def]
    """Evoke (Fury), convoke (Chord of Calling), affinity (Thoughtcast), an alternative cost (Force of
    Will) and delve (Gurmag Angler) are named in the row's note; Lightning Bolt has none."""
    from manasolver.solver.castability.games import DeckModel
    deck = parse_deck(f"24 Island\n4 {name}\n4 Lightning Bolt\n28 Opt\n", db)
    spells = {s.name: s for s in DeckModel.build(deck.cards, deck.commander).spells}
    assert spells[name].lower_bound and word in spells[name].note
    assert not spells["Lightning Bolt"].lower_bound


def test_unclaimed_territory_restricted_mana_is_a_lower_bound_cr_106_6(db) -> None:  # type: ignore[no-untyped-def]
    """Unclaimed Territory's mana pays only creature spells of the chosen type (CR 106.6), which the
    games never count: a creature spell's row is a lower bound naming the land; an instant's is not
    (its mana can't pay for it, so its p is exact)."""
    from manasolver.solver.castability.games import DeckModel
    deck = parse_deck("20 Island\n4 Unclaimed Territory\n18 Spectral Sailor\n18 Opt\n", db)
    spells = {s.name: s for s in DeckModel.build(deck.cards, deck.commander).spells}
    assert spells["Spectral Sailor"].lower_bound and "Unclaimed Territory" in spells["Spectral Sailor"].note
    assert not spells["Opt"].lower_bound


def test_ancient_ziggurat_restriction_read_per_spell_cr_106_6(db) -> None:  # type: ignore[no-untyped-def]
    """Ancient Ziggurat's mana pays creature spells (CR 106.6): Grizzly Bears' row names it, Lightning
    Bolt's does not; and the table marks the creature's row as a lower bound."""
    deck = parse_deck("20 Mountain\n4 Ancient Ziggurat\n18 Grizzly Bears\n18 Lightning Bolt\n", db)
    result = run(deck, Options(turns=(1, 2), samples=200, seed=7))
    bears, bolt = _spell(result, "Grizzly Bears"), _spell(result, "Lightning Bolt")
    assert bears["lower_bound"] is True and "Ancient Ziggurat" in bears["note"]
    assert not bolt.get("lower_bound")


def test_everflowing_chalice_cast_kicked_once_is_a_mind_stone_cr_702_33(db) -> None:  # type: ignore[no-untyped-def]
    """Multikicker (CR 702.33): Everflowing Chalice is cast for {2} with one charge counter, so it adds
    {C} as a Mind Stone does; the same games give Cancel the same p with either (it counted nothing)."""
    chalice = parse_deck("17 Island\n20 Everflowing Chalice\n23 Cancel\n", db)
    stone = parse_deck("17 Island\n20 Mind Stone\n23 Cancel\n", db)
    opts = Options(turns=(3, 4), samples=400, seed=8)
    got = [_spell(run(d, opts), "Cancel")["turns"][1]["p"] for d in (chalice, stone)]
    assert got[0] == got[1]
    lands = parse_deck("17 Island\n20 Opt\n23 Cancel\n", db)
    assert _spell(run(lands, opts), "Cancel")["turns"][1]["p"] < got[0]


def test_brightclimb_pathway_played_as_one_card_of_either_color_counts_as_each_face(db) -> None:  # type: ignore[no-untyped-def]
    """A Pathway is one card of the color chosen as it enters, W or B for Brightclimb Pathway, split
    into its faces when a mana source's casting depends on the face (Llanowar Elves costs {G}): the same
    counts, game by game, as playing each face as its own card."""
    from manasolver.models.symbols import B, W
    from manasolver.solver.castability import games
    from manasolver.solver.castability.board import BoardOracle
    from manasolver.solver.castability.deckmodel import DeckModel
    deck = parse_deck("10 Brightclimb Pathway\n8 Branchloft Pathway\n6 Forest\n12 Llanowar Elves\n"
                      "12 Anguished Unmaking\n12 Vindicate\n", db)
    counts = []
    for split in (True, False):
        model = DeckModel.build(deck.cards, deck.commander, split=split)
        bright = next(i for i, c in enumerate(model.cards) if c.name.startswith("Brightclimb"))
        if split:
            (either,) = model.faces[bright]
            assert model.chosen[either] == W | B
            assert sorted(model.cards[f].name for f in model.splits[either]) == ["Brightclimb Pathway",
                                                                                 "Grimclimb Pathway"]
        else:
            assert len(model.faces[bright]) == 2
        oracle = BoardOracle(model.cards, model.costs(), db, [], model.chosen)
        c = games.run_chunk(model, oracle, 7, 0, 400, 5, False)
        counts.append((c.castable, c.with_lands, c.why_lands, c.why_tapped, c.why_other, c.why_colors, c.cut))
    assert counts[0] == counts[1]


def test_brightclimb_pathway_beside_incubation_druid_could_produce_only_its_face_cr_106_7(db) -> None:  # type: ignore[no-untyped-def]
    """Incubation Druid adds a type a land you control could produce (CR 106.7): beside a Brightclimb
    Pathway played as Brightclimb that is white, as Grimclimb black, never both, so the two pay {W}{W}
    and {B}{B} but not {W}{B}."""
    from manasolver.solver.castability.board import BoardOracle
    from manasolver.solver.castability.deckmodel import DeckModel
    deck = parse_deck("30 Brightclimb Pathway\n30 Incubation Druid\n", db)
    model = DeckModel.build(deck.cards, deck.commander)
    bright = next(i for i, c in enumerate(model.cards) if c.name.startswith("Brightclimb"))
    (either,) = model.faces[bright]
    druid = next(i for i, c in enumerate(model.cards) if c.name == "Incubation Druid")
    costs = [ManaCost.parse(c) for c in ("{W}{W}", "{B}{B}", "{W}{B}")]
    oracle = BoardOracle(model.cards, costs, db, [], model.chosen)
    assert oracle.castable(tuple(sorted((2 * either, 2 * druid)))) == 0b011
