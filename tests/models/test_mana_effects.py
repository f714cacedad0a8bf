"""Structured effects on mana production (CR 106.6, 106.7, 106.12, 605), read from real cards.

Each test names the card, quotes its text and cites the rule or ruling.  The solver applies these
effects; here they are parsed, and land types are changed (CR 305.6, 305.7, 613).
"""

from __future__ import annotations

import pytest
from manasolver.models.abilities import ManaAbility
from manasolver.models.carddb import CardDB
from manasolver.models.rules.production import (
    GrantedAbility,
    LandTypeChange,
    ManaMultiplier,
    ProducesInstead,
    TriggeredMana,
    active_effects,
    could_produce_types,
    effective_land_types,
    effective_mana_abilities,
    is_tapped_for_mana,
    mana_effects_of,
    remaining_unsupported,
    replacement_results,
    replacements_for,
    triggered_mana_for,
)
from manasolver.models.state import GameState, Permanent, Player, Turn
from manasolver.models.symbols import ANY_COLOR, B, C, G, R, U, W


def _one(db: CardDB, name: str) -> object:
    effects = mana_effects_of(db.get(name))
    assert len(effects) == 1, effects
    assert remaining_unsupported(db.get(name)) == (), name
    return effects[0]


def _board(*perms: Permanent) -> GameState:
    return GameState((Player("you"), Player("opp")), Turn("you"), perms)


def _perm(db: CardDB, pid: str, name: str, controller: str = "you", **kw: object) -> Permanent:
    return Permanent(pid, db.get(name), controller, **kw)  # type: ignore[arg-type]


def _adds(abilities: tuple[ManaAbility, ...]) -> list[tuple[tuple[int, ...], ...]]:
    return [a.production.options for a in abilities]


# -- replacement multipliers (CR 106.12b, 614, 616.1) --------------------------------------------------


def test_mana_reflection_and_nyxbloom_parse(db: CardDB) -> None:
    """Mana Reflection / Nyxbloom Ancient: "If you tap a permanent for mana, it produces twice / three times as
    much of that mana instead." — replacement effects on permanents *you* tap."""
    reflection = _one(db, "Mana Reflection")
    nyxbloom = _one(db, "Nyxbloom Ancient")
    assert isinstance(reflection, ManaMultiplier) and reflection.factor == 2 and reflection.tapper == "you"
    assert isinstance(nyxbloom, ManaMultiplier) and nyxbloom.factor == 3 and nyxbloom.what == "permanent"


def test_t106_t107_reflection_doubles_type_and_amount(db: CardDB) -> None:
    """T106 Forest → {G}{G}; T107 a land making {W}{U} → {W}{W}{U}{U} (Mana Reflection ruling)."""
    reflection = _one(db, "Mana Reflection")
    assert isinstance(reflection, ManaMultiplier)
    assert replacement_results((G,), (reflection,)) == ((G, G),)
    assert replacement_results((W, U), (reflection,)) == ((W, W, U, U),)


def test_t108_t109_t110_cumulative(db: CardDB) -> None:
    """T108 three Reflections ×8, T109 Reflection + Nyxbloom ×6, T110 two Nyxblooms ×9 (616.1)."""
    reflection = _one(db, "Mana Reflection")
    nyxbloom = _one(db, "Nyxbloom Ancient")
    assert isinstance(reflection, ManaMultiplier) and isinstance(nyxbloom, ManaMultiplier)
    assert replacement_results((G,), (reflection,) * 3) == ((G,) * 8,)
    assert replacement_results((G,), (reflection, nyxbloom)) == ((G,) * 6,)
    assert replacement_results((G,), (nyxbloom, nyxbloom)) == ((G,) * 9,)


def test_t111_wild_growth_mana_is_not_multiplied(db: CardDB) -> None:
    """T111 Nyxbloom + Wild Growth on a Forest: {G}{G}{G} from the Forest plus the trigger's {G} (605.1b;
    Nyxbloom ruling): the trigger is a separate ability whose mana no replacement multiplies."""
    nyxbloom = _one(db, "Nyxbloom Ancient")
    growth = _one(db, "Wild Growth")
    assert isinstance(nyxbloom, ManaMultiplier) and isinstance(growth, TriggeredMana)
    assert growth.trigger == "enchanted_land" and growth.options == ((G,),)
    land = replacement_results((G,), (nyxbloom,))
    assert [len(m) for m in land] == [3] and len(land[0]) + len(growth.options[0]) == 4


