"""Could-produce (CR 106.7): the least fixed point, vectors T91–T105.

Boards are built from hand-made cards (tests/support/cards.py) so that these tests pin
the fixed point, not the oracle parser; the vectors that need replacement and
type-changing effects (T91 Meteor Crater, T100 Blood Moon, T104 Contamination)
run on the bundled card data, whose effects the models read.
"""

from __future__ import annotations

import pytest
from cards import (
    AETHER_HUB,
    ANCIENT_ZIGGURAT,
    CRADLE,
    EVERYWHERE,
    EXOTIC_ORCHARD,
    FELLWAR_STONE,
    FOREST,
    MYSTIC_GATE,
    REFLECTING_POOL,
    SNOW_FOREST,
    VIVID_CRAG,
    WASTES,
    WILD_GROWTH,
    board,
    card,
    joiner,
    perm,
)
from manasolver.models.errors import Unsupported
from manasolver.models.symbols import mask_letters
from manasolver.solver.graph import could_produce, could_produce_letters, source_graph


def letters(state, pid: str) -> str:  # type: ignore[no-untyped-def]
    return mask_letters(could_produce(state)[pid])


def test_t92_viridian_joiner_negative_power_adds_nothing() -> None:
    # T92, CR 107.1b: "Add an amount of {G} equal to its power" with power -1 adds no mana.
    state = board(perm("vj", joiner("-1")))
    assert letters(state, "vj") == ""
    state = board(perm("vj", joiner("1"), counters=(("-1/-1", 1),)))
    assert letters(state, "vj") == ""
    state = board(perm("vj", joiner("1")))
    assert letters(state, "vj") == "G"


def test_t93_two_reflecting_pools_alone_produce_nothing() -> None:
    # T93, CR 106.7 and the Reflecting Pool ruling: the least fixed point starts empty.
    state = board(perm("p1", REFLECTING_POOL), perm("p2", REFLECTING_POOL))
    assert could_produce(state) == {"p1": 0, "p2": 0}


def test_t94_pool_sees_tapped_vivid_crag_without_counters() -> None:
    # T94, CR 106.7: costs (charge counters) and tapped state are ignored.
    state = board(perm("pool", REFLECTING_POOL), perm("crag", VIVID_CRAG, tapped=True))
    assert letters(state, "pool") == "WUBRG"


def test_t95_pool_and_wastes_make_colorless() -> None:
    # T95, CR 106.1b, 106.7: "any type" includes colorless.
    state = board(perm("pool", REFLECTING_POOL), perm("w", WASTES))
    assert letters(state, "pool") == "C"


def test_t96_orchard_facing_only_wastes_makes_nothing() -> None:
    # T96, Exotic Orchard ruling: "any color" never includes colorless.
    state = board(perm("o", EXOTIC_ORCHARD), perm("w", WASTES, controller="opponent"))
    assert letters(state, "o") == ""


def test_t97_orchards_and_pool_chain_to_green() -> None:
    # T97, CR 106.7 example: P: Forest + Orchard; Opp: Orchard + Reflecting Pool → {G} each.
    state = board(perm("f", FOREST), perm("o1", EXOTIC_ORCHARD),
                  perm("o2", EXOTIC_ORCHARD, controller="opponent"),
                  perm("rp", REFLECTING_POOL, controller="opponent"))
    cp = could_produce(state)
    assert {k: mask_letters(v) for k, v in cp.items()} == {"f": "G", "o1": "G", "o2": "G", "rp": "G"}
    g = source_graph(state)
    assert g.why("o1", "G") == ["o1", "o2", "f"]
    assert g.why("rp", "G")[-1] == "f"
    assert g.why("o1", "U") == []


def test_t98_two_orchards_facing_each_other_make_nothing() -> None:
    # T98, CR 106.7 example: a cycle with no real source resolves to nothing.
    state = board(perm("o1", EXOTIC_ORCHARD), perm("o2", EXOTIC_ORCHARD, controller="opponent"))
    assert could_produce(state) == {"o1": 0, "o2": 0}
    assert source_graph(state).cycles() != []


def test_t99_pool_sees_tapped_everywhere() -> None:
    # T99, CR 305.6: Everywhere has all five basic land types, so all five abilities.
    state = board(perm("pool", REFLECTING_POOL), perm("ev", EVERYWHERE, tapped=True))
    assert letters(state, "pool") == "WUBRG"
    assert letters(state, "ev") == "WUBRG"


def test_t101_pool_ignores_ziggurat_restriction() -> None:
    # T101, Reflecting Pool ruling: restrictions are ignored; the Pool's own mana is unrestricted.
    state = board(perm("pool", REFLECTING_POOL), perm("z", ANCIENT_ZIGGURAT))
    assert letters(state, "pool") == "WUBRG"
    assert REFLECTING_POOL.mana_abilities[0].production.restriction is None


