"""Work bounded by the input's size (SPEC §5: no input may hang the process).

Each case is an input that once did work far beyond its size; it is sized so that the suite
stays quick only while the work is bounded, and each asserts on the answer, never on time:

* the announcement (CR 601.2b) of thousands of identical choice symbols (``{2/W}``, ``{W/P}``)
  keeps one count per way for each class of identical symbols, so its forms are as small as
  the classes, and the witness (one choice per symbol) is spelled out only when asked for.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from manasolver.models.cost import ManaCost
from manasolver.solver.casting.announce import announce
from manasolver.solver.protocol import answer


def _example(name: str) -> dict[str, Any]:
    board: dict[str, Any] = json.loads(
        resources.files("manasolver.solver").joinpath(f"examples/{name}.json").read_text())
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