def test_t112_reflection_and_contamination_in_either_order(db: CardDB) -> None:
    """T112 Mana Reflection + Contamination on a Forest: {B} or {B}{B}, the player chooses the order
    (616.1; Mana Reflection ruling 2008-05-01)."""
    contamination = _one(db, "Contamination")
    reflection = _one(db, "Mana Reflection")
    assert isinstance(contamination, ProducesInstead) and contamination.mana == B
    assert not contamination.keep_amount and contamination.what == "land"
    assert isinstance(reflection, ManaMultiplier)
    assert replacement_results((G,), (reflection, contamination)) == ((B,), (B, B))


def test_t113_t115_only_abilities_with_tap(db: CardDB) -> None:
    """T113 Ashnod's Altar ("Sacrifice a creature: Add {C}{C}") is not tapped for mana (106.12): no multiplier;
    T115 Llanowar Elves is (any permanent)."""
    assert not is_tapped_for_mana(db.get("Ashnod's Altar").mana_abilities[0])
    assert is_tapped_for_mana(db.get("Llanowar Elves").mana_abilities[0])


def test_t114_treasure_under_nyxbloom_one_color(db: CardDB) -> None:
    """T114 Treasure ("{T}, Sacrifice this artifact: Add one mana of any color.") under Nyxbloom: three mana of
    one chosen color — the type is chosen first, then tripled."""
    nyxbloom = _one(db, "Nyxbloom Ancient")
    assert isinstance(nyxbloom, ManaMultiplier)
    treasure = db.get("Treasure").mana_abilities[0]
    assert is_tapped_for_mana(treasure) and treasure.production.options == ((ANY_COLOR,),)
    assert replacement_results((ANY_COLOR,), (nyxbloom,)) == tuple((c,) * 3 for c in (W, U, B, R, G))


def test_t116_restriction_kept(db: CardDB) -> None:
    """T116 Ancient Ziggurat under Mana Reflection: {R}{R}, both restricted (106.6a) — the multiplier changes
    amounts only; the ability's restriction stays on all the mana."""
    ziggurat = db.get("Ancient Ziggurat").mana_abilities[0]
    reflection = _one(db, "Mana Reflection")
    assert isinstance(reflection, ManaMultiplier)
    assert ziggurat.production.restriction is not None and is_tapped_for_mana(ziggurat)
    assert (R, R) in replacement_results((R,), (reflection,))


def test_t117_doubling_cube_doubles_the_pool(db: CardDB) -> None:
    """T117 Doubling Cube: "{3}, {T}: Double the amount of each type of unspent mana you have." — a mana
    ability (605.1a) with the ``doubles_pool`` production; the new mana is unrestricted (106.6 example)."""
    card = db.get("Doubling Cube")
    assert card.unsupported == ()
    (cube,) = card.mana_abilities
    assert cube.production.doubles_pool and cube.production.options == ()
    assert cube.cost.mana.format() == "{3}" and cube.cost.tap


def test_pale_moon_keeps_the_amount(db: CardDB) -> None:
    """Pale Moon: "... it produces colorless mana instead of any other type." — type only (nonbasic lands)."""
    (moon,) = mana_effects_of(db.get("Pale Moon"))
    assert isinstance(moon, ProducesInstead) and moon.keep_amount and moon.what == "nonbasic_land"
    assert replacement_results((W, U), (moon,)) == ((C, C),)


# -- triggered mana abilities (CR 605.1b, 106.12a) ---------------------------------------------------


