"""Fuzzing the JSON protocol on boards of real cards that touch sacrifices, hand
sources, tapping costs, tap damage, activated abilities and keyword costs.

"No input, however malformed or large, may crash the process, hang it, or make it
answer wrongly without saying so."  Boards are built from real cards: sacrifice outlets
(Ashnod's Altar, Phyrexian Altar, Krark-Clan Ironworks), costs that tap other permanents
(Heritage Druid, Springleaf Drum), a pool doubler (Doubling Cube), tap damage (City of Brass,
Contaminated Ground attached to a land), restricted mana (Ancient Ziggurat), filter lands,
Signets, Treasure, permanents with activated abilities (Bonesplitter, Gavony Township, Mind
Stone) and Spirit Guides in the hand; with random tapped / sick / counters flags, random costs
and random ``spell`` objects (abilities by index or keyword, additional and alternative costs).

Properties checked on every generated query:

* :func:`answer` returns a dict; an error is ``{"error": {code, message, where}}`` with a code
  of the protocol's and never an internal error (a caught exception);
* every ``pay`` payment validates (a ``validate`` query with the same fields answers
  ``legal: true``), and so does every ``payments`` entry and the ``max_x`` payment;
* ``can_pay`` agrees with ``pay`` on ``payable`` (when neither is an error);
* no query takes more than :data:`SLOW` seconds (hypothesis' own deadline is off: the time is
  measured here, on the query alone).

``FUZZ_EXAMPLES`` (environment) raises the example counts for a long local hunt.
"""

from __future__ import annotations

import copy
import os
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.solver.service.protocol import answer

#: Seconds any single query may take before the test calls it a hang.
SLOW = float(os.environ.get("FUZZ_SLOW", "5"))
#: Examples per test (the committed counts keep the file well under a minute).
SCALE = float(os.environ.get("FUZZ_EXAMPLES", "1"))
#: ``FUZZ_KNOWN=1`` also fuzzes what the pinned xfail tests at the end of this file show broken
#: (Psychic Venom and Insolence, the ability's source as Altar fodder); off by default so
#: that the suite stays green until they are fixed.
KNOWN = os.environ.get("FUZZ_KNOWN") == "1"

ERROR_CODES = {"bad_cost", "bad_state", "unknown_card", "unknown_field", "unsupported", "bad_query"}
REASON_CODES = {"insufficient_mana", "insufficient_life", "insufficient_energy", "restricted_mana",
                "no_legal_x", "timing", "not_castable"}

#: Permanents of the board: real cards touching those features.
PERMANENTS = [
    "Ashnod's Altar", "Phyrexian Altar", "Krark-Clan Ironworks", "Llanowar Elves", "Grizzly Bears",
    "Heritage Druid", "Springleaf Drum", "Doubling Cube", "City of Brass", "Ancient Ziggurat",
    "Forest", "Island", "Mountain", "Treasure", "Izzet Signet", "Golgari Signet", "Mystic Gate",
    "Graven Cairns", "Bonesplitter", "Gavony Township", "Mind Stone", "Birds of Paradise",
    "Ornithopter", "Sol Ring", "Walking Ballista", "Umezawa's Jitte", "Basalt Monolith",
    "Pyrite Spellbomb", "Icy Manipulator", "Lotus Petal", "Urza, Lord High Artificer", "Order of Whiteclay",
    "Deathrite Shaman", "Stoneforge Mystic", "Elvish Mystic",
]
LANDS = {"Forest", "Island", "Mountain", "City of Brass", "Ancient Ziggurat", "Mystic Gate",
         "Graven Cairns", "Gavony Township"}
CREATURES = {"Llanowar Elves", "Grizzly Bears", "Heritage Druid", "Birds of Paradise", "Ornithopter",
             "Walking Ballista", "Urza, Lord High Artificer", "Order of Whiteclay", "Deathrite Shaman",
             "Stoneforge Mystic", "Elvish Mystic"}
HAND = ["Simian Spirit Guide", "Elvish Spirit Guide", "Lightning Bolt", "Krosan Tusker",
        "Ninja of the Deep Hours"]
