"""The ``plan`` query: several costs cast one after another this step, paid jointly.

Each plan answer is checked from outside the solver: every payment is accepted by the protocol's
``validate`` query on the board the payments before it left (built here as board JSON: permanents
tapped or sacrificed, life, and the pool holding what floated, CR 106.4), and on small random boards
the answer is compared with a brute force over the protocol's ``payments`` query: pay the first
cost by every payment it lists, then the next cost on the board that payment left, and so on.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manasolver.solver.service import api
from manasolver.solver.service.protocol import answer

LETTERS = "WUBRGC"


def board(*cards: str, pool: str = "", life: int = 20, hand: tuple[str, ...] = ()) -> dict[str, Any]:
    player: dict[str, Any] = {"name": "you", "life": life}
    if pool:
        player["pool"] = pool
    if hand:
        player["hand"] = list(hand)
    return {"players": [player, {"name": "them"}],
            "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}


def plan(state: dict[str, Any], *costs: str | dict[str, Any], **extra: Any) -> dict[str, Any]:
    objs = [c if isinstance(c, dict) else {"cost": c} for c in costs]
    return answer({"query": "plan", "state": state, "costs": objs, **extra})


def _units(text: str) -> list[str]:
    return re.findall(r"\{([WUBRGC])\}", text)


def left_by(state: dict[str, Any], payment: dict[str, Any]) -> dict[str, Any]:
    """The board JSON after ``payment`` (written from the protocol's PAYMENT, apart from the solver)."""
    out = copy.deepcopy(state)
    tapped = set(payment["convoked"]) | set(payment["improvised"])
    gone: set[str] = set()
    for act in payment["activations"]:
        if "{T}" in act["costs"]:
            tapped.add(act["permanent"])
        if "sacrifice" in act["costs"]:
            gone.add(act["permanent"])
        gone.update(act.get("sacrificed", []))
        tapped.update(act.get("tapped", []))
    out["battlefield"] = [dict(p, tapped=True) if p["id"] in tapped else p
                          for p in out["battlefield"] if p["id"] not in gone]
    me = out["players"][0]
    pool = _units(me.get("pool", ""))
    for u in _units(payment["pool_used"]):
        pool.remove(u)
    pool += _units(payment["floating"])
    me["pool"] = "".join("{" + u + "}" for u in sorted(pool, key=LETTERS.index))
    me["life"] = me.get("life", 20) - payment["life"] - payment["damage"]
    return out


def check_in_turn(state: dict[str, Any], costs: list[dict[str, Any]], payments: list[dict[str, Any]]) -> None:
    """Every payment is legal (``validate``) on the board the ones before it left."""
    assert len(payments) == len(costs)
    for i, (cost, pay) in enumerate(zip(costs, payments)):
        got = answer({"query": "validate", "state": state, "payment": pay, **cost})
        assert got == {"legal": True, "problems": []}, (i, got, json.dumps(pay))
        state = left_by(state, pay)


#: The policy the brute force scores plans by (over the whole plan).
POLICY = ["no_sacrifice", "min_life", "min_waste", "prefer_lands", "min_sources"]


def value(state: dict[str, Any], payments: list[dict[str, Any]]) -> tuple[int, ...]:
    """A plan under :data:`POLICY`: permanents sacrificed, life paid and damage taken,
    activations of non-lands and all activations, summed over the plan; mana left in the pool
    at its end (the board's pool being empty: what the plan made and never spent)."""
    lands = {p["id"]: p["card"] in LANDS for p in state["battlefield"]}
    acts = [a for p in payments for a in p["activations"]]
    end = state
    for pay in payments:
        end = left_by(end, pay)
    return (sum("sacrifice" in a["costs"] for a in acts), sum(p["life"] + p["damage"] for p in payments),
            len(_units(end["players"][0].get("pool", ""))), sum(not lands[a["permanent"]] for a in acts),
            len(acts))


Value = tuple[int, int, int, int, int]


def brute(state_json: dict[str, Any], costs: list[dict[str, Any]],
          sources: dict[str, list[str]] | None = None) -> tuple[int, tuple[int, ...] | None]:
    """How many costs in a row some plan pays, and the best :func:`value` of a plan paying them all: a search
    written from the rules, sharing nothing with the solver but the moves each
    permanent offers (``brute_moves``).  Each cost in turn: activate any of the permanents not yet
    used (those with a mana cost paid from the pool at that moment, in every order: 601.2g), then
    pay the cost's total (every announcement, 601.2b) from the pool, the rest floating to the next
    cost (106.4), mana with a spending restriction only on a spell it allows (106.6; a unit carries
    its restriction as the bit 64, one restriction on the board at most); life paid only from what is left (119.4:
    ability life and damage come before
    Phyrexian life), and a player at 0 life or less casts nothing more (704.5a).

    ``sources``: the excluded permanents are never activated, a plan counts only when it
    activates every required one (else its value is None at full depth), and the value holds
    the preserved permanents used right after the sacrifices (``preserve``'s default place)."""
    from brute import _allows, _announcements
    from brute_moves import moves

    from manasolver.models.board.load import load_state
    from manasolver.models.cost import ManaCost
    from manasolver.solver.request import PaymentRequest, SpellInfo

    state = load_state(state_json)
    me = state.player("you")
    slots = moves(state, "you")
    totals = [list(_announcements(PaymentRequest(state, ManaCost.parse(c["cost"]), "you"), 0)) for c in costs]
    rules = {m.restriction for ms in slots for m in ms if m.restriction is not None}
    assert len(rules) <= 1
    spells = [SpellInfo(types=frozenset(t.lower() for t in c.get("spell", {}).get("types", []))) if "spell" in c
              else None for c in costs]
    allowed = [not rules or _allows(next(iter(rules)), sp, False, None) for sp in spells]
    pool0 = tuple(sorted(b for s in me.pool.symbols for b in [s.colors or 32]))
    memo: dict[tuple[object, ...], tuple[int, tuple[int, ...] | None]] = {}
    chosen = sources or {}
    ids = [ms[0].perm.id for ms in slots]
    required = frozenset(k for k, pid in enumerate(ids) if pid in chosen.get("require", ()))
    preserved = frozenset(k for k, pid in enumerate(ids) if pid in chosen.get("preserve", ()))

    def search(i: int, left: frozenset[int], pool: tuple[int, ...], life: int
               ) -> tuple[int, tuple[int, ...] | None]:
        if i == len(costs):
            if left & required:
                return 0, None
            return 0, (0, 0, 0, len(pool), 0, 0) if sources is not None else (0, 0, len(pool), 0, 0)
        key = (i, left, pool, life)
        if key in memo:
            return memo[key]
        best_depth, best = 0, None
        for chosen_ in _choices(sorted(left)):
            picked = [slots[k][j] for k, j in chosen_]
            ab_life = sum(m.ability.cost.life for m in picked)
            damage = sum(m.ability.damage for m in picked)
            if ab_life > life:
                continue
            for after in _activate(picked, pool):
                spendable = after if allowed[i] else tuple(b for b in after if not b & 64)
                kept = tuple(b for b in after if b & 64) if not allowed[i] else ()
                for total in totals[i]:
                    if total.life and life - ab_life - damage < total.life:
                        continue
                    loss = ab_life + damage + total.life
                    for rest0 in _spend(list(total.typed), total.generic, spendable):
                        rest = tuple(sorted(rest0 + kept))
                        here: tuple[int, ...] = (sum(bool(m.ability.cost.sacrifice_self) for m in picked), loss, 0,
                                                 sum(not m.perm.is_land for m in picked), len(picked))
                        if sources is not None:
                            here = here[:1] + (sum(k in preserved for k, _ in chosen_),) + here[1:]
                        if i + 1 < len(costs) and life - loss <= 0:
                            depth, tail = 1, None  # CR 704.5a: lost before the next cost
                        else:
                            d, t = search(i + 1, left - {k for k, _ in chosen_}, rest, life - loss)
                            depth, tail = d + 1, (None if t is None else tuple(
                                a + b for a, b in zip(t, here)))
                        if depth > best_depth:
                            best_depth, best = depth, None
                        if depth == best_depth and depth == len(costs) - i and tail is not None:
                            best = tail if best is None or tail < best else best
        memo[key] = (best_depth, best)
        return best_depth, best

    def _choices(free: list[int]) -> list[list[tuple[int, int]]]:
        out: list[list[tuple[int, int]]] = [[]]
        for k in free:
            out = out + [c + [(k, j)] for c in out for j in range(len(slots[k]))]
        return out

    excluded = {k for k, pid in enumerate(ids) if pid in chosen.get("exclude", ())}
    return search(0, frozenset(range(len(slots))) - excluded, pool0, me.life)


def _symbols(cost: Any) -> tuple[list[int], int]:
    typed, generic = [], 0
    for s in cost.symbols:
        if s.special:
            continue
        if s.is_numeral:
            generic += s.generic
        else:
            typed.append(s.colors | (32 if s.colorless else 0))
    return typed, generic


def _made(m: Any) -> tuple[int, ...]:
    """The units a move adds, restricted ones marked with the bit 64."""
    return tuple(b | (64 if m.restriction is not None else 0) for b in m.mana)


def _spend(typed: list[int], generic: int, pool: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every pool left after paying ``typed`` (one unit of a type in each mask) and ``generic``."""
    if typed:
        out: set[tuple[int, ...]] = set()
        for j, b in enumerate(pool):
            if b & typed[0] and (j == 0 or pool[j - 1] != b):
                out |= _spend(typed[1:], generic, pool[:j] + pool[j + 1:])
        return out
    if generic > len(pool):
        return set()
    import itertools
    return {tuple(pool[j] for j in range(len(pool)) if j not in c)
            for c in itertools.combinations(range(len(pool)), generic)}


def _activate(picked: list[Any], pool: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every pool after activating ``picked`` in some order, each paying its mana cost first."""
    import itertools
    costly = [m for m in picked if m.costs_mana]
    free = tuple(b for m in picked if not m.costs_mana for b in _made(m))
    out: set[tuple[int, ...]] = set()
    for order in itertools.permutations(costly):
        pools = {tuple(sorted(pool + free))}
        for m in order:
            typed, generic = _symbols(m.ability.cost.mana)
            pools = {  # restricted mana (for spells) pays no ability's cost
                     tuple(sorted(rest + tuple(b for b in p if b & 64) + _made(m)))
                     for p in pools for rest in _spend(typed, generic, tuple(b for b in p if not b & 64))}
        out |= pools
    return out


# -- the joint search ---------------------------------------------------------------------------

def test_plan_pays_the_first_cost_so_that_the_second_stays_payable() -> None:
    """Plains, Island, Tundra: {W} then {U}{U}.  Paying {W} with the Tundra first (a greedy
    autotapper's choice: the first source that can) leaves {U}{U} one Island short."""
    state = board("Tundra", "Island", "Plains")
    got = plan(state, "{W}", "{U}{U}")
    assert got["payable"] is True, got
    first, second = got["payments"]
    assert [a["permanent"] for a in first["activations"]] == ["p2"]
    assert sorted(a["permanent"] for a in second["activations"]) == ["p0", "p1"]
    check_in_turn(state, [{"cost": "{W}"}, {"cost": "{U}{U}"}], got["payments"])


def test_plan_unpayable_names_the_first_cost_no_plan_reaches() -> None:
    state = board("Plains", "Island", "Tundra")
    got = plan(state, "{W}", "{U}{U}", "{U}", "{G}")
    assert got == {"payable": False, "index": 2,
                   "reason": {"code": "insufficient_mana", "message": "{U} more mana is needed", "missing": "{U}"}}
    # the first cost alone unpayable: index 0
    got = plan(state, "{B}", "{W}")
    assert got["payable"] is False and got["index"] == 0 and got["reason"]["missing"] == "{B}", got


def test_rule_106_4_sol_ring_second_colorless_floats_to_the_next_cost() -> None:
    """CR 106.4: the pool empties between steps, not between spells: Sol Ring's {C}{C} pays {1}
    and {1} (one activation), the second cost from the pool."""
    state = board("Sol Ring")
    got = plan(state, "{1}", "{1}")
    assert got["payable"] is True, got
    first, second = got["payments"]
    assert first["floating"] == "{C}" and first["activations"][0]["mana"] == "{C}{C}"
    assert second["activations"] == [] and second["pool_used"] == "{C}" and second["floating"] == ""
    check_in_turn(state, [{"cost": "{1}"}, {"cost": "{1}"}], got["payments"])
    assert plan(state, "{1}", "{1}", "{1}")["index"] == 2


def test_mystic_gate_second_mana_pays_the_next_cost() -> None:
    """A filter land paid by an Island makes {W}{U}: {W} for the first cost, {U} floating to the
    second (the Island alone could not pay both)."""
    state = board("Mystic Gate", "Island")
    costs = [{"cost": "{W}"}, {"cost": "{U}"}]
    got = plan(state, *costs)
    assert got["payable"] is True, got
    first, second = got["payments"]
    assert first["floating"] == "{U}" and second["pool_used"] == "{U}"
    check_in_turn(state, costs, got["payments"])


def test_pool_mana_given_on_the_board_is_shared_by_the_plan() -> None:
    state = board("Island", pool="{R}")
    got = plan(state, "{R}", "{U}")
    assert got["payable"] is True, got
    assert got["payments"][0]["pool_used"] == "{R}"
    assert plan(state, "{U}", "{R}", "{R}")["index"] == 2


def test_phyrexian_life_is_summed_over_the_plan() -> None:
    """CR 119.4: 2 life per {B/P}; at 3 life one can be paid with life, not two."""
    state = board("Forest", life=3)
    got = plan(state, "{B/P}", "{G}")
    assert got["payable"] is True and got["payments"][0]["life"] == 2, got
    check_in_turn(state, [{"cost": "{B/P}"}, {"cost": "{G}"}], got["payments"])
    got = plan(state, "{B/P}", "{B/P}")
    assert got["payable"] is False and got["index"] == 1, got


def test_pain_land_damage_is_counted_over_the_whole_plan_under_min_life() -> None:
    """Adarkar Wastes' {W} deals 1 damage; the plan pays {W} with the Plains and {1} with the
    Wastes' painless {C}, whatever order the costs come in."""
    state = board("Adarkar Wastes", "Plains")
    for costs in (["{1}", "{W}"], ["{W}", "{1}"]):
        got = plan(state, *costs)
        assert got["payable"] is True, got
        assert sum(p["damage"] for p in got["payments"]) == 0, got


def test_rule_704_5a_a_player_at_0_life_casts_nothing_more_but_the_last_cost_may_take_it() -> None:
    """At 1 life with Adarkar Wastes (1 damage for {W}) and a Plains: {W} then {W} is payable
    only as Plains first, Wastes last (the player is at 0 life only after the last cost); three
    {W} are not (after the second the player has lost, CR 704.5a)."""
    state = board("Adarkar Wastes", "Plains", life=1)
    got = plan(state, "{W}", "{W}")
    assert got["payable"] is True, got
    assert [[a["permanent"] for a in p["activations"]] for p in got["payments"]] == [["p1"], ["p0"]], got
    assert got["payments"][1]["damage"] == 1
    got = plan(board("Adarkar Wastes", "Adarkar Wastes", "Plains", life=1), "{W}", "{W}", "{W}")
    assert got["payable"] is False and got["index"] == 2, got
    # Phyrexian life is paid only from what is left (CR 119.4): 3 life pays one {W/P}, not two
    got = plan(board("Adarkar Wastes", life=3), "{W/P}", "{W/P}")
    assert got["payable"] is True and sorted(p["life"] + p["damage"] for p in got["payments"]) == [1, 2], got


def test_lightning_bolt_and_counterspell_by_card_name() -> None:
    state = board("Steam Vents", "Island", "Mountain", hand=("Lightning Bolt", "Counterspell"))
    got = plan(state, {"spell": {"card": "Lightning Bolt"}}, {"spell": {"card": "Counterspell"}})
    assert got["payable"] is True, got
    assert [a["permanent"] for a in got["payments"][0]["activations"]] == ["p2"]
    # a spell that can't be cast at all is that cost's reason, at its index
    got = plan(state, {"spell": {"card": "Lightning Bolt"}}, {"spell": {"card": "Forest"}})
    assert got["payable"] is False and got["index"] == 1 and got["reason"]["code"] == "not_castable", got


def test_rule_602_2_abilities_in_a_plan_pay_their_own_costs_in_turn() -> None:
    """Equip {1} then {U}: the equip cost is paid like a spell's.  Prodigal Pyromancer's {T}
    ability twice: its source is tapped by the first (CR 602.2, 107.5), so the second is not
    castable at index 1."""
    state = {"players": [{"name": "you"}], "battlefield": [
        {"id": "f", "card": "Forest"}, {"id": "i", "card": "Island"}, {"id": "b", "card": "Bonesplitter"},
        {"id": "h", "card": "Prodigal Pyromancer"}]}
    got = answer({"query": "plan", "state": state, "costs": [{"spell": {"permanent": "b", "ability": 0}},
                                                              {"cost": "{U}"}]})
    assert got["payable"] is True, got
    assert [a["permanent"] for a in got["payments"][0]["activations"]] == ["f"], got
    ping = {"spell": {"permanent": "h", "ability": 0}}
    got = answer({"query": "plan", "state": state, "costs": [{"cost": "{G}"}, ping]})
    assert got["payable"] is True and got["payments"][1]["total"] == "{0}", got
    got = answer({"query": "plan", "state": state, "costs": [ping, ping]})
    assert got["payable"] is False and got["index"] == 1 and got["reason"]["code"] == "not_castable", got


def test_each_cost_keeps_its_own_x_and_modifiers() -> None:
    """601.2f per cost: a reduction of {1} applies to its own cost only (here it reduces {2} to
    {1}); X is fixed per cost."""
    state = board("Forest", "Forest")
    got = plan(state, {"cost": "{2}", "modifiers": [{"reduce": "{1}"}]}, {"cost": "{X}", "x": 1})
    assert got["payable"] is True, got
    assert [p["total"] for p in got["payments"]] == ["{1}", "{1}"] and got["payments"][1]["x"] == 1
    check_in_turn(state, [{"cost": "{2}", "modifiers": [{"reduce": "{1}"}]}, {"cost": "{X}", "x": 1}],
                  got["payments"])
    # the reduction does not reach the other cost: {G} can't take it
    got = plan(state, {"cost": "{G}", "modifiers": [{"reduce": "{1}"}]}, {"cost": "{2}"})
    assert got["payable"] is False and got["index"] == 1, got


def test_twenty_phyrexian_costs_merge_their_announcements() -> None:
    """Twenty {B/P} (CR 107.4f): 2**20 ways to announce, 21 distinct totals; 12 Swamps pay
    twelve, 2 life each pays the other eight (min_life: mana first)."""
    state = board(*["Swamp"] * 12, life=40)
    got = plan(state, *["{B/P}"] * 20)
    assert got["payable"] is True, got
    assert sorted(p["life"] for p in got["payments"]) == [0] * 12 + [2] * 8
    got = plan(board(*["Swamp"] * 12, life=15), *["{B/P}"] * 20)
    assert got["payable"] is False and got["index"] == 19, got


def test_keep_castable_reads_what_the_whole_plan_leaves() -> None:
    """Two Forests and an Island; plan {1}, {G}; the card left in hand costs {U}: the plan keeps
    the Island untapped."""
    state = board("Island", "Forest", "Forest", hand=("Counterspell", "Opt"))
    got = plan(state, "{1}", "{G}")
    assert got["payable"] is True, got
    used = {a["permanent"] for p in got["payments"] for a in p["activations"]}
    assert used == {"p1", "p2"}, got


# -- sessions, batch, the Python API --------------------------------------------------------------

def test_plan_on_a_kept_board_with_changes() -> None:
    handle = answer({"query": "open", "state": board("Plains", "Island", "Tundra")})["board"]
    try:
        got = answer({"query": "plan", "board": handle, "costs": [{"cost": "{W}"}, {"cost": "{U}{U}"}]})
        assert got["payable"] is True, got
        got = answer({"query": "plan", "board": handle, "changes": [{"tap": "p1"}],
                      "costs": [{"cost": "{W}"}, {"cost": "{U}{U}"}]})
        assert got["payable"] is False and got["index"] == 1, got
    finally:
        answer({"query": "close", "board": handle})


def test_plan_in_batch_and_the_python_api() -> None:
    import subprocess
    import sys
    line = json.dumps({"query": "plan", "id": 7, "state": board("Sol Ring"),
                       "costs": [{"cost": "{1}"}, {"cost": "{1}"}]})
    done = subprocess.run([sys.executable, "-m", "manasolver.solver.service.cli", "batch"], input=line + "\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["id"] == 7 and out["payable"] is True and out["payments"][1]["pool_used"] == "{C}", out
    got = api.plan(board("Plains", "Island", "Tundra"), [{"cost": "{W}"}, {"cost": "{U}{U}"}])
    assert got["payable"] is True
    with pytest.raises(ValueError):
        api.plan(board("Plains"), [])


# -- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("costs", "code", "where"), [
    (None, "bad_query", "costs"),
    ("{W}", "bad_query", "costs"),
    ([], "bad_query", "costs"),
    ([{"cost": "{W}"}] * 21, "bad_query", "costs[20]"),
    ([{"cost": "{W}"}, "{U}"], "bad_query", "costs[1]"),
    ([{"cost": "{W}"}, {"cost": "{W}"}, {"cost": "{W}"}, {"cost": "{Q/W}"}], "bad_cost", "costs[3].cost[0]"),
    ([{"cost": "{W}"}, {"cost": "{W}", "colour": "W"}], "unknown_field", "costs[1].colour"),
    ([{"cost": "{W}", "policy": "min_life"}], "unknown_field", "costs[0].policy"),
    ([{"cost": "{W}"}, {"cost": "{X}", "x": -1}], "bad_query", "costs[1].x"),
    ([{"spell": {"card": "Lightning Bolts"}}], "unknown_card", "costs[0].spell.card"),
])
def test_bad_costs_are_errors_naming_the_cost(costs: Any, code: str, where: str) -> None:
    query: dict[str, Any] = {"query": "plan", "state": board("Plains")}
    if costs is not None:
        query["costs"] = costs
    got = answer(query)
    assert "error" in got, got
    assert got["error"]["code"] == code and got["error"]["where"] == where, got


def test_plan_refuses_what_it_does_not_model_naming_the_cost() -> None:
    """Convoke in a plan (CR 702.51): unsupported naming the cost, never a guess."""
    state = board("Forest", "Llanowar Elves")
    got = plan(state, {"cost": "{G}"}, {"cost": "{1}", "convoke": True})
    assert got.get("error", {}).get("code") == "unsupported", got
    assert got["error"]["where"] == "costs[1]", got


def test_simian_spirit_guide_in_hand_pays_a_cost_of_the_plan_and_leaves_the_hand() -> None:
    """A card exiled from the hand for mana (CR 602.2a) pays one cost; a plan whose best payment
    taps another permanent for a mana ability's cost (Springleaf Drum) is refused, not split."""
    state = board("Mountain", "Island", hand=("Simian Spirit Guide",))
    got = plan(state, "{R}", "{R}")
    assert got["payable"] is True, got
    assert [a.get("card") for p in got["payments"] for a in p["activations"]] == [None, "Simian Spirit Guide"]
    assert plan(state, "{R}", "{R}", "{R}")["index"] == 2
    got = plan(board("Springleaf Drum", "Grizzly Bears", "Forest"), "{G}", "{U}")
    assert got["error"]["code"] == "unsupported" and "Springleaf Drum" in got["error"]["message"], got


def _hand_after(state: dict[str, Any], cost: dict[str, Any], payment: dict[str, Any]) -> dict[str, Any]:
    """:func:`left_by` with the hand as a player carrying the payment out leaves it: the cards it
    exiled for mana (by their places, CR 602.2a) and the card cast (601.2a) gone."""
    out = left_by(state, payment)
    me = out["players"][0]
    hand = [c for i, c in enumerate(me.get("hand", []))
            if i not in {a["hand"] for a in payment["activations"] if "hand" in a}]
    cast = cost.get("spell", {}).get("card")
    if cast in hand:
        hand.remove(cast)
    me["hand"] = hand
    return out


@pytest.mark.parametrize("hand, costs, places", [
    (("Simian Spirit Guide", "Simian Spirit Guide"), [{"cost": "{R}{R}"}, {"cost": "{R}"}], [[0], [0]]),
    (("Simian Spirit Guide", "Simian Spirit Guide"), [{"cost": "{R}"}, {"cost": "{R}{R}"}], [[], [0, 1]]),
    (("Lightning Bolt", "Simian Spirit Guide"), [{"spell": {"card": "Lightning Bolt"}}, {"cost": "{R}"}], [[], [0]]),
])
@pytest.mark.parametrize("sources", [None, {"require": ["p0"]}])
def test_rule_602_2a_hand_cards_of_a_plan_named_where_the_earlier_payments_leave_them(
        hand: tuple[str, ...], costs: list[dict[str, Any]], places: list[list[int]],
        sources: dict[str, list[str]] | None) -> None:
    """A Simian Spirit Guide exiled from the hand for mana (CR 602.2a) by one payment of a plan, or the
    card an earlier cost casts (601.2a), moves the cards after it one place up: each payment names a
    card of the hand by its place in the hand the payments before it left, and is legal there."""
    state = board("Mountain", hand=hand)
    got = plan(state, *costs, **({"sources": sources} if sources else {}))
    assert got.get("payable") is True, got
    assert [[a["hand"] for a in p["activations"] if "hand" in a] for p in got["payments"]] == places, got
    for cost, pay in zip(costs, got["payments"]):
        verdict = answer({"query": "validate", "state": state, "payment": pay, **cost})
        assert verdict == {"legal": True, "problems": []}, (verdict, pay)
        state = _hand_after(state, cost, pay)


def test_rule_602_2a_a_plan_applied_on_a_kept_board_exiles_each_guide_it_names() -> None:
    """``"apply": true`` carries the plan's payments out in order on the kept board: each Guide the plan
    names by its place in the hand then is exiled (CR 602.2a): nothing red is left."""
    handle = answer({"query": "open", "state": board("Mountain", hand=(
        "Simian Spirit Guide", "Simian Spirit Guide", "Island"))})["board"]
    got = answer({"query": "plan", "board": handle, "costs": [{"cost": "{R}{R}"}, {"cost": "{R}"}], "apply": True})
    assert got.get("applied") is True, got
    assert answer({"query": "can_pay", "board": handle, "cost": "{R}"})["payable"] is False


CREATURE = {"types": ["Creature"]}


def test_rule_106_6_ancient_ziggurat_pays_only_the_creature_spell_of_the_plan() -> None:
    """Ancient Ziggurat's mana is spent only on creature spells (CR 106.6): in a plan of a
    noncreature {1} and a creature {G}, the Forest pays the {1} and the Ziggurat the {G},
    whichever comes first."""
    state = board("Ancient Ziggurat", "Forest")
    for costs in ([{"cost": "{1}"}, {"cost": "{G}", "spell": CREATURE}],
                  [{"cost": "{G}", "spell": CREATURE}, {"cost": "{1}"}]):
        got = answer({"query": "plan", "state": state, "costs": costs})
        assert got["payable"] is True, got
        by_cost = {c.get("spell") is None: p for c, p in zip(costs, got["payments"])}
        assert [a["permanent"] for a in by_cost[True]["activations"]] == ["p1"], got
        assert [a["permanent"] for a in by_cost[False]["activations"]] == ["p0"], got
        check_in_turn(state, costs, got["payments"])
    got = plan(state, {"cost": "{1}"}, {"cost": "{1}"})
    assert got["payable"] is False and got["index"] == 1 and got["reason"]["code"] == "restricted_mana", got
    got = plan(state, {"cost": "{1}", "spell": CREATURE}, {"cost": "{1}"}, {"cost": "{1}"})
    assert got["payable"] is False and got["index"] == 2 and got["reason"]["missing"] == "{1}", got
    got = plan(board("Ancient Ziggurat", "Ancient Ziggurat", "Forest"), {"cost": "{1}", "spell": CREATURE},
               {"cost": "{1}"}, {"cost": "{1}"})
    assert got["payable"] is False and got["index"] == 2 and got["reason"]["code"] == "restricted_mana", got


# -- against the brute force ------------------------------------------------------------------------

LANDS = {"Plains", "Island", "Swamp", "Mountain", "Forest", "Tundra", "Underground Sea", "Adarkar Wastes",
         "Mystic Gate", "Wastes", "Ancient Ziggurat", "Fire-Lit Thicket", "Ancient Tomb"}
SOURCES = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Tundra", "Underground Sea", "Adarkar Wastes",
           "Sol Ring", "Mystic Gate", "Llanowar Elves", "Birds of Paradise", "Treasure", "Wastes",
           "Ancient Ziggurat"]
