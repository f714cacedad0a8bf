"""The fresh-board lane of ``can_pay`` (solver/fresh.py) answers exactly as the full path does.

The full path is asked with ``"player"`` naming the first player: the same question (the first
player is the default), but a field the lane does not read, so it always goes the full way.
Boards are drawn from real cards, quiet and not, with the fields that change a row (tapped, sick,
token, the controller, life, the commander), and answers are compared whole, as ``batch`` writes
them.  The named tests are the cards and rules that must leave the lane.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manasolver.benchmarks import boards as bd
from manasolver.models.carddb import default_db
from manasolver.solver import fresh
from manasolver.solver.service import boards as board_cache
from manasolver.solver.service.protocol import answer, answer_line_text

#: Real cards: quiet ones the lane sums, and ones that must send the board the full way.
QUIET = ("Forest", "Island", "Swamp", "Mountain", "Plains", "Wastes", "Snow-Covered Forest", "Tropical Island",
         "Underground Sea", "Yavimaya Coast", "Llanowar Wastes", "Cascade Bluffs", "Command Tower",
         "Arcane Signet", "Sol Ring", "Dimir Signet", "Talisman of Unity", "Llanowar Elves",
         "Birds of Paradise", "Avacyn's Pilgrim", "Treasure", "Mana Confluence", "Grizzly Bears",
         "Thragtusk", "Mind Stone", "Commander's Sphere", "Path of Ancestry", "Overgrown Tomb",
         "Ancient Tomb", "Lotus Petal", "City of Brass")
LOUD = ("Null Rod", "Manabarbs", "Fervor", "Urborg, Tomb of Yawgmoth", "Blood Moon", "Cryptolith Rite",
        "Chromatic Lantern", "Heritage Druid", "Celestial Dawn", "Mana Reflection", "Seizures", "Contaminated Ground",
        "Accomplished Alchemist", "Marwyn, the Nurturer", "Kydele, Chosen of Kruphix", "Ice Cauldron")
#: Cards whose own mana counts the board or reads other lands: the lane counts them as adding nothing.
COUNTING = ("Elvish Archdruid", "Gaea's Cradle", "Exotic Orchard", "Reflecting Pool", "Priest of Titania",
            "Circle of Dreams Druid", "Fellwar Stone")
COMMANDERS = ("Kenrith, the Returned King", "Ezuri, Renegade Leader", "Atraxa, Praetors' Voice",
              "Krenko, Mob Boss")
COSTS = ("{G}", "{U}", "{W}{U}", "{2}{G}", "{1}{B/P}", "{B/P}{B/P}", "{C}", "{S}", "{X}{R}", "{2/W}",
         "{G/U}{G/U}", "{W}{U}{B}{R}{G}", "{5}{G}{G}", "{1}", "{3}{R/P}", "{C}{C}{C}", "{0}")


def _state(perms: list[dict[str, Any]], commander: str | None = None, life: int = 20,
           hand: tuple[str, ...] = ()) -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you", "life": life}
    if commander:
        you["commander"] = [commander]
    if hand:
        you["hand"] = list(hand)
    return {"players": [you, {"name": "opponent", "life": 20}], "battlefield": perms}


def _full(query: dict[str, Any]) -> dict[str, Any]:
    """The full path's answer to the same question (``player`` is a field the lane does not read)."""
    return answer({**query, "player": query["state"]["players"][0]["name"]})


def _lane(query: dict[str, Any]) -> dict[str, Any] | None:
    return fresh.can_pay(query, default_db())


@st.composite
def _boards(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 12))
    perms = []
    for i in range(n):
        pick = draw(st.integers(0, 9))
        card = draw(st.sampled_from(QUIET if pick > 2 else COUNTING if pick else LOUD))
        perm: dict[str, Any] = {"id": f"p{i}", "card": card}
        if draw(st.integers(0, 4)) == 0:
            perm["tapped"] = draw(st.booleans())
        if draw(st.integers(0, 3)) == 0:
            perm["sick"] = draw(st.booleans())
        if draw(st.integers(0, 6)) == 0:
            perm["token"] = draw(st.booleans())
        if draw(st.integers(0, 5)) == 0:
            perm["controller"] = "opponent"
        if draw(st.integers(0, 24)) == 0:  # a value or field the loader refuses or reads otherwise
            field = draw(st.sampled_from(("id", "card", "controller", "tapped", "sick", "token", "haste", "counters")))
            perm[field] = draw(st.sampled_from((None, 0, 1, 3, "", " ", "p0", "yes", True, False, [], {})))
        perms.append(perm)
    commander = draw(st.sampled_from((None, *COMMANDERS)))
    life = draw(st.sampled_from((0, 1, 2, 3, 4, 20)))
    hand = draw(st.sampled_from(((), ("Counterspell",), ("Simian Spirit Guide",))))
    return {"query": "can_pay", "state": _state(perms, commander, life, hand), "cost": draw(st.sampled_from(COSTS))}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_boards())