GRAVEYARD = ["Dregscape Zombie", "Think Twice", "Beloved Beggar", "Grizzly Bears"]
#: Spells with keyword additional / alternative costs, and the names to ask for.
SPELLS = {
    "Gatekeeper of Malakir": ["kicker"], "Blessed Alliance": ["escalate"], "Burst Lightning": ["kicker"],
    "Everflowing Chalice": ["multikicker"], "Think Twice": ["flashback"],
    "Boon Satyr": ["bestow"], "Mulldrifter": ["evoke"], "Goblin Heelcutter": ["dash"],
    "Fiery Temper": ["madness"], "Temporal Mastery": ["miracle"], "Beloved Beggar": ["disturb"],
    "Cyclonic Rift": ["overload"], "Lightning Bolt": [], "Grizzly Bears": [], "Fireball": [],
}
SYMBOLS = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{W/U}", "{R/G}", "{2/G}", "{G/P}",
           "{R/P}", "{S}", "{E}", "{0}"]
STEPS = ["untap", "upkeep", "draw", "main1", "combat_damage", "main2", "end", "cleanup"]


@st.composite
def permanents(draw: Any) -> list[dict[str, Any]]:
    names = draw(st.lists(st.sampled_from(PERMANENTS), min_size=0, max_size=7))
    out: list[dict[str, Any]] = []
    for i, name in enumerate(names):
        perm: dict[str, Any] = {"id": f"p{i}", "card": name}
        if draw(st.integers(0, 5)) == 0:
            perm["tapped"] = True
        if draw(st.integers(0, 3)) == 0:
            perm["sick"] = True
        if draw(st.integers(0, 7)) == 0:
            perm["haste"] = True
        if draw(st.integers(0, 6)) == 0:
            perm["counters"] = {draw(st.sampled_from(["+1/+1", "charge", "time"])): draw(st.integers(0, 3))}
        if draw(st.integers(0, 9)) == 0:
            perm["controller"] = "them"
        out.append(perm)
    # Contaminated Ground ("Enchanted land is a Swamp") only on lands whose non-mana abilities
    # it would not remove: Gavony Township's are known to survive it (reported, pinned below).
    lands = [p["id"] for p in out if p["card"] in LANDS and p["card"] != "Gavony Township"]
    if lands and draw(st.booleans()):
        out.append({"id": "cg", "card": "Contaminated Ground", "attached_to": draw(st.sampled_from(lands))})
    creatures = [p["id"] for p in out if p["card"] in CREATURES]
    if KNOWN and lands and draw(st.booleans()):
        out.append({"id": "venom", "card": "Psychic Venom", "attached_to": draw(st.sampled_from(lands))})
    if KNOWN and creatures and draw(st.booleans()):
        out.append({"id": "insolence", "card": "Insolence", "attached_to": draw(st.sampled_from(creatures))})
    return out


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you", "life": draw(st.integers(0, 20))}
    if draw(st.booleans()):
        you["hand"] = draw(st.lists(st.sampled_from(HAND), max_size=3))
    if draw(st.integers(0, 3)) == 0:
        you["graveyard"] = draw(st.lists(st.sampled_from(GRAVEYARD), max_size=2))
    if draw(st.integers(0, 3)) == 0:
        you["energy"] = draw(st.integers(0, 4))
    if draw(st.integers(0, 4)) == 0:
        you["pool"] = draw(st.sampled_from(["{R}", "{G}{G}", "{C}", "{W}{U}"]))
    board: dict[str, Any] = {"players": [you, {"name": "them", "life": 20}], "battlefield": draw(permanents())}
    if draw(st.booleans()):
        board["turn"] = {"active": draw(st.sampled_from(["you", "them"])), "step": draw(st.sampled_from(STEPS)),
                         "stack_empty": draw(st.booleans())}
    return board


costs = st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=5).map("".join)