COSTS = ["{W}", "{U}", "{U}{U}", "{1}", "{2}", "{1}{W}", "{G}", "{W/U}", "{C}", "{B}", "{1}{U}", "{R/G}",
         "{U/P}"]


@st.composite
def plans(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    cards = draw(st.lists(st.sampled_from(SOURCES), min_size=2, max_size=5))
    n = draw(st.integers(2, 3))
    costs: list[dict[str, Any]] = [{"cost": c} for c in draw(st.lists(st.sampled_from(COSTS), min_size=n, max_size=n))]
    for c in costs:
        if draw(st.booleans()):
            c["spell"] = CREATURE
    state = board(*cards, life=draw(st.sampled_from([1, 3, 20])))
    for perm in state["battlefield"]:
        if perm["card"] == "Treasure":
            perm["token"] = True
    return state, costs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans())
def test_plan_agrees_with_the_brute_force_over_payments(case: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """Payable exactly when some sequence of listed payments pays every cost in turn, the first
    cost no plan reaches at the depth the brute force reaches, each payment legal on the board the
    earlier ones left, and optimal under :data:`POLICY` over the whole plan."""
    state, costs = case
    got = answer({"query": "plan", "state": state, "costs": costs, "policy": POLICY})
    depth, best = brute(state, costs)
    if "error" in got:  # refused only where the order of losing life decides, and said so
        assert got["error"]["code"] == "unsupported" and "life" in got["error"]["message"], got
        assert state["players"][0]["life"] <= 3, got
        return
    if depth == len(costs):
        assert got["payable"] is True, (got, depth)
        check_in_turn(state, costs, got["payments"])
        assert value(state, got["payments"]) == best, (got, best)
    else:
        assert got["payable"] is False and got["index"] == depth, (got, depth)


#: Sources that make more than one mana, or that cost mana: where mana floats from cost to cost.
FLOATERS = ["Sol Ring", "Mystic Gate", "Fire-Lit Thicket", "Gilded Lotus", "Ancient Tomb", "Worn Powerstone",
            "Plains", "Island", "Forest", "Mountain", "Lotus Petal"]
FLOAT_COSTS = ["{1}", "{2}", "{W}", "{U}", "{R}", "{G}", "{C}", "{1}{W}", "{W/U}", "{R/G}", "{3}", "{G}{G}"]


@st.composite
def floating_plans(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    cards = draw(st.lists(st.sampled_from(FLOATERS), min_size=2, max_size=4))
    n = draw(st.integers(2, 3))
    costs = [{"cost": c} for c in draw(st.lists(st.sampled_from(FLOAT_COSTS), min_size=n, max_size=n))]
    state = board(*cards, life=draw(st.sampled_from([2, 20])))
    return state, costs


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(floating_plans())
def test_rule_106_4_floating_mana_plans_agree_with_the_brute_force(
        case: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """CR 106.4 (the pool empties between steps, not between spells): boards of Sol Ring, filter
    lands, Gilded Lotus, Ancient Tomb (2 damage), whose extra mana pays the next cost."""
    test_plan_agrees_with_the_brute_force_over_payments.hypothesis.inner_test(case)  # type: ignore[attr-defined]


# -- sources across the plan ------------------------------------------------------------------

def sourced_value(state: dict[str, Any], payments: list[dict[str, Any]], preserve: list[str]) -> tuple[int, ...]:
    """:func:`value` with the preserved permanents used right after the sacrifices."""
    plain = value(state, payments)
    used = {a["permanent"] for p in payments for a in p["activations"]}
    return plain[:1] + (len(used & set(preserve)),) + plain[1:]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans(), st.data())
def test_plan_sources_require_exclude_preserve_agree_with_the_brute_force(
        case: tuple[dict[str, Any], list[dict[str, Any]]], data: st.DataObject) -> None:
    """``sources`` across a plan: no cost uses an excluded permanent, some cost activates every
    required one (``conflicting_sources`` when every plan leaves one out), and the plan uses as
    few preserved permanents as any plan with as few sacrifices, optimal under :data:`POLICY`
    with ``preserve`` at its default place; payable exactly when the brute force finds such a plan."""
    state, costs = case
    ids = [p["id"] for p in state["battlefield"]]
    exclude = data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
    require = data.draw(st.lists(st.sampled_from(ids), max_size=1, unique=True).map(
        lambda r: [i for i in r if i not in exclude]))
    preserve = data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True))
    chosen = {"require": require, "exclude": exclude, "preserve": preserve}
    got = answer({"query": "plan", "state": state, "costs": costs, "policy": POLICY, "sources": chosen})
    depth, best = brute(state, costs, chosen)
    if "error" in got:  # refused only where the order of losing life decides, or restricted mana
        # would float from a required permanent (CR 106.6), and said so
        message = got["error"]["message"]
        assert got["error"]["code"] == "unsupported", got
        assert ("life" in message and state["players"][0]["life"] <= 3) or (
            "106.6" in message and any(p["card"] == "Ancient Ziggurat" and p["id"] in require
                                       for p in state["battlefield"])), got
        return
    if depth == len(costs) and best is not None:
        assert got["payable"] is True, (got, chosen)
        pays = got["payments"]
        check_in_turn(state, costs, pays)
        used = {a["permanent"] for p in pays for a in p["activations"]}
        assert not used & set(exclude) and set(require) <= used, (pays, chosen)
        assert sourced_value(state, pays, preserve) == best, (got, best, chosen)
        assert any("uses_preserved" in p["warnings"] for p in pays) == bool(used & set(preserve))
    elif depth == len(costs):
        assert got["payable"] is False and got["reason"]["code"] == "conflicting_sources", (got, chosen)
    else:
        assert got["payable"] is False, (got, depth, chosen)
        assert got["index"] == depth or got["reason"]["code"] == "conflicting_sources", (got, depth, chosen)


