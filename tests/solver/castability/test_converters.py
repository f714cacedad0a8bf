"""Castability's exact decider for boards of converters (Signets, filter lands, Chromatic Sphere) answers
what the payment engine answers: boards drawn from the real Commander decks of ``data/decks/commander``,
and boards by hand for each kind of converter; Jegantha, the Wellspring's mana, which pays colored symbols only."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manasolver.models.carddb import CardDB, default_db
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.symbols import ANY_COLOR, B, C, G, R, U, W
from manasolver.solver.castability.board import BoardKey, BoardOracle, _implies, _simple
from manasolver.solver.castability.converters import pools, pools_pay
from manasolver.solver.castability.deck import parse_deck
from manasolver.solver.castability.deckmodel import DeckModel
from manasolver.solver.castability.units import ANY, cost_need, have, life_need, pays_colored, perm_modes, perm_units
from manasolver.solver.service.api import can_pay

COMMANDER = Path(__file__).resolve().parents[3] / "data" / "decks" / "commander"
DECKS = sorted(COMMANDER.glob("*.txt"))
#: Costs asked besides each deck's own: generic amounts and colorless.
EXTRA = ("{1}", "{2}", "{3}", "{4}", "{5}", "{6}", "{C}", "{C}{C}", "{2}{C}")


@functools.lru_cache(maxsize=None)
def _deck(path: Path) -> tuple[BoardOracle, tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    """A Commander deck's oracle, the card indexes of its mana permanents (lands and sources), those
    of them that are converters (or all of them when it has none), and the costs asked."""
    db = default_db()
    deck = parse_deck(path.read_text(), db)
    model = DeckModel.build(deck.cards, deck.commander)
    costs = sorted({c.format() for c in model.costs() if not any(s.variable for s in c.symbols)} | set(EXTRA))
    oracle = BoardOracle(model.cards, [ManaCost.parse(c) for c in costs], db,
                         [c.name for c in deck.commander], model.chosen)
    mana = tuple(i for i in range(len(model.cards)) if model.is_land[i] or i in model.sources)
    conv = tuple(i for i in mana if oracle._units[i].plain is None and oracle._units[i].modes is not None)
    return oracle, mana, conv or mana, tuple(costs)


def _engine(oracle: BoardOracle, key: BoardKey, cost: str) -> bool | None:
    """The engine's ``can_pay`` (the service API) on the board of ``key``, over the colors its
    permanents may choose; ``None`` when it gives no answer (its solver's time bound, on a loaded
    machine)."""
    boards: list[dict[str, Any]] = oracle._choice_boards(key) or [oracle._board_json(key)]
    try:
        return any(can_pay(b, cost)["payable"] for b in boards)
    except Unsupported:
        return None


@pytest.mark.slow
@settings(max_examples=120)
@given(st.data())
def test_converter_boards_of_real_commander_decks_answer_as_the_engine_cr_605_3a(data: st.DataObject) -> None:
    """A board of a real Commander deck (its lands and mana sources, some tapped, with several of its
    converters) and a cost of the deck: whenever the units and converters decide the cost (every
    permanent plain or a converter, or the bounds; Phyrexian symbols paid in life), the answer is the
    engine's ``can_pay``."""
    path = data.draw(st.sampled_from(DECKS), label="deck")
    oracle, mana, conv, costs = _deck(path)
    cards = data.draw(st.lists(st.sampled_from(mana), max_size=6), label="permanents") + \
        data.draw(st.lists(st.sampled_from(conv), min_size=1, max_size=4), label="converters")
    tapped = data.draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)), label="tapped")
    key = tuple(sorted(2 * c + t for c, t in zip(cards, tapped)))
    units = oracle._units_of(key)
    for cost in data.draw(st.lists(st.sampled_from(costs), min_size=1, max_size=3, unique=True), label="costs"):
        mana = ManaCost.parse(cost)
        need = cost_need(mana)
        fast = oracle._decide(units, need) if need is not None else oracle._by_life(units, life_need(mana))
        engine = _engine(oracle, key, cost) if fast is not None else None
        if engine is not None:
            assert fast == engine, ([(oracle.cards[c >> 1].name, c & 1) for c in key], cost)


def _check(db: CardDB, cards: list[str], answers: dict[str, bool]) -> None:
    """The board of ``cards`` (untapped) is decided exactly (no engine call) and pays each cost of
    ``answers`` as given, which is also the engine's answer."""
    costs = list(answers)
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    key = tuple(sorted(2 * i for i in range(len(cards))))
    mask = oracle.castable(key)
    assert oracle.engine_calls == 0
    for i, cost in enumerate(costs):
        ok = bool(mask >> i & 1)
        assert ok == answers[cost], (cards, cost)
        assert ok == _engine(oracle, key, cost), (cards, cost)


