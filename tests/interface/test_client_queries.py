"""The client's queries through the protocol: ``guide``, ``sources`` and ``"apply": true``.

Each answer is checked for what a client draws from it; bad input is an error naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.solver import answer
from manasolver.solver.service.demo import example_state


def _board(*perms: tuple[str, str], **player: Any) -> dict[str, Any]:
    return {"players": [{"name": "you", **player}, {"name": "opponent"}],
            "battlefield": [{"id": pid, "card": card} for pid, card in perms]}


# -- guide ----------------------------------------------------------------------------------------

def test_guide_lights_the_filter_land_once_the_island_has_paid_its_hybrid_605_3a() -> None:
    state = example_state("filters")
    before = answer({"query": "guide", "state": state, "cost": "{U}{U}{R}{R}"})
    lit = {(n["permanent"], n["ability"]) for n in before["next"]}
    assert before["completable"] and ("island", 0) in lit and ("bluffs", 1) not in lit
    after = answer({"query": "guide", "state": state, "cost": "{U}{U}{R}{R}",
                    "partial": [{"permanent": "island", "ability": 0}]})
    assert ("bluffs", 1) in {(n["permanent"], n["ability"]) for n in after["next"]}
    completion = after["completion"]
    assert completion["activations"][0]["permanent"] == "island"
    check = answer({"query": "validate", "state": state, "cost": "{U}{U}{R}{R}", "payment": completion})
    assert check == {"legal": True, "problems": []}


def test_guide_leaves_dark_what_would_make_the_cost_unpayable() -> None:
    state = _board(("plains", "Plains"), ("island", "Island"), ("forest", "Forest"))
    out = answer({"query": "guide", "state": state, "cost": "{W}{U}",
                  "partial": [{"permanent": "forest", "ability": 0}]})
    assert out["completable"]
    assert {n["permanent"] for n in out["next"]} == {"plains", "island"}
    stuck = answer({"query": "guide", "state": state, "cost": "{W}{U}{G}{G}"})
    assert not stuck["completable"] and stuck["next"] == [] and stuck["reason"]["code"] == "insufficient_mana"


def test_guide_names_the_first_illegal_step_of_a_partial_payment() -> None:
    state = example_state("filters")
    out = answer({"query": "guide", "state": state, "cost": "{U}{R}",
                  "partial": [{"permanent": "island", "ability": 0}, {"permanent": "island", "ability": 0}]})
    assert not out["completable"]
    assert out["reason"]["code"] == "illegal_partial" and out["reason"]["where"] == "partial[1]"
    filt = answer({"query": "guide", "state": state, "cost": "{U}{R}", "partial": [{"permanent": "bluffs",
                                                                                  "ability": 1}]})
    assert filt["reason"]["where"] == "partial[0]" and "{U/R}" in filt["reason"]["message"]


def test_guide_asks_which_mana_an_any_color_source_made() -> None:
    state = _board(("city", "City of Brass"))
    vague = answer({"query": "guide", "state": state, "cost": "{R}", "partial": [{"permanent": "city", "ability": 0}]})
    assert vague["reason"]["where"] == "partial[0].mana"
    wrong = answer({"query": "guide", "state": state, "cost": "{R}",
                    "partial": [{"permanent": "city", "ability": 0, "mana": "{G}"}]})
    assert wrong["completable"] is False and wrong["reason"]["code"] == "insufficient_mana"
    right = answer({"query": "guide", "state": state, "cost": "{R}",
                    "partial": [{"permanent": "city", "ability": 0, "mana": "{R}"}]})
    assert right["completable"] and right["completion"]["damage"] == 1


def test_guide_bad_partial_is_an_error_naming_the_field() -> None:
    out = answer({"query": "guide", "state": _board(("f", "Forest")), "cost": "{G}", "partial": {"f": 0}})
    assert out["error"]["where"] == "partial"
    out = answer({"query": "guide", "state": _board(("f", "Forest")), "cost": "{G}",
                  "partial": [{"permanent": "f", "ability": "x"}]})
    assert out["error"]["where"] == "partial[0].ability"


# -- sources ---------------------------------------------------------------------------------------

def test_sources_exclude_never_taps_the_excluded_land() -> None:
    state = _board(("p1", "Plains"), ("p2", "Plains"))
    out = answer({"query": "pay", "state": state, "cost": "{W}", "sources": {"exclude": ["p1"]}})
    assert [a["permanent"] for a in out["payment"]["activations"]] == ["p2"]
    gone = answer({"query": "can_pay", "state": state, "cost": "{W}{W}", "sources": {"exclude": ["p1"]}})
    assert gone["payable"] is False


def test_sources_require_taps_the_required_one_and_the_engine_does_the_rest() -> None:
    state = _board(("p1", "Plains"), ("p2", "Plains"), ("i", "Island"))
    out = answer({"query": "pay", "state": state, "cost": "{W}{U}", "sources": {"require": ["p2"]}})
    assert sorted(a["permanent"] for a in out["payment"]["activations"]) == ["i", "p2"]


def test_rule_106_4_pay_spends_required_mana_mystic_gate_llanowar_elves_birds_of_paradise() -> None:
    """A required permanent's mana is made first and floats (CR 106.4); left unspent it is
    wasted, so ``pay`` spends it where it can: with Plains, Mystic Gate, Llanowar Elves and Birds
    of Paradise, a required Elves' {G} pays the {1} of {U}{1} beside the Birds' {U} (nothing
    wasted, not Plains into the Gate leaving the {G}), and a required Plains' {W} pays the Gate's
    {W/U} for {U}{G} (one non-land activated, not the Elves and the Birds), ``preserve`` on the
    required one or not."""
    state = _board(("p0", "Plains"), ("p1", "Mystic Gate"), ("p2", "Llanowar Elves"), ("p3", "Birds of Paradise"),
                   life=20)
    policy = ["no_sacrifice", "min_life", "min_waste", "prefer_lands", "min_sources"]
    for cost, require, best, waste, nonlands in [("{U}{1}", "p2", ["p2", "p3"], 0, 2),
                                                 ("{U}{G}", "p0", ["p0", "p1", "p2"], 1, 1)]:
        for preserve in ([], [require]):
            out = answer({"query": "pay", "state": state, "cost": cost, "policy": policy,
                          "sources": {"require": [require], "preserve": preserve}})
            payment = out["payment"]
            assert sorted(a["permanent"] for a in payment["activations"]) == best, (cost, out)
            score = dict(payment["score"])
            assert (score["min_waste"], score["prefer_lands"]) == (waste, nonlands), (cost, out)
            check = answer({"query": "validate", "state": state, "cost": cost, "payment": payment})
            assert check == {"legal": True, "problems": []}


def test_sources_preserve_uses_the_preserved_land_only_when_nothing_else_pays() -> None:
    state = _board(("city", "City of Brass"), ("m", "Mountain"))
    kept = answer({"query": "pay", "state": state, "cost": "{R}", "sources": {"preserve": ["m"]},
                   "policy": ["min_sources"]})
    assert [a["permanent"] for a in kept["payment"]["activations"]] == ["city"]
    assert kept["payment"]["score"][0] == ["preserve", 0]
    used = answer({"query": "pay", "state": state, "cost": "{R}{R}", "sources": {"preserve": ["m"]}})
    assert "uses_preserved" in used["payment"]["warnings"]


def test_sources_conflicting_is_a_reason_naming_the_permanent() -> None:
    state = _board(("p1", "Plains"))
    out = answer({"query": "pay", "state": state, "cost": "{W}", "sources": {"require": ["p1"], "exclude": ["p1"]}})
    assert out["reason"]["code"] == "conflicting_sources" and "p1" in out["reason"]["message"]
    tapped = {"players": [{"name": "you"}], "battlefield": [{"id": "p1", "card": "Plains", "tapped": True},
                                                            {"id": "p2", "card": "Plains"}]}
    out = answer({"query": "pay", "state": tapped, "cost": "{W}", "sources": {"require": ["p1"]}})
    assert out["reason"]["code"] == "conflicting_sources"


def test_sources_unknown_id_is_an_error_naming_its_place() -> None:
    out = answer({"query": "pay", "state": _board(("p1", "Plains")), "cost": "{W}",
                  "sources": {"exclude": ["p1", "nope"]}})
    assert out["error"]["code"] == "bad_query" and out["error"]["where"] == "sources.exclude[1]"


def test_sources_max_x_and_payments_honour_exclude() -> None:
    state = _board(("p1", "Plains"), ("p2", "Plains"), ("p3", "Plains"))
    assert answer({"query": "max_x", "state": state, "cost": "{X}{W}", "sources": {"exclude": ["p3"]}})["max_x"] == 1
    listed = answer({"query": "payments", "state": state, "cost": "{W}", "sources": {"exclude": ["p1", "p2"]}})
    assert [[a["permanent"] for a in p["activations"]] for p in listed["payments"]] == [["p3"]]


# -- apply -----------------------------------------------------------------------------------------

def test_apply_carries_the_payment_out_on_the_kept_board_701_21a_119_4() -> None:
    state = {"players": [{"name": "you", "life": 20, "pool": "{G}"}],
             "battlefield": [{"id": "t", "card": "Treasure", "token": True}, {"id": "reef", "card": "Shivan Reef"},
                             {"id": "f", "card": "Forest"}]}
    handle = answer({"query": "open", "state": state})["board"]
    out = answer({"query": "pay", "board": handle, "cost": "{U}{R}{G}", "apply": True})
    assert out["applied"] is True
    paid = {a["permanent"] for a in out["payment"]["activations"]}
    after = answer({"query": "options", "board": handle})
    assert after["options"] == (["{G}"] if "f" not in paid else [])
    again = answer({"query": "can_pay", "board": handle, "cost": "{U}"})
    assert again["payable"] is False  # the Treasure is gone and the Reef tapped
    answer({"query": "close", "board": handle})


def test_apply_needs_a_kept_board() -> None:
    """``"apply": true`` without ``board`` is refused at ``apply``; ``false`` is no payment carried
    out, and anything but a boolean is refused as a flag."""
    query = {"query": "pay", "state": _board(("f", "Forest")), "cost": "{G}"}
    out = answer({**query, "apply": True})
    assert out["error"]["where"] == "apply" and "give \"board\"" in out["error"]["message"]
    assert answer({**query, "apply": False}) == answer(query)
    out = answer({**query, "apply": 1})
    assert out["error"]["where"] == "apply" and out["error"]["message"] == "apply must be true or false"


# -- the command line ------------------------------------------------------------------------------

def test_cli_guide_and_sources_flags() -> None:
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "guide", "example:filters", "{U}{R}",
                          "--partial", '[{"permanent": "island", "ability": 0}]', "--json"],
                         capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["completable"] and ("bluffs", 1) in {(n["permanent"], n["ability"]) for n in got["next"]}
    out = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "pay", "example:basics", "{G}",
                          "--exclude", "forest", "--json"], capture_output=True, text=True, check=True)
    paid = json.loads(out.stdout)
    assert paid["payable"] and [a["permanent"] for a in paid["payment"]["activations"]] == ["everywhere"]
    bad = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "guide", "example:filters", "{U}",
                          "--partial", "[", "--json"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "--partial" in bad.stderr


def test_apply_carries_a_plan_out_in_order() -> None:
    state = _board(("p1", "Plains"), ("i1", "Island"), ("i2", "Island"))
    handle = answer({"query": "open", "state": state})["board"]
    out = answer({"query": "plan", "board": handle, "costs": [{"cost": "{W}"}, {"cost": "{U}"}], "apply": True})
    assert out["payable"] and out["applied"] is True
    left = answer({"query": "can_pay", "board": handle, "cost": "{U}"})
    assert left["payable"] is True  # one Island is left
    assert answer({"query": "can_pay", "board": handle, "cost": "{U}{U}"})["payable"] is False
    answer({"query": "close", "board": handle})


def test_guide_never_lights_an_excluded_source() -> None:
    state = _board(("p1", "Plains"), ("p2", "Plains"))
    out = answer({"query": "guide", "state": state, "cost": "{W}", "sources": {"exclude": ["p1"]}})
    assert [n["permanent"] for n in out["next"]] == ["p2"]
    assert [a["permanent"] for a in out["completion"]["activations"]] == ["p2"]


def test_rule_106_4_a_required_wastes_beside_a_pool_of_blue_and_colorless_wastes_nothing() -> None:
    """Mana of one type is the same mana (CR 106.4): a required Wastes' {C} paying {C} beside a
    pool of {U}{C} leaves the pool as it was, nothing made and unspent (``min_waste`` 0), in
    ``pay``, ``guide`` and ``plan``; where ``use_pool`` ranks before ``min_waste`` (or weighs
    more) the pool's {C} is read as spent and the Wastes' as floating."""
    state = _board(("p0", "Wastes"), ("p1", "Island"), pool="{U}{C}")
    require = {"require": ["p0"]}
    for policy, used, floating in [(None, "", ""), (["use_pool", "min_waste"], "{C}", "{C}"),
                                   ({"criteria": ["min_waste"], "weights": {"min_waste": 1, "use_pool": 3}},
                                    "{C}", "{C}")]:
        extra = {"policy": policy} if policy else {}
        paid = answer({"query": "pay", "state": state, "cost": "{C}", "sources": require, **extra})["payment"]
        guided = answer({"query": "guide", "state": state, "cost": "{C}", **extra,
                         "partial": [{"permanent": "p0", "ability": 0}]})["completion"]
        planned = answer({"query": "plan", "state": state, "costs": [{"cost": "{C}"}, {"cost": "{U}"}],
                          "sources": require, **extra})["payments"]
        for payment in (paid, guided, planned[0]):
            assert [a["permanent"] for a in payment["activations"]] == ["p0"], (policy, payment)
            assert (payment["pool_used"], payment["floating"]) == (used, floating), (policy, payment)
            assert dict(payment["score"])["min_waste"] == len(floating) // 3, (policy, payment)
        assert planned[1]["pool_used"] == "{U}" and planned[1]["activations"] == [], planned
        check = answer({"query": "validate", "state": state, "cost": "{C}", "payment": guided})
        assert check == {"legal": True, "problems": []}


def test_rule_106_4_guide_spends_the_llanowar_elves_mana_before_leaving_it_floating() -> None:
    """Llanowar Elves activated by hand, {U}{1} to pay, {C} in the pool: the completion pays the {1}
    with the Elves' {G} and leaves the pool's {C} (nothing made is wasted), not the other way
    round (the {G} floating unspent), as ``pay`` with the Elves required does."""
    state = _board(("p0", "Llanowar Elves"), ("p1", "Island"), pool="{C}")
    guided = answer({"query": "guide", "state": state, "cost": "{U}{1}",
                     "partial": [{"permanent": "p0", "ability": 0}]})["completion"]
    paid = answer({"query": "pay", "state": state, "cost": "{U}{1}", "sources": {"require": ["p0"]}})["payment"]
    for payment in (guided, paid):
        assert [a["permanent"] for a in payment["activations"]] == ["p0", "p1"], payment
        assert (payment["pool_used"], payment["floating"]) == ("", ""), payment
        assert dict(payment["score"])["min_waste"] == 0, payment
    assert guided["score"] == paid["score"]


def test_rule_605_3a_the_pool_pays_a_signets_cost_before_its_mana_is_made() -> None:
    """An Azorius Signet's {1} is paid before its {W}{U} is made (CR 605.3a): with {U}{C} in the
    pool and {W} to pay, the pool's mana paid the Signet, however the unspent {U} is read, and
    the completion and the payment with the Signet required are legal as written."""
    state = _board(("p0", "Azorius Signet"), pool="{U}{C}")
    guided = answer({"query": "guide", "state": state, "cost": "{W}"})["completion"]
    paid = answer({"query": "pay", "state": state, "cost": "{W}", "sources": {"require": ["p0"]}})["payment"]
    for payment in (guided, paid):
        assert len(payment["pool_used"]) == 3 and payment["floating"] == "{U}", payment
        check = answer({"query": "validate", "state": state, "cost": "{W}", "payment": payment})
        assert check == {"legal": True, "problems": []}, payment


def test_sources_exclude_keeps_the_colors_the_excluded_forest_feeds_azorius_signet() -> None:
    """An excluded permanent is never used, so it stays untapped: City of Brass required, Forest
    excluded, {W}{U} to pay with a Plains and an Azorius Signet beside them: the City's {U} and the
    Plains' {W} leave the Signet fed by the Forest (white, blue and green kept, ``keep_colors``
    2), not the City's {W} into the Signet (only white and green kept, 3)."""
    state = _board(("p0", "City of Brass"), ("p1", "Forest"), ("p2", "Plains"), ("p3", "Azorius Signet"))
    out = answer({"query": "pay", "state": state, "cost": "{W}{U}", "sources": {"require": ["p0"], "exclude": ["p1"]}})
    payment = out["payment"]
    assert sorted(a["permanent"] for a in payment["activations"]) == ["p0", "p2"], payment
    assert dict(payment["score"])["keep_colors"] == 2, payment