@st.composite
def cost_context(draw: Any, board: dict[str, Any]) -> dict[str, Any]:
    """The cost fields of a payment query: a plain cost, a spell, or an ability."""
    kind = draw(st.integers(0, 4))
    ids = [p["id"] for p in board["battlefield"]]
    if kind == 0 or (kind == 3 and not ids):
        return {"cost": draw(costs)}
    if kind == 1:
        out: dict[str, Any] = {"cost": draw(costs), "spell": draw(st.sampled_from([
            {"types": ["Creature"]}, {"types": ["Instant"], "colors": ["R"]}, {"card": "Grizzly Bears"},
            {"ability": True}]))}
        return out
    if kind == 2:
        name = draw(st.sampled_from(sorted(SPELLS)))
        out = {"spell": {"card": name}}
        keywords = SPELLS[name]
        if keywords and draw(st.booleans()):
            word = draw(st.sampled_from(keywords))
            if word in ("kicker",):
                out["additional"] = ["kicker"]
            elif word in ("multikicker", "escalate"):
                out["additional"] = [{"name": word, "times": draw(st.integers(0, 3))}]
            else:
                out["alternative"] = word
        return out
    if kind == 3:
        return {"spell": {"permanent": draw(st.sampled_from(ids)),
                          "ability": draw(st.sampled_from([0, 1, 2, "equip"]))}}
    return {"spell": draw(st.sampled_from([
        {"card": "Dregscape Zombie", "ability": "unearth"}, {"card": "Krosan Tusker", "ability": "cycling"},
        {"card": "Ninja of the Deep Hours", "ability": "ninjutsu"}, {"card": "Bonesplitter", "ability": "equip"}]))}


def timed(query: dict[str, Any], slow: list[tuple[float, dict[str, Any]]]) -> dict[str, Any]:
    """The answer to ``query``, checked for shape; its time is recorded when over :data:`SLOW`."""
    start = time.perf_counter()
    out = answer(copy.deepcopy(query))
    spent = time.perf_counter() - start
    if spent > SLOW:
        slow.append((spent, query))
    assert isinstance(out, dict), (query, out)
    if "error" in out:
        err = out["error"]
        assert set(err) == {"code", "message", "where"}, (query, out)
        assert err["code"] in ERROR_CODES, (query, out)
        escaped = query.get("query") == "validate" and ("NotActivatable" in err["message"]
                                                        or "NotCastable" in err["message"])
        assert "internal error" not in err["message"] or (escaped and not KNOWN), (query, out)
    for reason in [out.get("reason")]:
        if isinstance(reason, dict):
            assert reason["code"] in REASON_CODES, (query, out)
    return out


def check_valid(base: dict[str, Any], payment: dict[str, Any], slow: list[Any], **extra: Any) -> None:
    """A payment the engine answered must pass its own checker under the same fields."""
    fields = {k: v for k, v in base.items() if k not in ("query", "policy", "limit", "backend")}
    out = timed({**fields, **extra, "query": "validate", "payment": payment}, slow)
    assert out.get("legal") is True, ({**fields, **extra, "payment": payment}, out)


#: Damage or life loss each time the enchanted permanent becomes tapped (CR 603.2).
AURA_HURT = {"Contaminated Ground": 2, "Psychic Venom": 2, "Insolence": 2}


def expected_damage(board: dict[str, Any], payment: dict[str, Any]) -> int:
    """What tapping the payment's permanents costs in life: City of Brass's own trigger (lost
    when Contaminated Ground makes it a Swamp, CR 305.7) and the Auras of :data:`AURA_HURT`,
    for every permanent the payment taps (its own {T}, a Druid's or Drum's cost, convoke)."""
    perms = {p["id"]: p for p in board["battlefield"]}
    hurt: dict[str, int] = {}
    swamped: set[str] = set()
    for p in board["battlefield"]:
        if p["card"] in AURA_HURT and p.get("attached_to") in perms:
            hurt[p["attached_to"]] = hurt.get(p["attached_to"], 0) + AURA_HURT[p["card"]]
            if p["card"] == "Contaminated Ground":
                swamped.add(p["attached_to"])
    taps: list[str] = []
    for act in payment["activations"]:
        if "permanent" in act and "{T}" in act["costs"]:
            taps.append(act["permanent"])
        taps.extend(act.get("tapped", []))
    taps += payment.get("convoked", []) + payment.get("improvised", [])
    total = 0
    for pid in taps:
        total += hurt.get(pid, 0)
        if perms.get(pid, {}).get("card") == "City of Brass" and pid not in swamped:
            total += 1
    return total