@pytest.mark.parametrize(("costs", "require", "best"), [
    (["{U}", "{G}"], "p0", ["p0", "p1", "p2"]),  # the Plains' {W} pays the Gate, not left floating
    (["{U}", "{1}"], "p2", ["p2", "p3"]),  # the Elves' {G} pays the {1}, not left floating
])
def test_rule_106_4_required_mana_left_floating_is_waste_mystic_gate_llanowar_elves(
        costs: list[str], require: str, best: list[str]) -> None:
    """A required permanent's mana is made before the first cost (it floats, CR 106.4); left
    unspent at the plan's end it is wasted, so the plan spends it where it can: with Plains,
    Mystic Gate, Llanowar Elves, Birds of Paradise at 1 life, a required Plains pays Mystic Gate's
    {W/U} (one non-land activated, not two), a required Elves' {G} pays the {1} (nothing wasted),
    as the brute force finds, with ``preserve`` on the required one or not."""
    state = board("Plains", "Mystic Gate", "Llanowar Elves", "Birds of Paradise", life=1)
    objs = [{"cost": c} for c in costs]
    for preserve in ([], [require]):
        chosen = {"require": [require], "exclude": [], "preserve": preserve}
        got = answer({"query": "plan", "state": state, "costs": objs, "policy": POLICY, "sources": chosen})
        assert got["payable"] is True, got
        check_in_turn(state, objs, got["payments"])
        assert sorted(a["permanent"] for p in got["payments"] for a in p["activations"]) == best, got
        assert sourced_value(state, got["payments"], preserve) == brute(state, objs, chosen)[1], got
        assert all([n for n, _v in p["score"]] == ["no_sacrifice", *(["preserve"] if preserve else []), "min_life",
                                                   "min_waste", "prefer_lands", "min_sources"]
                   for p in got["payments"]), got