def test_signet_paid_only_by_mana_made_before_it_cr_605_3a(db: CardDB) -> None:
    """Two Signets pay each other's {1} only if one of them is paid first by other mana: alone they
    add nothing; with an Island, the Island pays one, whose mana pays the other (three mana in all)."""
    _check(db, ["Dimir Signet", "Dimir Signet"], {"{1}": False, "{U}": False})
    _check(db, ["Island", "Dimir Signet", "Dimir Signet"],
           {"{U}{B}{B}": True, "{3}": True, "{4}": False, "{U}{U}{U}": False, "{B}{B}{U}": True})


def test_shadowmoor_filter_land_turns_one_mana_into_two_cr_106_1(db: CardDB) -> None:
    """Fetid Heath alone adds {C}; with a Plains, the Plains' {W} pays {W/B} for {W}{W}, {W}{B} or
    {B}{B}: two mana, of any of those pairs."""
    _check(db, ["Fetid Heath"], {"{C}": True, "{W}": False, "{1}": True, "{2}": False})
    _check(db, ["Plains", "Fetid Heath"], {"{B}{B}": True, "{W}{B}": True, "{W}{W}": True, "{W}{W}{W}": False,
                                           "{C}{W}": True, "{3}": False})
    _check(db, ["Island", "Fetid Heath"], {"{B}{B}": False, "{C}{U}": True, "{2}": True})


def test_odyssey_filter_land_and_chromatic_sphere_cr_602_2(db: CardDB) -> None:
    """Darkwater Catacombs turns {1} into {U}{B}; Chromatic Sphere turns {1} into a mana of any color
    once (it is sacrificed): a Forest and a Sphere pay {R} but not {G}{R}."""
    _check(db, ["Forest", "Darkwater Catacombs"], {"{U}{B}": True, "{G}{U}": False, "{3}": False})
    _check(db, ["Forest", "Chromatic Sphere"], {"{R}": True, "{G}{R}": False, "{1}": True, "{2}": False})
    _check(db, ["Forest", "Forest", "Chromatic Sphere", "Chromatic Sphere"],
           {"{R}{W}": True, "{G}{R}{W}": False})


def test_talisman_and_restricted_mana_are_one_unit_cr_106_6(db: CardDB) -> None:
    """A Talisman adds {C} or either of its colors (its damage changes no payment): one unit.  Haven
    of the Spirit Dragon's mana of any color may only cast a Dragon, which a cost asked of a board is
    not (CR 106.6): it is a land adding {C}."""
    assert perm_units(db.get("Talisman of Dominance"), 0).plain == (U | B | C,)
    assert perm_units(db.get("Haven of the Spirit Dragon"), 0).plain == (C,)
    assert perm_modes(db.get("Dimir Signet"), 0) == (((ANY,), (U, B)),)
    assert perm_modes(db.get("Fetid Heath"), 0) == (((), (C,)), ((W | B,), (W | B, W | B)))


def _need(cost: str) -> tuple[int, tuple[tuple[int, int], ...]]:
    need = cost_need(ManaCost.parse(cost))
    assert need is not None
    return need


def test_pools_spend_the_unit_of_fewest_types() -> None:
    """Paying a Signet's {1} from a {U} or a ``U|B`` unit: spending the ``U`` keeps the better pool,
    so one pool is kept (both are searched only when neither is part of the other)."""
    signet = (((ANY,), (W, U)),)
    found = pools([U, U | B], ((signet, 1),))
    assert found is not None and len(found) == 1
    assert pools_pay(found, _need("{W}{U}{B}"))
    assert pools_pay(found, _need("{W}{U}{U}"))
    assert not pools_pay(found, _need("{W}{B}{B}"))
    sphere = (((ANY,), (ANY_COLOR,)),)
    found = pools([G, R], ((sphere, 2),))
    assert found is not None and pools_pay(found, _need("{W}{B}")) and not pools_pay(found, _need("{W}{B}{G}"))