@pytest.mark.parametrize("name, options, chosen", [
    ("Wild Growth", ((G,),), 0),
    ("Fertile Ground", ((ANY_COLOR,),), 0),
    ("Overgrowth", ((G, G),), 0),
    ("Utopia Sprawl", (), 1),
])
def test_auras_on_the_enchanted_land(db: CardDB, name: str, options: tuple[tuple[int, ...], ...],
                                     chosen: int) -> None:
    """"Whenever enchanted land is tapped for mana, its controller adds an additional …" — the land the Aura
    is ``attached_to``; Utopia Sprawl adds the Aura's chosen color."""
    effect = _one(db, name)
    assert isinstance(effect, TriggeredMana)
    assert (effect.trigger, effect.options, effect.chosen, effect.recipient) == \
        ("enchanted_land", options, chosen, "land_controller")


@pytest.mark.parametrize("name, trigger, recipient", [
    ("Mana Flare", "any_land", "land_controller"),
    ("Heartbeat of Spring", "any_land", "land_controller"),
    ("Dictate of Karametra", "any_land", "land_controller"),
    ("Zendikar Resurgent", "your_land", "you"),
    ("Vorinclex, Voice of Hunger", "your_land", "you"),
    ("Mirari's Wake", "your_land", "you"),
])
def test_one_mana_of_a_type_that_land_produced(db: CardDB, name: str, trigger: str, recipient: str) -> None:
    """"… adds one mana of any type that land produced" (Mana Flare rulings 2004-10-04, 2007-09-16): the player
    picks among the types actually produced; no restriction is copied."""
    effects = [e for e in mana_effects_of(db.get(name)) if isinstance(e, TriggeredMana)]
    assert len(effects) == 1
    effect = effects[0]
    assert effect.produced_type and effect.options == () and (effect.trigger, effect.recipient) == (trigger, recipient)


def test_caged_sun_and_gauntlet_of_power(db: CardDB) -> None:
    """Caged Sun: "Whenever a land's ability causes you to add one or more mana of the chosen color, add one
    additional mana of that color." (any land ability); Gauntlet of Power: a *basic* land tapped for the chosen
    color, any player's."""
    sun = _one(db, "Caged Sun")
    gauntlet = _one(db, "Gauntlet of Power")
    assert isinstance(sun, TriggeredMana) and (sun.trigger, sun.chosen, sun.recipient) == ("land_ability", 1, "you")
    assert isinstance(gauntlet, TriggeredMana)
    assert (gauntlet.trigger, gauntlet.chosen, gauntlet.recipient) == ("basic_land", 1, "land_controller")


# -- land types (CR 305.6, 305.7, 613.1d) -------------------------------------------------------------------


def test_t100_everywhere_under_blood_moon(db: CardDB) -> None:
    """T100: the Everywhere token (all five basic land types, not basic) under Blood Moon ("Nonbasic lands are
    Mountains.") is only a Mountain and makes only {R} (305.7; Blood Moon ruling)."""
    moon = _one(db, "Blood Moon")
    assert isinstance(moon, LandTypeChange) and moon.sets and moon.affected == "nonbasic_lands"
    everywhere = _perm(db, "e", "Everywhere")
    assert effective_land_types(_board(everywhere), everywhere) == ("plains", "island", "swamp", "mountain", "forest")
    state = _board(everywhere, _perm(db, "m", "Blood Moon", "opp"))
    assert effective_land_types(state, everywhere) == ("mountain",)
    assert _adds(effective_mana_abilities(state, everywhere)) == [((R,),)]


def test_blood_moon_removes_printed_abilities(db: CardDB) -> None:
    """305.7: a nonbasic land under Magus of the Moon loses its rules-text abilities (Cavern of Souls has only
    {T}: Add {R}); basic lands are not affected."""
    cavern = _perm(db, "c", "Cavern of Souls")
    forest = _perm(db, "f", "Forest")
    state = _board(cavern, forest, _perm(db, "m", "Magus of the Moon", "opp"))
    (ability,) = effective_mana_abilities(state, cavern)
    assert ability.intrinsic and ability.production.options == ((R,),) and ability.index == 0
    assert _adds(effective_mana_abilities(state, forest)) == [((G,),)]