@pytest.mark.parametrize("backend", [None, "fastopt", "cpsat"])
def test_sources_exclude_keeps_the_colors_of_the_excluded_tundra(backend: str | None) -> None:
    """The excluded Tundra stays untapped, so it keeps white and blue whatever pays: {1} from a
    second Tundra or a Swamp is paid by the Tundra, which leaves black kept too (``keep_colors``
    0), not by the Swamp (blue and white only, 1), as if the excluded one were tapped."""
    state = _board(("p0", "Tundra"), ("p1", "Tundra"), ("p2", "Swamp"))
    query = {"query": "pay", "state": state, "cost": "{1}", "sources": {"exclude": ["p0"]}}
    out = answer({**query, "backend": backend} if backend else query)
    payment = out["payment"]
    assert [a["permanent"] for a in payment["activations"]] == ["p1"], payment
    assert dict(payment["score"])["keep_colors"] == 0, payment


def test_guide_with_sources_exclude_keeps_the_colors_of_the_excluded_tundra() -> None:
    """``guide``'s completion with a Tundra excluded: the excluded one stays untapped, so the
    second Tundra pays {1} (``keep_colors`` 0), not the Swamp (1), as ``pay`` answers."""
    state = _board(("p0", "Tundra"), ("p1", "Tundra"), ("p2", "Swamp"))
    completion = answer({"query": "guide", "state": state, "cost": "{1}",
                         "sources": {"exclude": ["p0"]}})["completion"]
    assert [a["permanent"] for a in completion["activations"]] == ["p1"], completion
    assert dict(completion["score"])["keep_colors"] == 0, completion