def test_restricted_mana_pays_only_the_converters_it_names_cr_106_6(db: CardDB) -> None:
    """Primal Beyond's mana of any color may only cast an Elemental or pay an Elemental's ability: no
    cost asked of a board is a spell's, and Fetid Heath and Dimir Signet are no Elementals, so that
    mana pays nothing here and the Beyond is a land adding {C} (which pays the Signet's {1}, not the
    Heath's {W/B}); Smokebraider's mana alike pays no Signet."""
    beyond = perm_units(db.get("Primal Beyond"), 0)
    assert beyond.plain == (C,) and beyond.feeds
    _check(db, ["Primal Beyond", "Fetid Heath"], {"{W}{B}": False, "{W}{B}{C}": False, "{C}{C}": True, "{W}": False})
    _check(db, ["Primal Beyond", "Dimir Signet", "Forest"], {"{G}{U}{B}": True, "{G}{U}{B}{C}": False,
                                                             "{R}": False})
    costs = [ManaCost.parse("{U}{B}"), ManaCost.parse("{3}")]
    smoke = BoardOracle([db.get("Smokebraider"), db.get("Dimir Signet")], costs, db)
    assert smoke.castable((0, 2)) == 0  # (the engine decides this one)


def test_vivid_land_has_the_charge_counters_it_enters_with_cr_122_6(db: CardDB) -> None:
    """Vivid Crag enters with two charge counters; on a castability board it has them, so it adds
    {R} or, removing one, a mana of any color: one unit of any color, as the engine answers with the
    counters on the board."""
    from manasolver.solver.castability.units import entry_counters
    crag = db.get("Vivid Crag")
    assert entry_counters(crag) == (("charge", 2),)
    # cast kicked once (cast_cost: {2}), so one charge counter
    assert entry_counters(db.get("Everflowing Chalice")) == (("charge", 1),)
    assert perm_units(crag, 0, 0, (("charge", 2),)).plain == (ANY_COLOR,)
    assert perm_units(crag, 0).plain == (R,)
    _check(db, ["Vivid Crag", "Island"], {"{W}{U}": True, "{U}{U}": True, "{R}{R}": False, "{C}": False})


def test_chromatic_lantern_and_the_world_tree_give_lands_any_color_cr_613_1f(db: CardDB) -> None:
    """Chromatic Lantern gives each land "{T}: Add one mana of any color" (layer 6, CR 613.1f): a
    Swamp and a Dimir Signet then pay {G}{G}; The World Tree gives it only while its controller has
    six lands or more: five lands and the Tree don't pay {W}, six do."""
    _check(db, ["Chromatic Lantern", "Swamp", "Dimir Signet"], {"{G}{G}": True, "{G}{U}{B}": True, "{G}{G}{W}": False})
    _check(db, ["Chromatic Lantern", "Fetid Heath"], {"{R}{G}": True, "{R}{R}{G}": False})
    five = ["The World Tree", "Swamp", "Swamp", "Swamp", "Swamp"]
    _check(db, five, {"{W}": False, "{G}": True, "{B}{B}{B}{B}": True})
    _check(db, [*five, "Swamp"], {"{W}": True, "{W}{U}{R}{G}{B}{B}": True, "{7}": False})


def test_activation_conditions_read_from_the_board_cr_602_5b(db: CardDB) -> None:
    """Temple of the False God adds {C}{C} only with five lands or more; Tainted Field adds {W} or {B}
    only with a Swamp (CR 602.5b): decided from the board's cards as the engine decides them."""
    _check(db, ["Temple of the False God", "Plains", "Plains", "Plains"], {"{3}": True, "{4}": False, "{C}": False})
    _check(db, ["Temple of the False God", "Plains", "Plains", "Plains", "Plains"], {"{6}": True, "{7}": False})
    _check(db, ["Tainted Field", "Island"], {"{W}": False, "{C}{U}": True})
    _check(db, ["Tainted Field", "Swamp"], {"{W}{B}": True, "{B}{B}": True, "{W}{W}": False})


def test_idle_abilities_and_life_costs_cr_107_3_cr_119_4(db: CardDB) -> None:
    """On a castability board a permanent has no counter it did not enter with and its player no
    energy: Everflowing Chalice ("{C} for each charge counter"), cast kicked once, adds {C}; a storage land (CR
    107.3) only its {C}, Aether Hub only its {C}.  Horizon Canopy's mana costs 1 life (CR 119.4),
    which the player has: one unit {G} or {W}.  Empowered Autogenerator puts a charge counter on
    itself before counting them, so it adds one mana of any color; Pentad Prism has no charge counter
    to remove (sunburst: one per color spent, which the board does not say)."""
    _check(db, ["Everflowing Chalice", "Forest"], {"{G}": True, "{2}": True, "{3}": False, "{G}{G}": False})
    _check(db, ["Empowered Autogenerator", "Island"], {"{R}{U}": True, "{R}{R}": False})
    _check(db, ["Pentad Prism", "Crystalline Crawler", "Island"], {"{U}": True, "{2}": False})
    _check(db, ["Kydele, Chosen of Kruphix", "Island"], {"{U}": True, "{C}": False})  # no card drawn
    _check(db, ["Molten Slagheap", "Dreadship Reef"], {"{C}{C}": True, "{R}": False, "{3}": False})
    _check(db, ["Aether Hub", "Island"], {"{C}{U}": True, "{W}": False})
    _check(db, ["Horizon Canopy", "Horizon Canopy", "Plains"], {"{G}{W}{W}": True, "{G}{G}{G}": False,
                                                                "{3}": True})


