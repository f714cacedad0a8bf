"""Work bounded by the input's size (no input may hang the process).

Each case is an input that once did work far beyond its size; it is sized so that the suite
stays quick only while the work is bounded, and each asserts on the answer, never on time:

* the announcement (CR 601.2b) of thousands of identical choice symbols (``{2/W}``, ``{W/P}``)
  keeps one count per way for each class of identical symbols, so its forms are as small as
  the classes, and the witness (one choice per symbol) is spelled out only when asked for.
* ``keep_castable`` merges repeats of one cost, each still counted as often as it is
  listed, and refuses more than ``KEEP_LIMIT`` distinct costs with ``bad_query`` naming the
  first one beyond; its default, the hand, is merged the same way (a hand of
  thousands of copies is a few costs with counts).
* A mana ability making n mana (Everflowing Chalice with n charge counters) costs work by the
  unit counts that occur, not an LCM of 1..n.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from manasolver.models.cost import ManaCost
from manasolver.solver.casting.announce import announce
from manasolver.solver.policy import KEEP_LIMIT
from manasolver.solver.service.protocol import answer


def _example(name: str) -> dict[str, Any]:
    board: dict[str, Any] = json.loads(
        resources.files("manasolver.solver.service").joinpath(f"examples/{name}.json").read_text())
    return board


BASICS = _example("basics")


@pytest.mark.parametrize("symbol,other", [("{2/W}", "generic"), ("{W/P}", "life")])
def test_rule_601_2b_announcing_3000_identical_choice_symbols(symbol: str, other: str) -> None:
    """3,000 copies of one choice symbol: 3,001 distinct totals (k announced as mana, the rest
    as {2} or 2 life), and each form's witness has one choice per symbol, mana first."""
    n = 3000
    forms = announce(ManaCost.parse(symbol * n), 0).forms
    assert len(forms) == n + 1
    by_mana = {sum(c for _, c in f.demands): f for f in forms}
    assert sorted(by_mana) == list(range(n + 1))
    f = by_mana[1234]
    choices = f.choices
    assert len(choices) == n
    assert all(c.symbol == symbol for c in choices)
    assert [c.kind for c in choices] == ["mana"] * 1234 + [other] * (n - 1234)
    if other == "generic":
        assert f.generic(0) == 2 * (n - 1234) and f.life == 0
    else:
        assert f.life == 2 * (n - 1234) and f.generic(0) == 0


def test_rule_601_2b_pay_1000_twobrid_symbols_on_basics() -> None:
    """{2/W} a thousand times on five basics: not payable, and the answer says why."""
    result = answer({"query": "pay", "state": BASICS, "cost": "{2/W}" * 1000})
    assert result["payable"] is False, result
    assert result["reason"]["code"] == "insufficient_mana", result


def test_rule_601_2b_pay_mixed_choice_symbols_witness_in_cost_order() -> None:
    """The witness keeps cost order across classes: {W/P}{2/U}{W/P} paid from basics."""
    result = answer({"query": "pay", "state": BASICS, "cost": "{W/P}{2/U}{W/P}",
                     "policy": ["min_life"]})
    assert result["payable"] is True, result
    symbols = [c["symbol"] for c in result["payment"]["choices"]]
    assert symbols == ["{W/P}", "{2/U}", "{W/P}"]


PLAINS_ISLAND = {
    "players": [{"name": "you"}, {"name": "opponent"}],
    "turn": {"active": "you", "step": "main1", "stack_empty": True},
    "battlefield": [{"id": "plains", "card": "Plains"}, {"id": "island", "card": "Island"}],
}


def _tapped(keep: list[str], backend: str | None = None) -> list[str]:
    q: dict[str, Any] = {"query": "pay", "state": PLAINS_ISLAND, "cost": "{1}",
                         "policy": {"criteria": ["keep_castable"], "keep_castable": keep}}
    if backend:
        q["backend"] = backend
    result = answer(q)
    assert result["payable"] is True, result
    return [a["permanent"] for a in result["payment"]["activations"]]


@pytest.mark.parametrize("backend", [None, "fastopt", "cpsat"])
def test_keep_castable_counts_a_repeated_cost_as_often_as_listed(backend: str | None) -> None:
    """{1} from Plains or Island: keeping {W}{W}-listed-twice beats keeping one {U}, so the
    Island is tapped (merged without its count, the tie would tap the earlier Plains)."""
    assert _tapped(["{W}", "{W}", "{U}"], backend) == ["island"]
    assert _tapped(["{W}", "{U}", "{U}"], backend) == ["plains"]
    assert _tapped(["{W}", "{U}"], backend) == ["plains"]  # a tie: earlier permanent first