def test_t102_wild_growth_is_not_could_produce() -> None:
    # T102, Wild Growth ruling: triggered extra mana is not something the land could produce.
    state = board(perm("pool", REFLECTING_POOL), perm("w", WASTES),
                  perm("wg", WILD_GROWTH, attached_to="w"))
    assert letters(state, "pool") == "C"
    assert "wg" not in could_produce(state)


def test_t103_pool_and_aether_hub_with_no_energy() -> None:
    # T103, CR 106.7 [derived]: costs (energy) are ignored.
    state = board(perm("pool", REFLECTING_POOL), perm("hub", AETHER_HUB), energy=0)
    assert letters(state, "pool") == "WUBRGC"


def test_t105_pool_and_cradle_without_creatures() -> None:
    # T105, CR 106.7 [derived]: "{G} for each creature you control" with none makes no mana.
    state = board(perm("pool", REFLECTING_POOL), perm("cr", CRADLE))
    assert letters(state, "pool") == ""
    state = board(perm("pool", REFLECTING_POOL), perm("cr", CRADLE), perm("vj", joiner()))
    assert letters(state, "pool") == "G"


def test_fellwar_stone_sees_opponents_lands_colors_only() -> None:
    # Fellwar Stone ruling 2009-10-01: colors only, lands an opponent controls.
    state = board(perm("fs", FELLWAR_STONE), perm("f", FOREST), perm("w", WASTES, controller="opponent"),
                  perm("m", MYSTIC_GATE, controller="opponent"))
    assert letters(state, "fs") == "WU"


def test_pool_sees_only_its_controllers_lands() -> None:
    # Reflecting Pool: "a land you control"; a Forest of the opponent does not count.
    state = board(perm("pool", REFLECTING_POOL), perm("f", FOREST, controller="opponent"))
    assert letters(state, "pool") == ""


def test_pool_snow_is_not_a_type() -> None:
    # T126 (the could-produce half), CR 107.4h: snow is not a type; the Pool mirrors {G} only.
    state = board(perm("pool", REFLECTING_POOL), perm("sf", SNOW_FOREST))
    assert letters(state, "pool") == "G"


def test_letters_answer_and_feeds_edges() -> None:
    state = board(perm("f", FOREST), perm("gate", MYSTIC_GATE))
    assert could_produce_letters(state) == {"f": ["G"], "gate": ["W", "U", "C"]}
    g = source_graph(state).graph
    assert g.has_edge(("pool", "you"), "gate") and g.has_edge("f", ("pool", "you"))


def test_unreadable_text_is_refused_not_guessed() -> None:
    from dataclasses import replace

    contamination = replace(card("Contamination", "Enchantment", mana_cost="{2}{B}"),
                            unsupported=("If a land is tapped for mana, it produces {B} instead",))
    state = board(perm("f", FOREST), perm("c", contamination))
    with pytest.raises(Unsupported):
        could_produce(state)
    assert could_produce(state, strict=False) == {"f": 16}




# -- the same vectors with real card data (the oracle parser) ----------------------


def _real_board(*spec: tuple[str, str, str], **kw: object):  # type: ignore[no-untyped-def]
    from manasolver.models import carddb
    db = carddb.default_db()
    perms = []
    for pid, name, controller in spec:
        c = db.get(name)
        perms.append(perm(pid, c, controller, **kw.get(pid, {})))  # type: ignore[arg-type]
    return board(*perms)


def test_real_cards_t93_t95_t97_t98() -> None:
    # T93, T95, T97, T98 (CR 106.7) with the bundled oracle text.
    assert could_produce(_real_board(("a", "Reflecting Pool", "you"), ("b", "Reflecting Pool", "you"))) == \
        {"a": 0, "b": 0}
    state = _real_board(("rp", "Reflecting Pool", "you"), ("w", "Wastes", "you"))
    assert letters(state, "rp") == "C"
    state = _real_board(("f", "Forest", "you"), ("o1", "Exotic Orchard", "you"),
                        ("o2", "Exotic Orchard", "opponent"), ("rp", "Reflecting Pool", "opponent"))
    assert {k: mask_letters(v) for k, v in could_produce(state).items()} == \
        {"f": "G", "o1": "G", "o2": "G", "rp": "G"}
    state = _real_board(("o1", "Exotic Orchard", "you"), ("o2", "Exotic Orchard", "opponent"))
    assert could_produce(state) == {"o1": 0, "o2": 0}


def test_real_cards_t94_t103_t105() -> None:
    # T94, T103, T105: costs and counters ignored; an amount of 0 gives no type.
    state = _real_board(("rp", "Reflecting Pool", "you"), ("vc", "Vivid Crag", "you"), vc={"tapped": True})
    assert letters(state, "rp") == "WUBRG"
    state = _real_board(("rp", "Reflecting Pool", "you"), ("h", "Aether Hub", "you"))
    assert letters(state, "rp") == "WUBRGC"
    state = _real_board(("rp", "Reflecting Pool", "you"), ("gc", "Gaea's Cradle", "you"))
    assert letters(state, "rp") == ""