def test_the_lane_answers_as_the_full_path_on_random_boards_of_real_cards(query: dict[str, Any]) -> None:
    """Whenever the lane answers, the full path answers the same, byte for byte as batch writes it."""
    got = _lane(query)
    want = _full(query)
    if got is not None:
        assert got == want == {"payable": True}, (query, got, want)
    line = json.dumps({**query, "id": 7})
    assert json.loads(answer_line_text(line)) == {"id": 7, **want}


def test_the_lane_answers_every_fresh_commander_board_line() -> None:
    """The benchmark's Commander boards (basics, duals, pain and filter lands, Signets, Sol Ring,
    Command Tower, Arcane Signet, dorks, a Treasure) are quiet: every payable line is the lane's,
    and equal to the full path's answer."""
    costs = bd.costs_for(3, 60)
    answered = 0
    for i in range(60):
        query = {"query": "can_pay", "state": bd.commander_board(500 + i), "cost": costs[i]}
        got = _lane(query)
        want = _full(query)
        if want == {"payable": True}:
            answered += got is not None
        if got is not None:
            assert got == want
    assert answered >= 50


def _left(card: str, cost: str, extra: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """Assert that a board with ``card`` goes the full way; the full path's answer."""
    perms = [{"id": "f1", "card": "Forest"}, {"id": "i1", "card": "Island"}, {"id": "x", "card": card}]
    query = {"query": "can_pay", "state": _state(perms + (extra or []), **kw), "cost": cost}
    assert _lane(query) is None, card
    return answer(query)


def test_null_rod_on_the_opponents_side_leaves_the_lane_602_5() -> None:
    """CR 602.5: Null Rod stops artifacts' mana abilities: Sol Ring can't pay {2} beside it."""
    perms = [{"id": "s", "card": "Sol Ring"}, {"id": "r", "card": "Null Rod", "controller": "opponent"}]
    query = {"query": "can_pay", "state": _state(perms), "cost": "{2}"}
    assert _lane(query) is None
    assert answer(query)["payable"] is False


def test_fervor_gives_a_sick_elf_haste_and_leaves_the_lane_302_6() -> None:
    """CR 302.6: a summoning-sick Llanowar Elves can't tap; Fervor's haste lets it."""
    elf = {"id": "e", "card": "Llanowar Elves", "sick": True}
    alone = {"query": "can_pay", "state": _state([elf]), "cost": "{G}"}
    assert _lane(alone) is None and answer(alone)["payable"] is False
    hasty = {"query": "can_pay", "state": _state([dict(elf), {"id": "f", "card": "Fervor"}]), "cost": "{G}"}
    assert _lane(hasty) is None and answer(hasty) == {"payable": True}
    own = {"query": "can_pay", "state": _state([{**elf, "haste": True}]), "cost": "{G}"}
    assert _lane(own) is None and answer(own) == {"payable": True}
    awake = {"query": "can_pay", "state": _state([{**elf, "sick": False}]), "cost": "{G}"}
    assert _lane(awake) == answer(awake) == {"payable": True}


def test_manabarbs_and_effects_on_mana_leave_the_lane() -> None:
    """Triggers on tapping for mana (Manabarbs, CR 603.2), land-type changes (Blood Moon,
    Urborg: layer 4, CR 305.7), granted abilities (Chromatic Lantern, layer 6) and replacement
    effects (Mana Reflection, CR 616) all reach other permanents."""
    for card in ("Manabarbs", "Blood Moon", "Urborg, Tomb of Yawgmoth", "Chromatic Lantern", "Mana Reflection",
                 "Celestial Dawn"):
        _left(card, "{G}")
    assert _left("Urborg, Tomb of Yawgmoth", "{B}{B}")["payable"] is True  # Forest and Island are Swamps too


def test_board_counts_and_references_add_nothing_in_the_lane_107_1b_106_7() -> None:
    """Elvish Archdruid, Priest of Titania and Gaea's Cradle count the board (CR 107.1b); Exotic
    Orchard and Reflecting Pool read what other lands could produce (CR 106.7).  The lane counts
    them as adding nothing: where the rest pays, its answer stands; where their mana is needed,
    the board goes the full way, which counts it."""
    assert _left("Elvish Archdruid", "{G}{G}{G}", [{"id": "e2", "card": "Llanowar Elves"}])["payable"] is True
    assert _left("Priest of Titania", "{G}{G}")["payable"] is True
    assert _left("Reflecting Pool", "{G}{G}")["payable"] is True
    for card in ("Gaea's Cradle", "Exotic Orchard"):  # no creature, no opponent's land: nothing more
        assert _left(card, "{G}{G}")["payable"] is False
    for card in COUNTING:
        perms = [{"id": "f1", "card": "Forest"}, {"id": "i1", "card": "Island"}, {"id": "x", "card": card}]
        query = {"query": "can_pay", "state": _state(perms), "cost": "{G}"}
        assert _lane(query) == answer(query) == {"payable": True}, card


def test_cards_reading_other_board_facts_leave_the_lane() -> None:
    """Mana by life gained this turn (Accomplished Alchemist: a field the board may not give),
    by power (Marwyn) or by cards drawn (Kydele) is not counted as nothing: such boards go the full way."""
    for card in ("Accomplished Alchemist", "Marwyn, the Nurturer", "Kydele, Chosen of Kruphix"):
        _left(card, "{G}")


def test_command_tower_row_follows_the_commander_903_4() -> None:
    """The lane keys Command Tower's row by the commander's identity: {U} is payable under
    Kenrith and not under Ezuri (the unpayable answer is the full path's, with its reason)."""
    tower = [{"id": "t", "card": "Command Tower"}]
    blue = {"query": "can_pay", "state": _state(tower, "Kenrith, the Returned King"), "cost": "{U}"}
    assert _lane(blue) == _full(blue) == {"payable": True}
    green = {"query": "can_pay", "state": _state([dict(tower[0])], "Ezuri, Renegade Leader"), "cost": "{U}"}
    assert _lane(green) is None and answer(green)["payable"] is False


def test_mana_confluence_needs_the_life_it_pays_119_4() -> None:
    """CR 119.4: Mana Confluence's "Pay 1 life" can't be paid at 0 life.  Its row is keyed by
    life, and an option that pays life is never one of the plain units (the flow leaves it to the
    optimiser too): the lane proves {R} with a Mountain beside it, and leaves the Confluence alone
    to the full way at either life."""
    conf = [{"id": "c", "card": "Mana Confluence"}]
    poor = {"query": "can_pay", "state": _state(conf, life=0), "cost": "{R}"}
    assert _lane(poor) is None and answer(poor)["payable"] is False
    rich = {"query": "can_pay", "state": _state([dict(conf[0])], life=1), "cost": "{R}"}
    assert _lane(rich) is None and answer(rich) == {"payable": True}
    both = {"query": "can_pay", "state": _state([dict(conf[0]), {"id": "m", "card": "Mountain"}], life=0),
            "cost": "{R}"}
    assert _lane(both) == _full(both) == {"payable": True}


def test_phyrexian_life_beside_a_pain_land_goes_the_full_way_119_4() -> None:
    """A form paying life beside a pain land's damage is the full path's to decide (the flow
    skips it too): {B/P}{B/P} with only Llanowar Wastes, at 4 life and at 2."""
    for life, payable in ((4, True), (2, False)):
        query = {"query": "can_pay", "state": _state([{"id": "w", "card": "Llanowar Wastes"}], life=life),
                 "cost": "{B/P}{B/P}"}
        assert _lane(query) is None
        assert answer(query) == _full(query)
        assert answer(query)["payable"] is payable


def test_spirit_guides_in_the_hand_leave_the_lane() -> None:
    """A Spirit Guide in the hand adds mana from there (the supply's hand classes)."""
    query = {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest"}], hand=("Simian Spirit Guide",)),
             "cost": "{R}"}
    assert _lane(query) is None and answer(query) == {"payable": True}


def test_fields_the_lane_does_not_read_go_the_full_way_and_errors_stay() -> None:
    """x, turn, counters, attachments, numeric ids, unknown fields, duplicate ids, unknown cards,
    bad costs: the lane declines, the full path answers or refuses with its own error."""
    base = [{"id": "f", "card": "Forest"}]
    cases = [
        {"query": "can_pay", "state": _state(base), "cost": "{X}{G}", "x": 0},
        {"query": "can_pay", "state": {**_state(base), "turn": {"active": "you", "step": "main1"}}, "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest", "counters": {"charge": 1}}]),
         "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": 3, "card": "Forest"}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest", "tapped": 0}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest", "token": None}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest", "sick": None}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest", "colour": "G"}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest"}, {"id": "f", "card": "Island"}]),
         "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forestt"}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": " ", "card": "Forest"}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state([{"id": "f", "card": "Forest", "controller": "nobody"}]), "cost": "{G}"},
        {"query": "can_pay", "state": _state(base), "cost": "{Q}{G}"},
        {"query": "can_pay", "state": _state(base), "cost": 3},
    ]
    for query in cases:
        assert _lane(query) is None, query
    assert answer(cases[0]) == {"payable": True}
    for query in cases[4:]:
        assert "error" in answer(query), query
    assert answer(cases[8])["error"]["where"] == "battlefield[1].id"