def check_payment(base: dict[str, Any], out: dict[str, Any], payment: dict[str, Any]) -> None:
    """Facts about a payment the checker may not see: its tap damage, and that the source of
    an activated ability whose cost taps or sacrifices it is not also spent for mana."""
    assert payment["damage"] == expected_damage(base["state"], payment), (base, payment)
    act = out.get("activating")
    if not isinstance(act, dict) or "permanent" not in act:
        return
    source, costs = act["permanent"], act["costs"]
    if "{T}" in costs or "{Q}" in costs:
        # tapped (or still tapped) for its own cost: no tapping it for mana or another cost (602.2b)
        for used in payment["activations"]:
            assert used.get("permanent") != source or "{T}" not in used["costs"], (base, payment)
            assert source not in used.get("tapped", []), (base, payment)
        assert source not in payment["convoked"] + payment["improvised"], (base, payment)
    if "{T}" in costs or "{Q}" in costs or "sacrifice" in costs:
        # tapping it for mana first is fine when the cost only sacrifices it (Urza tapping Pyrite
        # Spellbomb), but a permanent sacrificed for mana is gone before the cost is paid (601.2g-h)
        for used in payment["activations"]:
            assert not KNOWN or source not in used.get("sacrificed", []), (base, payment)


def no_slow(slow: list[tuple[float, dict[str, Any]]]) -> None:
    assert not slow, f"query over {SLOW} s: {slow[0]}"


@pytest.fixture(autouse=True, scope="module")
def _warm() -> None:
    """Import every backend once, so a query's time is not its first import (0.5 s idle)."""
    board = {"players": [{"name": "you", "hand": ["Simian Spirit Guide"]}],
             "battlefield": [{"id": "f", "card": "Forest"}, {"id": "a", "card": "Ashnod's Altar"},
                             {"id": "b", "card": "Grizzly Bears"}, {"id": "h", "card": "Heritage Druid"},
                             {"id": "c", "card": "Doubling Cube"}]}
    for query in ({"query": "pay", "cost": "{G}"}, {"query": "payments", "cost": "{1}", "limit": 2},
                  {"query": "max_x", "cost": "{X}"}, {"query": "options", "limit": 2},
                  {"query": "could_produce"}, {"query": "can_pay", "cost": "{R}"}):
        answer({**query, "state": board})


