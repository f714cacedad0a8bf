"""``options`` with mana abilities that don't tap (CR 605.1a, 605.3a, 106.4, 107.3, 118.3): storage
lands, repeatable abilities that cost mana, Squandered Resources, Mana Cache.  The pools are worked
from the rules here, and compared with the brute force of activation sequences
(tests/support/brute_repeats.py, which shares no code with the pools search): every listed pool
is reachable, and every plain cost some sequence pays is inside a listed pool."""

from __future__ import annotations

import itertools
from typing import Any

from brute_repeats import TooBig, search
from cards import json_board
import pytest
from hypothesis import example, given, reject, settings
from hypothesis import strategies as st
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver.service.protocol import answer

TYPES = "WUBRGC"


def storage(name: str, n: int, kind: str = "storage", **kw: Any) -> dict[str, Any]:
    return {"card": name, "counters": {kind: n}, **kw}


def options(state: dict[str, Any]) -> dict[str, Any]:
    out = answer({"query": "options", "state": state, "limit": 5000})
    assert "error" not in out, out
    return out


def counts(text: str) -> dict[str, int]:
    return {t: text.count("{" + t + "}") for t in TYPES}


def agrees_with_brute_force(state: dict[str, Any], listed: list[str]) -> None:
    """Every cost of plain symbols up to one more than the largest pool, over the types the pools
    hold: the brute force pays it exactly when a listed pool contains it."""
    pools = [counts(p) for p in listed]
    used = [t for t in TYPES if any(p[t] for p in pools)] or ["C"]
    top = max((sum(p.values()) for p in pools), default=0)
    board = load_state(state)
    for n in range(1, top + 2):
        for combo in itertools.combinations_with_replacement(used, n):
            cost = "".join("{" + t + "}" for t in combo)
            covered = any(all(p[t] >= combo.count(t) for t in TYPES) for p in pools)
            assert search(board, ManaCost.parse(cost)).payable is covered, (cost, listed)


# -- storage lands ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_options_calciform_pools_removes_every_storage_counter_at_once() -> None:
    """Calciform Pools with two storage counters beside Plains, Island and Forest: "{1}, Remove X
    storage counters: Add X mana in any combination of {W} and/or {U}" once, X = 2 (CR 107.3),
    paid by its own "{T}: Add {C}" or by a basic: five mana, of which one of the four others
    paid the {1}."""
    state = json_board(storage("Calciform Pools", 2), "Plains", "Island", "Forest")
    out = options(state)
    assert out["complete"] is True and "unsupported" not in out
    assert out["options"] == ["{W}{W}{W}{U}{G}", "{W}{W}{W}{U}{C}", "{W}{W}{W}{G}{C}", "{W}{W}{U}{U}{G}",
                              "{W}{W}{U}{U}{C}", "{W}{W}{U}{G}{C}", "{W}{U}{U}{U}{G}", "{W}{U}{U}{U}{C}",
                              "{W}{U}{U}{G}{C}", "{U}{U}{U}{G}{C}"]
    agrees_with_brute_force(state, out["options"])


def test_options_storage_land_without_counters_taps_for_colorless() -> None:
    """No storage counter to remove (CR 118.3): Dreadship Reef only taps for {C}, and the answer is
    complete."""
    out = options(json_board(storage("Dreadship Reef", 0), "Swamp"))
    assert out == {"options": ["{B}{C}"], "complete": True}


def test_options_tapped_storage_land_still_removes_its_counters() -> None:
    """A tapped Fungal Reaches can't tap for {C}, but removing counters has no {T}: the Forest
    pays the {1} for two mana of {R} and/or {G}."""
    state = json_board(storage("Fungal Reaches", 2, tapped=True), "Forest")
    out = options(state)
    assert out == {"options": ["{R}{R}", "{R}{G}", "{G}{G}"], "complete": True}
    agrees_with_brute_force(state, out["options"])


@pytest.mark.slow
def test_options_two_storage_lands_and_a_signet() -> None:
    """Calciform Pools (2) and Dreadship Reef (1) beside Simic Signet: agrees with every activation
    sequence (the Signet's {1} and the lands' {1} paid by one another's mana, in some order)."""
    state = json_board(storage("Calciform Pools", 2), storage("Dreadship Reef", 1), "Simic Signet")
    out = options(state)
    assert out["complete"] is True
    agrees_with_brute_force(state, out["options"])


# -- repeatable abilities that cost mana ------------------------------------------------------------


def test_options_farrelite_priest_converts_any_mana_to_white() -> None:
    """Farrelite Priest: "{1}: Add {W}" as often as there is mana to pay it; its sacrifice after the
    fourth activation is a delayed trigger, no limit.  With Plains, Island and Forest: three mana,
    any of which may have become {W}."""
    state = json_board("Farrelite Priest", "Plains", "Island", "Forest")
    out = options(state)
    assert out == {"options": ["{W}{W}{W}", "{W}{W}{U}", "{W}{W}{G}", "{W}{U}{G}"], "complete": True}
    agrees_with_brute_force(state, out["options"])