def test_keep_castable_with_1001_costs_of_two_kinds() -> None:
    """1,001 listed costs, two distinct: answered, by counts (501 {U} against 500 {W})."""
    assert _tapped(["{W}"] * 500 + ["{U}"] * 501) == ["plains"]
    assert _tapped(["{U}"] * 500 + ["{W}"] * 501) == ["island"]


def test_keep_castable_default_merges_a_hand_of_1001_cards_of_two_costs() -> None:
    """The default keep list is the hand: 1,001 cards of two costs are two costs with
    counts, as a listed keep_castable is (501 Opt {U} against 500 Swords to Plowshares {W})."""
    def tapped(hand: list[str]) -> list[str]:
        state = {**PLAINS_ISLAND, "players": [{"name": "you", "hand": hand}, {"name": "opponent"}]}
        result = answer({"query": "pay", "state": state, "cost": "{1}", "policy": ["keep_castable"]})
        assert result["payable"] is True, result
        return [a["permanent"] for a in result["payment"]["activations"]]

    assert tapped(["Swords to Plowshares"] * 500 + ["Opt"] * 501) == ["plains"]
    assert tapped(["Opt"] * 500 + ["Swords to Plowshares"] * 501) == ["island"]
    assert _tapped(["{W}"] * 500 + ["{U}"] * 501) == ["plains"]  # the same as listing them


def test_keep_castable_max_x_on_commander_board_with_1000_costs() -> None:
    """max_x under a keep list of 1,000 costs (8 distinct) is the same as under the 8."""
    from manasolver.benchmarks import boards
    board = boards.commander_board(0)
    distinct = ["{G}", "{1}{G}", "{W}{U}", "{2}{B}", "{R}{R}", "{3}", "{G/W}{G/W}", "{1}{U}{U}"]
    many = [distinct[i % len(distinct)] for i in range(1000)]
    big = answer({"query": "max_x", "state": board, "cost": "{X}{G}", "policy": {"keep_castable": many}})
    small = answer({"query": "max_x", "state": board, "cost": "{X}{G}",
                    "policy": {"keep_castable": distinct}})
    assert "error" not in big, big
    assert big["max_x"] == small["max_x"], (big, small)


def test_keep_castable_beyond_the_limit_of_distinct_costs_is_refused() -> None:
    """KEEP_LIMIT distinct costs are answered; one more is bad_query naming it."""
    costs = ["{" + str(i) + "}" for i in range(KEEP_LIMIT + 1)]
    ok = answer({"query": "pay", "state": BASICS, "cost": "{G}",
                 "policy": {"keep_castable": costs[:KEEP_LIMIT] * 3}})
    assert ok["payable"] is True, ok
    result = answer({"query": "pay", "state": BASICS, "cost": "{G}", "policy": {"keep_castable": costs}})
    assert "error" in result, result
    assert result["error"]["code"] == "bad_query", result
    assert result["error"]["where"] == f"policy.keep_castable[{KEEP_LIMIT}]", result
    assert str(KEEP_LIMIT) in result["error"]["message"]


@pytest.mark.parametrize("n", [100_000])
def test_everflowing_chalice_with_many_charge_counters(n: int) -> None:
    """Chalice with n charge counters on the basics: {C} is paid by it (n mana, the rest
    floats or is wasted), and max X of {X} is n plus the six other lands."""
    state = json.loads(json.dumps(BASICS))
    state["battlefield"].append({"id": "z", "card": "Everflowing Chalice", "counters": {"charge": n}})
    pay = answer({"query": "pay", "state": state, "cost": "{C}"})
    assert pay["payable"] is True, str(pay)[:300]
    acts = pay["payment"]["activations"]
    assert [a["permanent"] for a in acts] == ["z"]
    assert acts[0]["mana"] == "{C}" * n
    top = answer({"query": "max_x", "state": state, "cost": "{X}"})
    assert top["max_x"] == n + 6, str(top)[:300]


def test_payments_cut_short_before_the_first_still_lists_one() -> None:
    """the protocol's ``payments`` on 10,000 permanents (the Commander board repeated, 1,500 of them
    Signets and filter lands): the enumeration stops at its bound before its first payment; the
    answer still lists a legal payment (the optimiser's) and says the list is not complete,
    never an empty stand-in."""
    from manasolver.benchmarks.boards import commander_board

    board = commander_board(0)
    perms = board["battlefield"]
    board["battlefield"] = [{**perms[i % len(perms)], "id": f"p{i}"} for i in range(10_000)]
    got = answer({"query": "payments", "state": board, "cost": "{2}{G}"})
    assert got["complete"] is False
    assert len(got["payments"]) >= 1
    checked = answer({"query": "validate", "state": board, "cost": "{2}{G}", "payment": got["payments"][0]})
    assert checked["legal"] is True, checked