def test_urborg_makes_every_land_a_swamp(db: CardDB) -> None:
    """Urborg, Tomb of Yawgmoth: "Each land is a Swamp in addition to its other land types." (ruling 2018-12-07):
    a Forest also taps for {B}; intrinsic abilities first, printed types before added ones, so the
    Forest's own {G} keeps index 0 when Urborg arrives."""
    urborg = _perm(db, "u", "Urborg, Tomb of Yawgmoth")
    forest = _perm(db, "f", "Forest")
    theirs = _perm(db, "o", "Command Tower", "opp")
    state = _board(urborg, forest, theirs)
    assert effective_land_types(state, forest) == ("forest", "swamp")
    assert _adds(effective_mana_abilities(state, forest)) == [((G,),), ((B,),)]
    assert [a.index for a in effective_mana_abilities(state, forest)] == [0, 1]
    assert effective_land_types(state, urborg) == ("swamp",)
    assert effective_land_types(state, theirs) == ("swamp",)  # each land, whoever controls it


def test_urborg_under_blood_moon_has_no_effect(db: CardDB) -> None:
    """Blood Moon + Urborg: Urborg becomes a Mountain and loses its ability (dependency, 613.8a), so a Forest is
    not a Swamp; the effect is not among the active effects."""
    urborg = _perm(db, "u", "Urborg, Tomb of Yawgmoth")
    forest = _perm(db, "f", "Forest")
    state = _board(_perm(db, "m", "Blood Moon"), urborg, forest)
    assert effective_land_types(state, forest) == ("forest",)
    assert effective_land_types(state, urborg) == ("mountain",)
    assert all(src.id != "u" for src, _ in active_effects(state))
    assert len(active_effects(_board(urborg, forest))) == 1


def test_yavimaya_and_prismatic_omen(db: CardDB) -> None:
    """Yavimaya: each land is a Forest; Prismatic Omen: lands *you control* are every basic land type
    (ruling 2008-05-01)."""
    wastes = _perm(db, "w", "Wastes")
    state = _board(wastes, _perm(db, "y", "Yavimaya, Cradle of Growth", "opp"))
    assert _adds(effective_mana_abilities(state, wastes)) == [((G,),), ((C,),)]
    omen = _perm(db, "p", "Prismatic Omen")
    theirs = _perm(db, "o", "Wastes", "opp")
    state = _board(omen, wastes, theirs)
    assert _adds(effective_mana_abilities(state, wastes)) == [((W,),), ((U,),), ((B,),), ((R,),), ((G,),), ((C,),)]
    assert _adds(effective_mana_abilities(state, theirs)) == [((C,),)]


def test_blood_moon_and_omen_in_timestamp_order(db: CardDB) -> None:
    """613.7: without dependency, layer-4 effects apply in timestamp order; board order stands for it.
    Omen first, then Blood Moon: a nonbasic land is a Mountain; Blood Moon first, then Omen: all five."""
    tower = _perm(db, "t", "Command Tower")
    omen = _perm(db, "p", "Prismatic Omen")
    moon = _perm(db, "m", "Blood Moon")
    assert effective_land_types(_board(omen, moon, tower), tower) == ("mountain",)
    late_omen = _board(moon, omen, tower)
    assert len(effective_land_types(late_omen, tower)) == 5
    # the printed ability is lost either way (Blood Moon reaches it, 305.7)
    assert all(a.intrinsic for a in effective_mana_abilities(late_omen, tower))


def test_spreading_seas_sets_the_enchanted_land(db: CardDB) -> None:
    """Spreading Seas: "Enchanted land is an Island." (305.7): Tropical Island is only an Island."""
    tropical = _perm(db, "t", "Tropical Island")
    seas = _perm(db, "s", "Spreading Seas", "opp", attached_to="t")
    other = _perm(db, "f", "Taiga")
    state = _board(tropical, seas, other)
    assert _adds(effective_mana_abilities(state, tropical)) == [((U,),)]
    assert _adds(effective_mana_abilities(state, other)) == [((R,),), ((G,),)]


def test_non_land_keeps_its_abilities(db: CardDB) -> None:
    """Land-type changes touch lands only: Llanowar Elves under Urborg still has {T}: Add {G}."""
    elves = _perm(db, "e", "Llanowar Elves")
    state = _board(elves, _perm(db, "u", "Urborg, Tomb of Yawgmoth"))
    assert effective_mana_abilities(state, elves) == elves.card.mana_abilities