def test_options_signpost_scarecrow_two_mana_for_one() -> None:
    """Signpost Scarecrow: "{2}: Add one mana of any color": three basics make their three mana, or
    two mana of which one is any color (CR 605.3a: paid from the pool as it is)."""
    state = json_board("Signpost Scarecrow", "Swamp", "Island", "Forest")
    out = options(state)
    assert out["complete"] is True and out["options"][0] == "{U}{B}{G}"
    assert "{W}{U}" in out["options"] and "{R}{G}" in out["options"] and "{W}{W}" not in out["options"]
    agrees_with_brute_force(state, out["options"])


def test_options_orochi_leafcaller_needs_green() -> None:
    """Orochi Leafcaller: "{G}: Add one mana of any color": only green mana converts."""
    state = json_board("Orochi Leafcaller", "Forest", "Forest", "Island")
    out = options(state)
    assert out["complete"] is True and "{W}{W}{U}" in out["options"] and "{W}{W}{W}" not in out["options"]
    agrees_with_brute_force(state, out["options"])


def test_options_blood_celebrant_limited_by_life() -> None:
    """Blood Celebrant: "{B}, Pay 1 life: Add one mana of any color" at 1 life: once (CR 119.4)."""
    state = json_board("Blood Celebrant", "Swamp", "Swamp", "Island")
    state["players"][0]["life"] = 1
    out = options(state)
    assert out["complete"] is True and "{W}{U}{B}" in out["options"] and "{W}{W}{U}" not in out["options"]
    agrees_with_brute_force(state, out["options"])


def test_options_petalmane_baku_left_out_naming_card_and_clause() -> None:
    """Petalmane Baku's "X mana of any one color" may differ in color from one activation to the
    next: left out, the answer incomplete, naming the card and its clause."""
    out = options(json_board(storage("Petalmane Baku", 2, "ki"), "Forest"))
    assert out["complete"] is False
    (left,) = out["unsupported"]
    assert left["permanent"] == "p0" and "Petalmane Baku" in left["reason"] and "Remove X ki counters" in left["reason"]


def test_options_mana_cache_charge_counters() -> None:
    """Mana Cache: "Remove a charge counter: Add {C}", once per counter (CR 118.3)."""
    out = options(json_board(storage("Mana Cache", 2, "charge"), "Forest"))
    assert out == {"options": ["{G}{C}{C}"], "complete": True}


def test_options_mana_cache_of_another_player_named_as_left_out() -> None:
    """Mana Cache: "Any player may activate this ability": another player's, with counters, could add
    to this player's pool, which the answer does not read: incomplete, naming it."""
    state = json_board("Plains")
    state["battlefield"].append({"id": "mc", "card": "Mana Cache", "controller": "opp", "counters": {"charge": 2}})
    out = options(state)
    assert out["options"] == ["{W}"] and out["complete"] is False
    assert out["unsupported"][0]["permanent"] == "mc" and "Mana Cache" in out["unsupported"][0]["reason"]


# -- Squandered Resources ---------------------------------------------------------------------------


def test_options_squandered_resources_sacrifices_every_land_after_tapping_it() -> None:
    """Squandered Resources: "Sacrifice a land: Add one mana of any type the sacrificed land could
    produce" (CR 106.7): each land tapped for mana, then sacrificed; a tapped Island is sacrificed
    too."""
    out = options(json_board("Squandered Resources", "Plains", {"card": "Island", "tapped": True}, "Forest"))
    assert out == {"options": ["{W}{W}{U}{G}{G}"], "complete": True}


def test_options_squandered_resources_land_that_makes_no_mana_adds_nothing() -> None:
    """Maze of Ith could produce no mana: sacrificing it adds nothing."""
    assert options(json_board("Squandered Resources", "Maze of Ith", "Forest")) == \
        {"options": ["{G}{G}"], "complete": True}


def test_options_squandered_resources_filter_land_sacrificed_after_its_activation() -> None:
    """Sunken Ruins alone: its "{U/B}, {T}" needs mana it doesn't have, and its sacrifice comes after
    it (the land is gone), so: {C} and one mana it could produce.  Beside a Swamp: the Swamp's
    {B}, its sacrifice's {B}, one of them paying Sunken Ruins' two, and its sacrifice's one."""
    assert options(json_board("Squandered Resources", "Sunken Ruins")) == \
        {"options": ["{U}{C}", "{B}{C}", "{C}{C}"], "complete": True}
    out = options(json_board("Squandered Resources", "Sunken Ruins", "Swamp"))
    assert out["complete"] is True and out["options"][0] == "{U}{U}{U}{B}" and len(out["options"]) == 8