def test_phyrexian_symbols_paid_in_life_cr_107_4f(db: CardDB) -> None:
    """A Phyrexian symbol is paid with a mana of its color or 2 life (CR 107.4f); the player of a
    castability board has 20 life, so {3}{U/P} is paid by three lands of any color, and with a Horizon
    Canopy's 1 life besides."""
    _check(db, ["Mountain", "Mountain", "Mountain"], {"{3}{U/P}": True, "{4}{U/P}": False, "{U/P}{U/P}": True})
    _check(db, ["Horizon Canopy", "Mountain", "Mountain"],
           {"{3}{U/P}": True, "{G/P}{W}{R}{R}": True, "{G/P}{W}{W}{R}": False})


def test_instead_mana_under_a_count_of_creatures_leafkin_druid(db: CardDB) -> None:
    """Leafkin Druid adds {G}, or {G}{G} instead while its controller has four creatures: with two
    Llanowar Elves three green mana, with three five."""
    _check(db, ["Leafkin Druid", "Llanowar Elves", "Llanowar Elves"], {"{G}{G}{G}": True, "{4}": False})
    _check(db, ["Leafkin Druid", "Llanowar Elves", "Llanowar Elves", "Llanowar Elves"],
           {"{G}{G}{G}{G}{G}": True, "{6}": False})


def test_pools_of_a_board_of_many_converters_left_to_the_engine() -> None:
    """Fourteen converters of five kinds: the search passes its bound of states and says so
    (``None``: the engine answers such a board) instead of running on."""
    from manasolver.solver.castability.converters import MAX_STATES

    def signet(a: int, b: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        return (((ANY,), (a, b)),)

    heath = (((), (C,)), ((W | B,), (W | B, W | B)))
    sphere = (((ANY,), (ANY_COLOR,)),)
    many = tuple(sorted([(signet(U, B), 3), (signet(W, B), 3), (signet(W, U), 3), (heath, 3), (sphere, 2)]))
    assert MAX_STATES <= 10_000
    assert pools([W, U, B, C, W | U, U | B, W | B, C, G, R], many) is None


def test_colors_among_permanents_read_from_the_board_cr_105_2(db: CardDB) -> None:
    """Faeburrow Elder adds one mana of each color among its controller's permanents (itself green and
    white; an Island is colorless); Meteor Crater one of a color among them; Mox Amber one of a color
    among legendary creatures and planeswalkers (none here: nothing)."""
    _check(db, ["Faeburrow Elder", "Island"], {"{G}{W}{U}": True, "{G}{G}": False, "{3}": True, "{4}": False})
    _check(db, ["Faeburrow Elder", "Llanowar Elves", "Meteor Crater"], {"{G}{G}{W}{W}": True, "{G}{G}{W}{W}{W}": False})
    _check(db, ["Mox Amber", "Island"], {"{U}": True, "{2}": False})


def test_amounts_read_from_the_board_selvala_and_gaeas_cradle_cr_107_1b(db: CardDB) -> None:
    """Selvala, Heart of the Wilds turns {G} into X mana in any combination of colors, X the greatest
    power among its controller's creatures (its own 2 here); Gaea's Cradle adds {G} for each creature
    (CR 107.1b: a number read as the ability resolves)."""
    _check(db, ["Selvala, Heart of the Wilds", "Forest"], {"{W}{U}": True, "{3}": False, "{G}{W}{U}": False})
    _check(db, ["Gaea's Cradle", "Llanowar Elves", "Llanowar Elves"], {"{G}{G}{G}{G}": True, "{5}": False})
    _check(db, ["Gaea's Cradle", "Forest"], {"{G}": True, "{2}": False})


# -- Jegantha, the Wellspring: mana that pays colored symbols only (CR 106.6) ----------------------------

DANCE = Path(__file__).resolve().parents[3] / "data" / "decks" / "commander" / "dance-of-the-elements-ecc.txt"


def test_jegantha_the_wellspring_reads_as_five_colored_only_units_cr_106_6() -> None:
    pu = perm_units(default_db().get("Jegantha, the Wellspring"), W | U | B | R | G)
    assert pu.plain is None and pu.modes is None and pu.colored == (W, U, B, R, G)


@pytest.mark.parametrize(("plain", "cost", "payable"), [
    ((), "{G}", True), ((), "{1}", False), ((), "{W}{U}{B}{R}{G}", True), ((), "{G}{G}", False),
    ((G,), "{1}{G}", True), ((G,), "{2}{G}", False), ((R,), "{1}{R}{G}", True), ((R,), "{R}{R}{1}", False),
    ((W | U,), "{W/U}{W}{1}", True), ((W | U, W | U), "{W}{W}{U}{2}", False), ((W | U, W | U, G), "{W}{W}{U}{2}", True),
])
def test_jegantha_units_pay_colored_symbols_only_cr_106_6(plain: tuple[int, ...], cost: str, payable: bool) -> None:
    need = cost_need(ManaCost.parse(cost))
    assert need is not None
    assert pays_colored(have(plain), (W, U, B, R, G), need) is payable


def _jegantha_index(oracle: object) -> int:
    return next(i for i, c in enumerate(oracle.cards) if c.name == "Jegantha, the Wellspring")  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.data())