def test_module_doctest() -> None:
    """The module's examples run."""
    import doctest

    import manasolver.models.rules.production as module

    assert doctest.testmod(module).failed == 0


def test_large_board_land_types_are_fast(db: CardDB) -> None:
    """1,000 lands under Urborg and Blood Moon: every land's abilities in well under a few seconds (the
    board's type changes are gathered once per state)."""
    import time

    lands = tuple(_perm(db, f"l{i}", "Forest" if i % 2 else "Command Tower") for i in range(1000))
    state = _board(_perm(db, "m", "Blood Moon"), _perm(db, "u", "Urborg, Tomb of Yawgmoth"), *lands)
    start = time.perf_counter()
    got = [effective_mana_abilities(state, p) for p in lands]
    assert time.perf_counter() - start < 5.0
    assert _adds(got[0]) == [((R,),)] and _adds(got[1]) == [((G,),)]


def test_counts_use_effective_land_types(db: CardDB) -> None:
    """Cabal Coffers ("Add {B} for each Swamp you control") under Urborg counts every land (Urborg ruling);
    Tainted Field's "Activate only if you control a Swamp" holds with Urborg; under Blood Moon Urza's Tower is
    no longer an Urza's Tower (305.7), so Urza's Mine adds only {C}."""
    from manasolver.models.rules.amounts import ability_options

    coffers = _perm(db, "c", "Cabal Coffers")
    state = _board(coffers, _perm(db, "u", "Urborg, Tomb of Yawgmoth"), _perm(db, "f", "Forest"))
    assert ability_options(coffers.card.mana_abilities[0], state, coffers) == ((B, B, B),)
    field = _perm(db, "t", "Tainted Field")
    assert ability_options(field.card.mana_abilities[1], _board(field, _perm(db, "y", "Forest")), field) is None
    with_urborg = _board(field, _perm(db, "u", "Urborg, Tomb of Yawgmoth"))
    assert ability_options(field.card.mana_abilities[1], with_urborg, field) == ((W,), (B,))
    mine = _perm(db, "m", "Urza's Mine")
    tron = (mine, _perm(db, "t", "Urza's Tower"), _perm(db, "p", "Urza's Power Plant"))
    assert ability_options(mine.card.mana_abilities[0], _board(*tron), mine) == ((C, C),)
    mooned = _board(*tron, _perm(db, "b", "Blood Moon", "opp"))
    assert effective_mana_abilities(mooned, mine)[0].production.options == ((R,),)
    assert ability_options(mine.card.mana_abilities[0], mooned, mine) == ((C,),)


# -- which effects apply to one activation --------------------------------------------------------------


def test_replacements_for_only_tap_abilities_and_your_taps(db: CardDB) -> None:
    """106.12: Ashnod's Altar is not tapped for mana (T113); Mana Reflection applies to permanents *its
    controller* taps, Contamination to any land, neither to the Elves' {G} being a land's."""
    from manasolver.models.symbols import G as GREEN

    reflection = _perm(db, "r", "Mana Reflection")
    contamination = _perm(db, "c", "Contamination", "opp")
    forest = _perm(db, "f", "Forest")
    elves = _perm(db, "e", "Llanowar Elves")
    altar = _perm(db, "a", "Ashnod's Altar")
    theirs = _perm(db, "o", "Forest", "opp")
    state = _board(reflection, contamination, forest, elves, altar, theirs)
    on_forest = replacements_for(state, forest, forest.card.mana_abilities[0])
    assert [type(e).__name__ for e in on_forest] == ["ManaMultiplier", "ProducesInstead"]
    assert replacement_results((GREEN,), on_forest) == ((B,), (B, B))  # T112
    assert [type(e).__name__ for e in replacements_for(state, elves, elves.card.mana_abilities[0])] == \
        ["ManaMultiplier"]
    assert replacements_for(state, altar, altar.card.mana_abilities[0]) == ()
    assert [type(e).__name__ for e in replacements_for(state, theirs, theirs.card.mana_abilities[0])] == \
        ["ProducesInstead"]