def test_options_squandered_resources_land_that_sacrificed_itself_is_gone() -> None:
    """Crystal Vein's "{T}, Sacrifice Crystal Vein: Add {C}{C}" leaves nothing to sacrifice again."""
    assert options(json_board("Squandered Resources", "Crystal Vein")) == {"options": ["{C}{C}"], "complete": True}


def test_options_squandered_resources_storage_land_sacrificed_after_its_counters() -> None:
    """Calciform Pools (2 counters) alone: tapped for {C}, which pays "{1}, Remove X storage
    counters" for two of {W}/{U}, then sacrificed for one mana it could produce; or tapped and
    sacrificed with its counters kept ({C}{C})."""
    out = options(json_board("Squandered Resources", storage("Calciform Pools", 2)))
    assert out == {"options": ["{W}{W}{W}", "{W}{W}{U}", "{W}{W}{C}", "{W}{U}{U}", "{W}{U}{C}", "{U}{U}{U}",
                               "{U}{U}{C}", "{C}{C}"], "complete": True}


def test_options_squandered_resources_beside_springleaf_drum_left_out() -> None:
    """Lands sacrificed beside an ability that taps other permanents (a Dryad Arbor could be tapped
    for Springleaf Drum, then sacrificed) is not read: Squandered Resources is named as left out,
    with its clause."""
    out = options(json_board("Squandered Resources", "Dryad Arbor", "Springleaf Drum"))
    assert out["complete"] is False
    (left,) = out["unsupported"]
    assert left["permanent"] == "p0" and "tap other permanents" in left["reason"]
    assert "Sacrifice a land" in left["reason"]


def test_squandered_resources_pay_and_validate_sacrifice_a_land_for_its_own_types() -> None:
    """The payment queries read the same rule (CR 106.7): Plains, Island and Forest can't pay
    {G}{G}{G} (only the Forest, tapped and then sacrificed, makes {G}), and ``validate`` refuses a
    Plains sacrificed for {G}; every pool ``options`` lists is payable."""
    state = json_board("Squandered Resources", "Plains", "Island", "Forest")
    assert answer({"query": "can_pay", "state": state, "cost": "{G}{G}{G}"})["payable"] is False
    assert answer({"query": "can_pay", "state": state, "cost": "{U}{U}{U}"})["payable"] is False
    assert answer({"query": "can_pay", "state": state, "cost": "{W}{W}{U}{U}{G}{G}"})["payable"] is True
    claim = {"total": "{G}{G}", "choices": [], "x": 0, "pool_used": "", "life": 0, "energy": 0, "damage": 0,
             "floating": "", "activations": [
                 {"permanent": "p3", "ability": 0, "costs": ["{T}"], "mana": "{G}"},
                 {"permanent": "p0", "ability": 0, "costs": ["sacrifice a land"], "mana": "{G}", "sacrificed": ["p1"]}]}
    out = answer({"query": "validate", "state": state, "cost": "{G}{G}", "payment": claim})
    assert out["legal"] is False and "106.7" in out["problems"][0]
    claim["activations"][1]["sacrificed"] = ["p3"]
    assert answer({"query": "validate", "state": state, "cost": "{G}{G}", "payment": claim})["legal"] is True
    board = json_board("Squandered Resources", "Vault of Champions", "Wanderwine Hub", "Llanowar Elves")
    for pool in options(board)["options"]:
        assert answer({"query": "can_pay", "state": board, "cost": pool})["payable"] is True, pool
    assert answer({"query": "can_pay", "state": board, "cost": "{U}{B}{B}{B}"})["payable"] is False


# -- against the brute force ------------------------------------------------------------------------

CARDS: tuple[str | dict[str, Any], ...] = (
    "Forest", "Island", "Swamp", "Plains", "Simic Signet", "Farrelite Priest", "Signpost Scarecrow",
    "Orochi Leafcaller", "Agent of Stromgald", "Skyshroud Elf", "Manaforge Cinder", "Llanowar Envoy",
    storage("Calciform Pools", 1), storage("Calciform Pools", 2), storage("Fungal Reaches", 2),
    storage("Mana Cache", 1, "charge"),
)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(board=st.lists(st.sampled_from(CARDS), min_size=1, max_size=3))
@example(board=["Skyshroud Elf", storage("Fungal Reaches", 2), storage("Fungal Reaches", 2)])
def test_options_untapped_abilities_match_the_brute_force(board: list[str | dict[str, Any]]) -> None:
    """Boards of storage lands, converters and basics: complete, and what every sequence of
    activations reaches (CR 601.2g, 605.3a).  The brute force activates a repeatable ability as
    often as the board's other mana can feed it (Skyshroud Elf's {1} five times beside two Fungal
    Reaches with two storage counters each: {W}{W}{W}{W}{W})."""
    state = json_board(*board)
    out = options(state)
    assert out["complete"] is True, out
    try:
        agrees_with_brute_force(state, out["options"])
    except TooBig:
        reject()