def test_a_board_sent_again_is_kept_for_the_memo_of_answers() -> None:
    """The first line of a board is the lane's; the same board text again goes the full way,
    which keeps it, so later lines are answered from the kept board."""
    state = _state([{"id": "f", "card": "Forest"}, {"id": "g", "card": "Forest", "tapped": False},
                    {"id": "q", "card": "Sol Ring", "sick": False}], "Kenrith, the Returned King", life=33)
    lines = [json.dumps({"query": "can_pay", "id": i, "state": state, "cost": "{2}{G}"}) for i in range(3)]
    board_cache.clear()
    first = answer_line_text(lines[0])
    assert board_cache.recent_count() == 0
    assert [first, answer_line_text(lines[1]), answer_line_text(lines[2])] == \
        [f'{{"id": {i}, "payable": true}}' for i in range(3)]
    assert board_cache.recent_count() == 1


def test_city_of_brass_damage_is_on_its_own_ability_and_stays_in_the_lane_603_2() -> None:
    """City of Brass's "Whenever ~ becomes tapped, it deals 1 damage to you" is on its {T}
    ability already (damage, CR 603.2): the lane sums it, and skips a form paying life beside it
    as the flow does.  Seizures' trigger ("unless that player pays {3}") is not read: the board goes
    the full way."""
    brass = [{"id": "b", "card": "City of Brass"}]
    query = {"query": "can_pay", "state": _state(brass), "cost": "{R}"}
    assert _lane(query) == _full(query) == {"payable": True}
    life = {"query": "can_pay", "state": _state([dict(brass[0])], life=3), "cost": "{R/P}{R/P}"}
    assert _lane(life) is None and answer(life) == _full(life)
    _left("Seizures", "{G}")