def test_t111_t118_t119_triggered_mana_for(db: CardDB) -> None:
    """T111 Wild Growth on the Forest adds {G} beside the Forest's mana; T118 Mana Flare adds one of the types
    produced; T119 nothing fires when nothing was produced (106.12a); Utopia Sprawl adds its chosen color."""
    forest = _perm(db, "f", "Forest")
    growth = _perm(db, "w", "Wild Growth", attached_to="f")
    flare = _perm(db, "m", "Mana Flare", "opp")
    sprawl = _perm(db, "u", "Utopia Sprawl", attached_to="f", chosen_color="U")
    other = _perm(db, "o", "Island")
    state = _board(forest, growth, flare, sprawl, other)
    tap = forest.card.mana_abilities[0]
    assert triggered_mana_for(state, forest, tap, (G,)) == (((G,),), ((G,),), ((U,),))
    assert triggered_mana_for(state, forest, tap, ()) == ()
    assert triggered_mana_for(state, other, other.card.mana_abilities[0], (U,)) == (((U,),),)  # Flare only


def test_gauntlet_and_caged_sun_need_the_chosen_color(db: CardDB) -> None:
    """Gauntlet of Power (red): a basic Mountain tapped for {R} adds {R}; a nonbasic land does not."""
    gauntlet = _perm(db, "g", "Gauntlet of Power", chosen_color="R")
    mountain = _perm(db, "m", "Mountain")
    plateau = _perm(db, "p", "Plateau")
    state = _board(gauntlet, mountain, plateau)
    assert triggered_mana_for(state, mountain, mountain.card.mana_abilities[0], (R,)) == (((R,),),)
    assert triggered_mana_for(state, plateau, plateau.card.mana_abilities[1], (R,)) == ()
    unchosen = _board(_perm(db, "g", "Gauntlet of Power"), mountain)
    assert triggered_mana_for(unchosen, mountain, mountain.card.mana_abilities[0], (R,)) == ()


def test_t104_could_produce_under_contamination(db: CardDB) -> None:
    """T104 / CR 106.7: a Forest under Contamination could produce only {B}; with Pale Moon as well, {B} or {C}
    (the order is the player's); multipliers keep the types."""
    contamination = _one(db, "Contamination")
    reflection = _one(db, "Mana Reflection")
    (pale,) = mana_effects_of(db.get("Pale Moon"))
    assert isinstance(contamination, ProducesInstead) and isinstance(reflection, ManaMultiplier)
    assert isinstance(pale, ProducesInstead)
    assert could_produce_types(G, (contamination,)) == B
    assert could_produce_types(G, (contamination, pale)) == B | C
    assert could_produce_types(G | U, (reflection,)) == G | U
    assert could_produce_types(0, (contamination,)) == 0


# -- granted abilities (layer 6, CR 613.1f) ------------------------------------------------------------


def test_chromatic_lantern_grants_and_beats_blood_moon(db: CardDB) -> None:
    """Chromatic Lantern: "Lands you control have "{T}: Add one mana of any color."" — layer 6 applies after
    Blood Moon's layer 4, so a nonbasic land under Blood Moon taps for {R} or any color (Lantern ruling);
    an opponent's lands get nothing."""
    (grant,) = mana_effects_of(db.get("Chromatic Lantern"))
    assert isinstance(grant, GrantedAbility) and remaining_unsupported(db.get("Chromatic Lantern")) == ()
    tower = _perm(db, "t", "Command Tower")
    lantern = _perm(db, "l", "Chromatic Lantern")
    theirs = _perm(db, "o", "Wastes", "opp")
    state = _board(lantern, tower, theirs, _perm(db, "m", "Blood Moon", "opp"))
    assert _adds(effective_mana_abilities(state, tower)) == [((R,),), ((ANY_COLOR,),)]
    assert _adds(effective_mana_abilities(state, theirs)) == [((C,),)]
    assert _adds(effective_mana_abilities(state, lantern)) == [((ANY_COLOR,),)]  # an artifact, not a land