def test_jegantha_boards_of_dance_of_the_elements_answer_as_the_engine_cr_106_6(data: st.DataObject) -> None:
    """Jegantha beside lands and sources of its deck, some tapped: the units' answer, when they give one,
    is the engine's ``can_pay``, and a board of plain permanents beside it is always decided."""
    oracle, mana, conv, costs = _deck(DANCE)
    jegantha = _jegantha_index(oracle)
    plain = [i for i in mana if oracle._units[i].plain is not None]
    cards = [jegantha] + data.draw(st.lists(st.sampled_from(plain), max_size=6), label="permanents")
    tapped = data.draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)), label="tapped")
    key = tuple(sorted(2 * c + t for c, t in zip(cards, tapped)))
    units = oracle._units_of(key)
    for cost in data.draw(st.lists(st.sampled_from(costs), min_size=1, max_size=3, unique=True), label="costs"):
        need = cost_need(ManaCost.parse(cost))
        if need is None:
            continue
        fast = oracle._decide(units, need)
        assert fast is not None, ([(oracle.cards[c >> 1].name, c & 1) for c in key], cost)
        engine = _engine(oracle, key, cost)
        if engine is not None:
            assert fast == engine, ([(oracle.cards[c >> 1].name, c & 1) for c in key], cost)


@pytest.mark.parametrize(("a", "b", "carried", "within"), [
    ("{G}", "{1}{G}", True, True), ("{1}{G}", "{2}{G}", True, True), ("{G}", "{G}{U}", True, True),
    ("{1}", "{G}", True, False), ("{1}{G}", "{G}{G}", True, False), ("{2}", "{1}{R}", True, False),
    ("{G}{G}", "{1}{G}", False, False),
])
def test_beside_colored_only_mana_an_answer_carries_generic_to_generic_only_cr_106_6(a: str, b: str, carried: bool,
                                                                                     within: bool) -> None:
    """A board paying ``b`` pays ``a`` when ``a``'s symbols are among ``b``'s and its generic part is at
    most what ``b`` has left; with Jegantha's mana only when the generic part is no larger than ``b``'s:
    a colored symbol of ``b`` says nothing of a generic one of ``a``."""
    sa, sb = _simple(ManaCost.parse(a)), _simple(ManaCost.parse(b))
    assert _implies(sa, sb, False) is carried
    assert _implies(sa, sb, False, True) is within


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.data())
def test_jegantha_boards_answer_every_cost_of_the_deck_as_the_engine_cr_106_6(data: st.DataObject) -> None:
    """Jegantha beside lands of its deck: the board's answers to all of the deck's costs at once (each
    decided cost's answer carried to the others) are the engine's ``can_pay``, cost by cost."""
    oracle, mana, conv, costs = _deck(DANCE)
    jegantha = _jegantha_index(oracle)
    plain = [i for i in mana if oracle._units[i].plain is not None]
    cards = [jegantha] + data.draw(st.lists(st.sampled_from(plain), max_size=5), label="permanents")
    key = tuple(sorted(2 * c for c in cards))
    got = oracle.castable(key)
    asked = data.draw(st.lists(st.sampled_from(range(len(oracle.spells))), min_size=1, max_size=4, unique=True),
                      label="spells")
    for i in asked:
        engine = _engine(oracle, key, oracle.spells[i].format())
        if engine is not None:
            assert bool(got >> i & 1) == engine, ([oracle.cards[c >> 1].name for c in key], oracle.spells[i].format())