def test_real_cards_t102_wild_growth_trigger_is_not_could_produce() -> None:
    # T102, Wild Growth ruling: its triggered mana is not could-produce; strict mode lets the trigger through.
    state = _real_board(("rp", "Reflecting Pool", "you"), ("w", "Wastes", "you"), ("wg", "Wild Growth", "you"),
                        wg={"attached_to": "w"})
    assert letters(state, "rp") == "C"


def test_real_cards_t100_blood_moon_everywhere_makes_only_red() -> None:
    # T100, CR 305.7 and the Blood Moon ruling: a nonbasic land becomes a Mountain with only {T}: Add {R}.
    state = _real_board(("ev", "Everywhere", "you"), ("bm", "Blood Moon", "opponent"))
    assert letters(state, "ev") == "R"
    state = _real_board(("rp", "Reflecting Pool", "you"), ("ev", "Everywhere", "you"), ("bm", "Blood Moon", "you"))
    assert letters(state, "rp") == "R"  # the Pool itself is a Mountain now


def test_real_cards_t104_fellwar_stone_under_contamination() -> None:
    # T104, Fellwar ruling + Contamination [derived]: the opponent's Forest could produce only {B}.
    state = _real_board(("fs", "Fellwar Stone", "you"), ("f", "Forest", "opponent"),
                        ("c", "Contamination", "opponent"))
    assert letters(state, "fs") == "B"
    # A Reflecting Pool is a land: Contamination replaces its own mana too.
    state = _real_board(("rp", "Reflecting Pool", "you"), ("i", "Island", "you"), ("c", "Contamination", "you"))
    assert letters(state, "rp") == "B"


def test_real_cards_mana_reflection_keeps_types() -> None:
    # CR 106.7: multipliers change amounts, not types.
    state = _real_board(("rp", "Reflecting Pool", "you"), ("f", "Forest", "you"), ("mr", "Mana Reflection", "you"))
    assert letters(state, "rp") == "G"


def test_real_cards_t91_meteor_crater() -> None:
    # T91, CR 106.5: Meteor Crater with no colored permanent makes nothing; with a green one, {G}.
    state = _real_board(("mc", "Meteor Crater", "you"), ("f", "Forest", "you"))
    assert letters(state, "mc") == ""
    state = _real_board(("mc", "Meteor Crater", "you"), ("e", "Llanowar Elves", "you"))
    assert letters(state, "mc") == "G"


def test_real_cards_nykthos_could_produce_the_colors_of_its_devotion() -> None:
    # CR 106.7, 700.5; Nykthos ruling 2013-09-15: "{2}, {T}: Choose a color. Add an amount of mana
    # of that color equal to your devotion to that color." could produce each color whose devotion
    # is above 0 (the choice is evaluated per color); {C} comes from its "{T}: Add {C}.".
    # Kitchen Finks {1}{G/W}{G/W}: devotion 2 to G and to W (hybrid counts for both).
    state = _real_board(("n", "Nykthos, Shrine to Nyx", "you"), ("k", "Kitchen Finks", "you"))
    assert letters(state, "n") == "WGC"
    # No devotion: a color chosen would add no mana (107.1b), so only {C}.
    assert letters(_real_board(("n", "Nykthos, Shrine to Nyx", "you")), "n") == "C"
    # The opponent's permanents are not in your devotion.
    state = _real_board(("n", "Nykthos, Shrine to Nyx", "you"), ("k", "Kitchen Finks", "opponent"))
    assert letters(state, "n") == "C"
    # Reflecting Pool mirrors what Nykthos could produce (lands you control).
    state = _real_board(("rp", "Reflecting Pool", "you"), ("n", "Nykthos, Shrine to Nyx", "you"),
                        ("e", "Llanowar Elves", "you"))
    assert letters(state, "rp") == "GC"


def test_nykthos_could_produce_through_the_protocol() -> None:
    # The could_produce answer lists the devotion colors in WUBRG order, then C.
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you"}, {"name": "opp"}],
             "battlefield": [{"id": "n", "card": "Nykthos, Shrine to Nyx"},
                             {"id": "k", "card": "Kitchen Finks"},
                             {"id": "b", "card": "Bloodghast", "controller": "opp"}]}
    assert answer({"query": "could_produce", "state": state})["could_produce"] == {"n": ["W", "G", "C"]}


def test_tap_cost_sources_and_battlefield_spirit_guides() -> None:
    """CR 106.7 (could produce ignores costs): Heritage Druid could produce {G}, Urza {U},
    Birchlore Rangers any color; a Spirit Guide on the battlefield produces nothing there
    (its ability works from the hand) and no longer makes the query unsupported."""
    from manasolver.solver.service.protocol import answer
    board = {"players": [{"name": "you"}],
             "battlefield": [{"id": "h", "card": "Heritage Druid"}, {"id": "u", "card": "Urza, Lord High Artificer"},
                             {"id": "b", "card": "Birchlore Rangers"}, {"id": "s", "card": "Simian Spirit Guide"}]}
    out = answer({"query": "could_produce", "state": board})["could_produce"]
    assert out == {"h": ["G"], "u": ["U"], "b": ["W", "U", "B", "R", "G"]}