@pytest.mark.parametrize("sources", [{"exclude": ["p0"]}, {"preserve": ["p0"]}])
def test_plan_with_sources_keeps_the_colors_of_the_tundra_it_leaves_untapped(sources: dict[str, list[str]]) -> None:
    """``plan`` with a Tundra excluded or preserved (and left unused): it stays untapped, so the
    second Tundra pays {1} (``keep_colors`` 0 at the plan's end), not the Swamp (1)."""
    state = _board(("p0", "Tundra"), ("p1", "Tundra"), ("p2", "Swamp"))
    out = answer({"query": "plan", "state": state, "costs": [{"cost": "{1}"}], "sources": sources})
    payment = out["payments"][0]
    assert [a["permanent"] for a in payment["activations"]] == ["p1"], out


@pytest.mark.parametrize("backend", [None, "fastopt", "cpsat"])
def test_sources_preserve_keeps_the_colors_of_the_preserved_tundra_left_untapped(backend: str | None) -> None:
    """A preserved permanent the payment does not use stays untapped, so what it keeps counts:
    Tundra preserved, {1} from a second Tundra or a Swamp: the second Tundra pays (white, blue
    and black kept, ``keep_colors`` 0; ``preserve`` 0), not the Swamp (1)."""
    state = _board(("p0", "Tundra"), ("p1", "Tundra"), ("p2", "Swamp"))
    query = {"query": "pay", "state": state, "cost": "{1}", "sources": {"preserve": ["p0"]}}
    out = answer({**query, "backend": backend} if backend else query)
    payment = out["payment"]
    assert [a["permanent"] for a in payment["activations"]] == ["p1"], payment
    assert dict(payment["score"])["preserve"] == 0 and dict(payment["score"])["keep_colors"] == 0, payment