def test_a_session_board_update_is_a_new_kept_board_for_the_lane() -> None:
    """A session's board is kept; the lane's verdict is remembered per kept version, so tapping
    the only Forest (an update: a new version) makes {G} unpayable, and adding Null Rod sends the
    board the full way (CR 602.5: Sol Ring stops paying)."""
    state = _state([{"id": "f", "card": "Forest"}, {"id": "s", "card": "Sol Ring"}])
    handle = answer({"query": "open", "state": state})["board"]
    try:
        assert answer({"query": "can_pay", "board": handle, "cost": "{G}"}) == {"payable": True}
        assert answer({"query": "can_pay", "board": handle, "cost": "{2}{G}"}) == {"payable": True}
        answer({"query": "update", "board": handle, "changes": [{"tap": "f"}]})
        assert answer({"query": "can_pay", "board": handle, "cost": "{G}"})["payable"] is False
        assert answer({"query": "can_pay", "board": handle, "cost": "{2}"}) == {"payable": True}
        answer({"query": "update", "board": handle,
                "changes": [{"add": {"id": "r", "card": "Null Rod", "controller": "opponent"}}]})
        assert answer({"query": "can_pay", "board": handle, "cost": "{2}"})["payable"] is False
    finally:
        answer({"query": "close", "board": handle})