@settings(max_examples=int(120 * SCALE), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_pay_validates_and_agrees_with_can_pay(data: Any) -> None:
    """pay's payment passes validate; can_pay says the same as pay."""
    board = data.draw(boards())
    base = {"state": board, **data.draw(cost_context(board))}
    if data.draw(st.integers(0, 3)) == 0:
        base["policy"] = data.draw(st.sampled_from([["min_life"], ["min_sources"], "no_sacrifice,min_waste"]))
    slow: list[Any] = []
    paid = timed({**base, "query": "pay"}, slow)
    can = timed({**base, "query": "can_pay"}, slow)
    if "error" not in paid:
        assert isinstance(paid["payable"], bool), paid
        if paid["payable"]:
            check_valid(base, paid["payment"], slow)
            check_payment(base, paid, paid["payment"])
        if "error" not in can:
            assert can["payable"] == paid["payable"], (base, paid, can)
    elif "error" not in can and can["payable"] is False:
        assert paid["error"]["code"] == "unsupported", (base, paid, can)
    known_escape = paid.get("reason", {}).get("code") in ("not_castable", "insufficient_life")
    if "error" not in paid and not paid["payable"] and (KNOWN or not known_escape):
        # a payment of nothing for what can't be paid: illegal, or an input error, never a crash
        # (not_castable ones escape validate as internal errors today: pinned at the end)
        fields = {k: v for k, v in base.items() if k != "policy"}
        out = timed({**fields, "query": "validate", "payment": {"total": "{0}", "activations": []}}, slow)
        assert out.get("legal") is not True or paid["reason"]["code"] == "timing", (base, paid, out)
    no_slow(slow)


@settings(max_examples=int(60 * SCALE), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_payments_and_max_x_validate(data: Any) -> None:
    """Every enumerated payment and the max_x payment pass validate."""
    board = data.draw(boards())
    base = {"state": board, **data.draw(cost_context(board))}
    slow: list[Any] = []
    listed = timed({**base, "query": "payments", "limit": data.draw(st.integers(1, 4))}, slow)
    for payment in listed.get("payments", []):
        check_valid(base, payment, slow)
        check_payment(base, listed, payment)
    if "cost" in base and "spell" not in base:
        xq = {**base, "cost": "{X}" + base["cost"]}
        most = timed({**xq, "query": "max_x"}, slow)
        if most.get("max_x") is not None:
            check_valid(xq, most["payment"], slow, x=most["max_x"])
            over = timed({**xq, "query": "can_pay", "x": most["max_x"] + 1}, slow)
            if "error" not in over:
                assert over["payable"] is False, (xq, most, over)
    no_slow(slow)


@settings(max_examples=int(60 * SCALE), deadline=None, suppress_health_check=list(HealthCheck))
@given(boards(), st.integers(1, 6), st.booleans())
def test_options_and_could_produce_answer(board: dict[str, Any], limit: int, detail: bool) -> None:
    """options and could_produce answer (or refuse with one of the protocol's errors) in bounded time."""
    slow: list[Any] = []
    out = timed({"query": "options", "state": board, "limit": limit, "detail": detail}, slow)
    if "options" in out:
        assert len(out["options"]) <= limit, out
        assert isinstance(out["complete"], bool)
    timed({"query": "could_produce", "state": board}, slow)
    no_slow(slow)


@settings(max_examples=int(40 * SCALE), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_malformed_spell_objects_are_answers(data: Any) -> None:
    """Random junk in spell / additional / alternative / x is answered, never raised."""
    board = data.draw(boards())
    junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=8),
                     st.lists(st.integers(-1, 3), max_size=2), st.dictionaries(st.text(max_size=6), st.integers(),
                                                                              max_size=2))
    spell = data.draw(st.dictionaries(st.sampled_from(["permanent", "card", "ability", "types", "colors"]),
                                      st.one_of(junk, st.sampled_from(["p0", "p1", "equip", "unearth",
                                                                       "Bonesplitter", "Boon Satyr"])),
                                      max_size=3))
    query: dict[str, Any] = {"query": data.draw(st.sampled_from(["pay", "can_pay", "payments", "max_x", "validate"])),
                             "state": board, "spell": spell}
    for key in ("additional", "alternative", "x", "cost", "payment"):
        if data.draw(st.integers(0, 3)) == 0:
            query[key] = data.draw(st.one_of(junk, st.sampled_from(["kicker", "{X}{R}", "flashback"]),
                                             st.just([{"name": "multikicker", "times": 2}])))
    slow: list[Any] = []
    timed(query, slow)
    no_slow(slow)


# -- what the fuzzing and the review found, pinned (not strict: others are fixing some right now;
# a fix shows as XPASS with -rX and the marker should then go) --------------------------------------

def _refused(out: dict[str, Any]) -> bool:
    """An honest refusal: ``unsupported`` that is not a caught internal error."""
    err = out.get("error")
    return isinstance(err, dict) and err.get("code") == "unsupported" and "internal error" not in err["message"]


def _pay(battlefield: list[dict[str, Any]], hand: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    board = {"players": [{"name": "you", "life": 20, "hand": hand or []}, {"name": "them"}],
             "battlefield": battlefield}
    return answer({"query": "pay", "state": board, **fields})


def test_psychic_venom_and_insolence_hurt_when_their_permanent_taps_for_mana() -> None:
    """Psychic Venom: "Whenever enchanted land becomes tapped, Psychic Venom deals 2 damage to
    that land's controller"; Insolence, the same for a creature (CR 603.2): tapping the
    enchanted Forest / Llanowar Elves for mana costs 2 life, as Contaminated Ground's does."""
    venom = _pay([{"id": "f", "card": "Forest"}, {"id": "v", "card": "Psychic Venom", "attached_to": "f"}],
                 cost="{G}")
    insolence = _pay([{"id": "e", "card": "Llanowar Elves"},
                      {"id": "i", "card": "Insolence", "attached_to": "e"}], cost="{G}")
    assert venom["payment"]["damage"] == 2 and insolence["payment"]["damage"] == 2, (venom, insolence)


def test_insolence_hurts_when_a_cost_or_convoke_taps_the_creature() -> None:
    """A creature tapped for Heritage Druid's or Springleaf Drum's cost, or for convoke, becomes
    tapped too (CR 603.2, 701.26a): Insolence on it deals 2 damage."""
    druid = _pay([{"id": "hd", "card": "Heritage Druid"}, {"id": "e1", "card": "Llanowar Elves", "sick": True},
                  {"id": "e2", "card": "Llanowar Elves", "sick": True},
                  {"id": "i", "card": "Insolence", "attached_to": "e1"}], cost="{G}{G}{G}")
    drum = _pay([{"id": "d", "card": "Springleaf Drum"}, {"id": "b", "card": "Grizzly Bears"},
                 {"id": "i", "card": "Insolence", "attached_to": "b"}], cost="{R}")
    assert all(_refused(out) or out["payment"]["damage"] == 2 for out in (druid, drum)), (druid, drum)


def test_manabarbs_damage_is_paid_or_refused() -> None:
    """Manabarbs: "Whenever a player taps a land for mana, Manabarbs deals 1 damage to that
    player." Tapping a Forest costs 1 life; an answer with damage 0 is wrong without saying so."""
    out = _pay([{"id": "f", "card": "Forest"}, {"id": "m", "card": "Manabarbs"}], cost="{G}")
    assert _refused(out) or out["payment"]["damage"] == 1, out


def test_mind_stone_can_not_be_sacrificed_to_ironworks_to_pay_its_own_ability() -> None:
    """Mind Stone's "{1}, {T}, Sacrifice Mind Stone: Draw a card.": mana abilities come before
    the costs are paid (CR 602.2b, 601.2g-h); Mind Stone sacrificed to Krark-Clan Ironworks for
    {C}{C} can't then be tapped and sacrificed for its own cost.  Ironworks may sacrifice
    itself ("Sacrifice an artifact"), so {1} is payable that way, never with Mind Stone."""
    out = _pay([{"id": "ms", "card": "Mind Stone"}, {"id": "k", "card": "Krark-Clan Ironworks"}],
               spell={"permanent": "ms", "ability": 0})
    assert out["payable"] is True, out
    assert [a.get("sacrificed") for a in out["payment"]["activations"]] == [["k"]], out
    alone = _pay([{"id": "ms", "card": "Mind Stone"}, {"id": "k", "card": "Krark-Clan Ironworks", "tapped": True},
                  {"id": "o", "card": "Ornithopter"}], spell={"permanent": "ms", "ability": 0})
    assert alone["payable"] is True
    assert all("ms" not in (a.get("sacrificed") or []) for a in alone["payment"]["activations"]), alone


def test_a_spirit_guide_being_cast_can_not_exile_itself_to_pay() -> None:
    """Casting Elvish Spirit Guide ({2}{G}) moves it to the stack first (CR 601.2a); it is no
    longer in the hand to exile for {G} (601.2g): two Mountains leave {G} missing."""
    out = _pay([{"id": "m1", "card": "Mountain"}, {"id": "m2", "card": "Mountain"}],
               hand=["Elvish Spirit Guide"], spell={"card": "Elvish Spirit Guide"})
    assert out["payable"] is False, out


def test_blood_moon_removes_a_manlands_activated_ability() -> None:
    """Under Blood Moon a nonbasic land is a Mountain and loses its other abilities (CR 305.7,
    613.1d): Mishra's Factory has no "{1}: becomes a 2/2" to activate."""
    out = _pay([{"id": "mf", "card": "Mishra's Factory"}, {"id": "bm", "card": "Blood Moon"},
                {"id": "m", "card": "Mountain"}], spell={"permanent": "mf", "ability": 0})
    bad_query = out.get("error", {}).get("code") == "bad_query"
    assert _refused(out) or bad_query or out.get("payable") is False, out


def test_min_life_uses_the_altar_rather_than_city_of_brass() -> None:
    """Policy min_life, cost {4}: Heritage Druid's {G}{G}{G} (tapping itself and two Elves) plus
    Ashnod's Altar sacrificing Grizzly Bears for {C}{C} costs no life; tapping City of Brass costs
    1. The answer must be optimal for the policy or say it is not."""
    out = _pay([{"id": "alt", "card": "Ashnod's Altar"}, {"id": "b", "card": "Grizzly Bears"},
                {"id": "hd", "card": "Heritage Druid"}, {"id": "e1", "card": "Llanowar Elves"},
                {"id": "e2", "card": "Llanowar Elves"}, {"id": "cob", "card": "City of Brass"}],
               cost="{4}", policy=["min_life"])
    assert _refused(out) or out["payment"]["damage"] == 0, out


def test_level_up_and_basic_landcycling_are_activated_abilities() -> None:
    """Level up {W} (CR 702.87a, only as a sorcery) and Basic landcycling {1} (702.29e) are
    activated abilities with mana costs, listed for spell.ability like equip and cycling."""
    from manasolver.models.text.activated import activated_abilities
    from manasolver.models.carddb import default_db
    db = default_db(None)
    student = [a.keyword for a in activated_abilities(db.get("Student of Warfare", "card"))]
    barrens = [a.keyword for a in activated_abilities(db.get("Ash Barrens", "card"))]
    assert "level up" in student and any(k.endswith("cycling") for k in barrens), (student, barrens)


def test_validate_of_an_ability_that_can_not_be_activated_is_an_answer() -> None:
    """validate of a tapped Gavony Township's "{2}{G}{W}, {T}: ..." (CR 602.5a), or of two
    alternative costs (118.9a): not legal, with the reason as a problem; never an internal
    error."""
    board = {"players": [{"name": "you"}], "battlefield": [{"id": "gt", "card": "Gavony Township", "tapped": True}]}
    empty = {"total": "{0}", "activations": []}
    ability = answer({"query": "validate", "state": board, "spell": {"permanent": "gt", "ability": 0},
                      "payment": empty})
    two = answer({"query": "validate", "state": board, "spell": {"card": "Boon Satyr"},
                  "alternative": ["bestow", "dash"], "payment": empty})
    assert ability.get("legal") is False and two.get("legal") is False, (ability, two)


def test_board_effects_on_activated_abilities_apply_or_are_refused() -> None:
    """Suppression Field: "Activated abilities cost {2} more to activate unless they're mana
    abilities" (CR 601.2f via 602.2b): Bonesplitter's equip {1} costs {3}, one Forest is not
    enough.  Stony Silence: "Activated abilities of artifacts can't be activated" (CR 602.5):
    equip can't be activated at all."""
    gear = [{"id": "bs", "card": "Bonesplitter"}, {"id": "f", "card": "Forest"}]
    field = _pay([*gear, {"id": "sf", "card": "Suppression Field"}], spell={"permanent": "bs", "ability": "equip"})
    silence = _pay([*gear, {"id": "ss", "card": "Stony Silence"}], spell={"permanent": "bs", "ability": "equip"})
    assert (_refused(field) or field.get("payable") is False) and \
        (_refused(silence) or silence.get("payable") is False), (field, silence)


def test_null_rod_and_cursed_totem_are_applied() -> None:
    """CR 602.5, 605.3: Null Rod and Stony Silence stop Sol Ring's mana ability, Cursed Totem Llanowar
    Elves': payments use the other sources ({2} from the rest), {3} is unpayable, options leave the
    stopped source out, and validate refuses a payment that taps it.  Pithing Needle spares mana
    abilities; Linvala stops only her opponents' creatures."""
    base = [{"id": "s", "card": "Sol Ring"}, {"id": "e", "card": "Llanowar Elves"}, {"id": "f", "card": "Forest"}]
    for card, stopped in (("Null Rod", "s"), ("Cursed Totem", "e"), ("Stony Silence", "s")):
        state = {"players": [{"name": "you"}, {"name": "them"}], "battlefield": [*base, {"id": "n", "card": card}]}
        out = answer({"query": "pay", "state": state, "cost": "{2}"})
        assert out["payable"] is True, (card, out)
        assert stopped not in {a["permanent"] for a in out["payment"]["activations"]}, (card, out)
        assert answer({"query": "validate", "state": state, "cost": "{2}", "payment": out["payment"]})["legal"]
        assert answer({"query": "can_pay", "state": state, "cost": "{3}" if stopped == "s" else "{4}"}) \
            ["payable"] is False, card
        tapping = {"total": "{2}", "activations": [{"permanent": "s", "ability": 0, "mana": "{C}{C}"}]} \
            if stopped == "s" else {"total": "{G}", "activations": [{"permanent": "e", "ability": 0, "mana": "{G}"}]}
        check = answer({"query": "validate", "state": state, "cost": tapping["total"], "payment": tapping})
        assert check.get("legal") is False, (card, check)
        options = answer({"query": "options", "state": state})
        assert "error" not in options, (card, options)
    for extra in ({"id": "n", "card": "Pithing Needle"},
                  {"id": "n", "card": "Linvala, Keeper of Silence"}):
        out = answer({"query": "can_pay", "state": {"players": [{"name": "you"}, {"name": "them"}],
                                                    "battlefield": [*base, extra]}, "cost": "{2}"})
        assert out == {"payable": True}, (extra, out)