def test_cryptolith_rite_and_enchanted_land_grants(db: CardDB) -> None:
    """Cryptolith Rite ("Creatures you control have …") gives creatures a {T} ability (summoning sickness still
    applies to it, 302.6); Abundant Growth ("Enchanted land has …") only the land it is attached to; Esika's
    "Other legendary creatures you control" leaves Esika out."""
    rite = _perm(db, "r", "Cryptolith Rite")
    bears = _perm(db, "b", "Grizzly Bears")
    forest = _perm(db, "f", "Forest")
    growth = _perm(db, "g", "Abundant Growth", attached_to="f")
    island = _perm(db, "i", "Island")
    state = _board(rite, bears, forest, growth, island)
    assert _adds(effective_mana_abilities(state, bears)) == [((ANY_COLOR,),)]
    assert _adds(effective_mana_abilities(state, forest)) == [((G,),), ((ANY_COLOR,),)]
    assert _adds(effective_mana_abilities(state, island)) == [((U,),)]
    esika = _perm(db, "e", "Esika, God of the Tree")
    kenrith = _perm(db, "k", "Kenrith, the Returned King")
    state = _board(esika, kenrith)
    assert len(effective_mana_abilities(state, kenrith)) == 1
    assert effective_mana_abilities(state, esika) == esika.card.mana_abilities


def test_conditional_and_leveled_grants_carry_their_condition(db: CardDB) -> None:
    """The World Tree ("As long as you control six or more lands, …") and Joraga Treespeaker's LEVEL 5+ grant
    are read with the condition under which they apply (CR 711.2, 711.5 for levels: five or more level
    counters); Joraga's LEVEL 1-4 "{T}: Add {G}{G}." is its ability only with one to four."""
    assert remaining_unsupported(db.get("The World Tree")) == ()
    tree = mana_effects_of(db.get("The World Tree"))
    assert len(tree) == 1 and tree[0].condition is not None and tree[0].condition.counts[0][1] == 6
    joraga = db.get("Joraga Treespeaker")
    (grant,) = mana_effects_of(joraga)
    assert grant.condition is not None and grant.condition.counts[0][1] == 5 and grant.condition.at_most is None
    (own,) = joraga.mana_abilities
    assert own.condition is not None and own.condition.counts[0][1] == 1 and own.condition.at_most == 4


# -- more printed forms -------------------------------------------------------------------------------


def test_damping_sphere_after_reflection(db: CardDB) -> None:
    """Damping Sphere: "If a land is tapped for two or more mana, it produces {C} instead of any other type and
    amount." — a Forest's {G} is not two mana, unless Mana Reflection doubled it first (616.1 order)."""
    sphere = _one(db, "Damping Sphere")
    reflection = _one(db, "Mana Reflection")
    assert isinstance(sphere, ProducesInstead) and sphere.min_amount == 2
    assert isinstance(reflection, ManaMultiplier)
    assert replacement_results((G,), (sphere,)) == ((G,),)
    assert replacement_results((C, C), (sphere,)) == ((C,),)
    assert replacement_results((G,), (reflection, sphere)) == ((C,), (G, G))
    assert could_produce_types(G, (sphere, reflection)) == G | C


def test_typed_land_triggers(db: CardDB) -> None:
    """Crypt Ghast ("Whenever you tap a Swamp for mana, add an additional {B}.") sees Urborg's Swamps (305.7);
    Vernal Bloom fires for any player's Forest; Leyline of Abundance for creatures you tap."""
    ghast = _perm(db, "g", "Crypt Ghast")
    forest = _perm(db, "f", "Forest")
    tap = forest.card.mana_abilities[0]
    assert triggered_mana_for(_board(ghast, forest), forest, tap, (G,)) == ()
    urborg = _board(ghast, forest, _perm(db, "u", "Urborg, Tomb of Yawgmoth"))
    assert triggered_mana_for(urborg, forest, tap, (G,)) == (((B,),),)
    theirs = _perm(db, "o", "Forest", "opp")
    bloom = _board(_perm(db, "v", "Vernal Bloom"), theirs)
    assert triggered_mana_for(bloom, theirs, theirs.card.mana_abilities[0], (G,)) == (((G,),),)
    elves = _perm(db, "e", "Llanowar Elves")
    leyline = _board(_perm(db, "l", "Leyline of Abundance"), elves, forest)
    assert triggered_mana_for(leyline, elves, elves.card.mana_abilities[0], (G,)) == (((G,),),)
    assert triggered_mana_for(leyline, forest, tap, (G,)) == ()