def test_plan_require_activates_a_signet_paid_by_a_land_before_it() -> None:
    """A required Azorius Signet, its {1} paid by a land activated first (CR 605.3a, 106.4):
    the plan's first payment activates both, the Signet's mana floats to the second cost."""
    state = board("Forest", "Azorius Signet", "Plains", "Island")
    costs = [{"cost": "{W}"}, {"cost": "{U}"}]
    got = plan(state, *costs, sources={"require": ["p1"]})
    assert got["payable"] is True, got
    first = [a["permanent"] for a in got["payments"][0]["activations"]]
    assert first == ["p0", "p1"], got
    check_in_turn(state, costs, got["payments"])


def test_plan_preserve_placed_in_the_policy_decides_against_a_sacrifice() -> None:
    """``preserve`` named before ``no_sacrifice``: the plan sacrifices a Treasure rather than
    tap the preserved Plains; by default (after ``no_sacrifice``) it taps the Plains."""
    state = board("Plains", "Treasure", "Island")
    state["battlefield"][1]["token"] = True
    costs = [{"cost": "{W}"}, {"cost": "{U}"}]
    keep = {"preserve": ["p0"]}
    default = plan(state, *costs, sources=keep)
    assert [a["permanent"] for a in default["payments"][0]["activations"]] == ["p0"], default
    assert "uses_preserved" in default["payments"][0]["warnings"]
    first = plan(state, *costs, sources=keep, policy=["preserve", "no_sacrifice", "min_life"])
    assert [a["permanent"] for a in first["payments"][0]["activations"]] == ["p1"], first
    assert first["payments"][0]["score"][0] == ["preserve", 0]
    check_in_turn(state, costs, first["payments"])