@pytest.mark.parametrize("backend", [None, "fastopt", "cpsat"])
def test_sources_exclude_keeps_llanowar_elves_castable_by_the_excluded_forest(backend: str | None) -> None:
    """``keep_castable`` (the cards in hand) counts the excluded Forest, which stays untapped:
    Llanowar Elves ({G}) in hand, {1} from a second Forest or a Swamp: the Elves stay castable
    either way, so the Forest pays and black is kept too (``keep_colors`` 0), not the Swamp to
    save the only green source of a board where the excluded Forest were tapped."""
    state = _board(("p0", "Forest"), ("p1", "Forest"), ("p2", "Swamp"), hand=["Llanowar Elves"])
    query = {"query": "pay", "state": state, "cost": "{1}", "sources": {"exclude": ["p0"]}}
    out = answer({**query, "backend": backend} if backend else query)
    payment = out["payment"]
    assert [a["permanent"] for a in payment["activations"]] == ["p1"], payment
    score = dict(payment["score"])
    assert (score["keep_castable"], score["keep_colors"]) == (0, 0), payment


@pytest.mark.parametrize("backend", [None, "cpsat"])
def test_sources_exclude_keeps_llanowar_elves_castable_feeding_azorius_signet_from_a_forest(
        backend: str | None) -> None:
    """The same through a converter: Llanowar Elves in hand, Forest excluded, {U} from an Azorius
    Signet fed by a second Forest or a Plains: the excluded Forest keeps the Elves castable, so
    the second Forest feeds the Signet and the Plains keeps white (``keep_colors`` 1), not the
    Plains feeding it (only green kept, 2)."""
    state = _board(("p0", "Forest"), ("p1", "Forest"), ("p2", "Plains"), ("p3", "Azorius Signet"),
                   hand=["Llanowar Elves"])
    query = {"query": "pay", "state": state, "cost": "{U}", "sources": {"exclude": ["p0"]}}
    out = answer({**query, "backend": backend} if backend else query)
    payment = out["payment"]
    assert sorted(a["permanent"] for a in payment["activations"]) == ["p1", "p3"], payment
    score = dict(payment["score"])
    assert (score["keep_castable"], score["keep_colors"]) == (0, 1), payment