def test_more_land_type_changes(db: CardDB) -> None:
    """Lush Growth ("Enchanted land is a Mountain, Forest, and Plains."), Nylea's Presence (every basic land
    type in addition), Stormtide Leviathan (all lands are Islands in addition)."""
    land = _perm(db, "w", "Wastes")
    state = _board(land, _perm(db, "l", "Lush Growth", attached_to="w"))
    assert _adds(effective_mana_abilities(state, land)) == [((W,),), ((R,),), ((G,),)]  # Wastes' {C} is lost
    state = _board(land, _perm(db, "n", "Nylea's Presence", attached_to="w"))
    assert len(effective_mana_abilities(state, land)) == 6
    state = _board(land, _perm(db, "s", "Stormtide Leviathan", "opp"))
    assert _adds(effective_mana_abilities(state, land)) == [((U,),), ((C,),)]


# -- composed: one activation's results ---------------------------------------------------------------


def test_reflection_nyxbloom_wild_growth_on_a_forest(db: CardDB) -> None:
    """Mana Reflection + Nyxbloom Ancient + Wild Growth on a Forest: tapping the Forest gives
    6 {G} from the land (616.1, T109) and one {G} from Wild Growth, not multiplied (T111)."""
    from manasolver.models.rules.production import ActivationResult, activation_results

    forest = _perm(db, "f", "Forest")
    state = _board(_perm(db, "r", "Mana Reflection"), _perm(db, "n", "Nyxbloom Ancient"), forest,
                   _perm(db, "w", "Wild Growth", attached_to="f"))
    assert activation_results(state, forest, forest.card.mana_abilities[0]) == \
        (ActivationResult((G,) * 6, (G,)),)


def test_activation_results_treasure_pool_storage_and_conditions(db: CardDB) -> None:
    """T114 a Treasure under Nyxbloom: three of one color; a Reflecting Pool given the mirrored types under
    Mana Reflection; a storage land's counters removed; a Tainted land without a Swamp: None (602.5b)."""
    from manasolver.models.rules.production import ActivationResult, activation_results

    treasure = _perm(db, "t", "Treasure")
    pool = _perm(db, "p", "Reflecting Pool")
    state = _board(_perm(db, "n", "Nyxbloom Ancient"), treasure)
    got = activation_results(state, treasure, treasure.card.mana_abilities[0])
    assert got == tuple(ActivationResult((c,) * 3) for c in (W, U, B, R, G))
    state = _board(_perm(db, "r", "Mana Reflection"), pool)
    assert activation_results(state, pool, pool.card.mana_abilities[0], reference_mask=G | C) == \
        (ActivationResult((G, G)), ActivationResult((C, C)))
    assert activation_results(state, pool, pool.card.mana_abilities[0]) == ()
    vault = _perm(db, "v", "Bottomless Vault", counters=(("storage", 2),))
    got = activation_results(_board(vault), vault, vault.card.mana_abilities[0])
    assert got == (ActivationResult((B,), (), 1), ActivationResult((B, B), (), 2))
    field = _perm(db, "f", "Tainted Field")
    assert activation_results(_board(field), field, field.card.mana_abilities[1]) is None


def test_activation_results_mana_flare_and_contamination(db: CardDB) -> None:
    """T118 Mana Flare on a dual land: the extra mana is of the type produced; under Contamination the land
    produces {B} and Mana Flare copies {B} (Contamination ruling 2004-10-04)."""
    from manasolver.models.rules.production import ActivationResult, activation_results

    tundra = _perm(db, "t", "Tundra")
    flare = _perm(db, "m", "Mana Flare", "opp")
    state = _board(tundra, flare)
    assert activation_results(state, tundra, tundra.card.mana_abilities[0]) == (ActivationResult((W,), (W,)),)
    state = _board(tundra, flare, _perm(db, "c", "Contamination", "opp"))
    assert activation_results(state, tundra, tundra.card.mana_abilities[1]) == (ActivationResult((B,), (B,)),)