def test_plan_sources_and_apply_through_the_typed_api() -> None:
    """``api.plan`` takes ``sources`` (a required Sol Ring activated in the first payment, its
    second mana floating to the next cost) and ``apply`` on a kept board."""
    state = board("Plains", "Sol Ring", "Island")
    got = api.plan(state, [{"cost": "{W}"}, {"cost": "{1}"}], sources={"require": ["p1"]})
    assert [[a["permanent"] for a in p["activations"]] for p in got["payments"]] == [["p1", "p0"], []]
    handle = api.open(state)["board"]
    try:
        applied = api.plan(handle, [{"cost": "{1}"}], sources={"exclude": ["p0"], "require": ["p1"]}, apply=True)
        assert applied["payable"] is True and applied.get("applied") is True, applied
        assert [a["permanent"] for a in applied["payments"][0]["activations"]] == ["p1"]
        assert api.can_pay(handle, "{W}")["payable"] is True  # the excluded Plains stays untapped
        assert api.can_pay(handle, "{C}")["payable"] is True  # Sol Ring's second {C} floats
        assert api.can_pay(handle, "{C}{C}")["payable"] is False  # Sol Ring is tapped
    finally:
        api.close(handle)


def test_plan_ancient_ziggurat_pays_the_creature_spells_phyrexian_symbol_cr_106_6() -> None:
    """{U/P} for a spell and {U/P} for a creature spell, with a Plains and Ancient Ziggurat ("Spend
    this mana only to cast a creature spell"): the best plan pays the first with 2 life and the
    creature spell's with the Ziggurat's {U}, not 4 life; the two ways to split the same total
    are kept apart because restricted mana treats the costs differently (CR 106.6)."""
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you", "life": 20}, {"name": "them"}],
             "battlefield": [{"id": "p0", "card": "Plains"}, {"id": "p1", "card": "Ancient Ziggurat"}]}
    costs = [{"cost": "{U/P}"}, {"cost": "{U/P}", "spell": {"types": ["Creature"]}}, {"cost": "{W}"}]
    got = answer({"query": "plan", "state": state, "costs": costs})
    assert got["payable"] is True
    first, creature, white = got["payments"]
    assert first["life"] == 2 and first["activations"] == []
    assert creature["life"] == 0 and [a["permanent"] for a in creature["activations"]] == ["p1"]
    assert [a["permanent"] for a in white["activations"]] == ["p0"]
    excluded = answer({"query": "plan", "state": state, "costs": costs, "sources": {"exclude": ["p0"]}})
    assert excluded["payable"] is False and excluded["index"] == 2
