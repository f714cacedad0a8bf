"""What the fuzzing and load suite (tests/fuzz/) shares: its size, real card names, board and cost
strategies, and the checks every answer must pass.

Size: each test runs a few seconds by default (a handful of hypothesis examples); with
``MANASOLVER_FUZZ=long`` in the environment, many more examples and larger loads.

The checks (:func:`check_answer`): the answer is a JSON object; an error has one of the protocol's codes
and is never an internal error; a payment answered is legal by the independent checker (the
``validate`` query); a list cut short or a payment whose optimality was not proven says so.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from manasolver.solver.service.protocol import answer

#: ``MANASOLVER_FUZZ=long``: the longer run, on demand.
LONG = os.environ.get("MANASOLVER_FUZZ", "").lower() == "long"
#: Hypothesis examples per test.
EXAMPLES = 400 if LONG else 8
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ERROR_CODES = {"bad_cost", "bad_state", "unknown_card", "unknown_field", "unknown_board", "unsupported",
               "bad_query"}

#: Real cards whose mana abilities cover the engine's shapes: basics, duals, pain and filter lands,
#: references (Reflecting Pool, Exotic Orchard, Fellwar Stone), rocks, dorks, sacrifice and
#: counter sources, lands that cost life.
CARDS = (
    "Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Snow-Covered Forest",
    "Tundra", "Bayou", "Underground River", "Karplusan Forest", "Llanowar Wastes",
    "Cascade Bluffs", "Fire-Lit Thicket", "Mystic Gate", "Graven Cairns",
    "Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Command Tower", "City of Brass",
    "Mana Confluence", "Sol Ring", "Arcane Signet", "Azorius Signet", "Mind Stone",
    "Everflowing Chalice", "Llanowar Elves", "Birds of Paradise", "Treasure",
    "Gemstone Mine", "Ancient Tomb", "Lotus Petal", "Vivid Crag", "Ashnod's Altar",
)

SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{S}", "{1}", "{2}", "{X}", "{W/U}", "{B/G}",
           "{2/W}", "{W/P}", "{G/U/P}", "{C/W}", "{0}", "{10}")


@st.composite
def costs(draw: st.DrawFn, most: int = 12) -> str:
    """A cost of real symbols, up to ``most`` of them."""
    parts = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=most))
    return "".join(parts)


@st.composite
def permanents(draw: st.DrawFn, i: int) -> dict[str, Any]:
    perm: dict[str, Any] = {"id": f"p{i}", "card": draw(st.sampled_from(CARDS))}
    if draw(st.booleans()):
        perm["controller"] = draw(st.sampled_from(["you", "opponent"]))
    if draw(st.integers(0, 4)) == 0:
        perm["tapped"] = True
    if draw(st.integers(0, 4)) == 0:
        perm["sick"] = True
    if draw(st.integers(0, 3)) == 0:
        perm["counters"] = {draw(st.sampled_from(["charge", "time", "+1/+1"])): draw(st.integers(0, 12))}
    return perm


@st.composite
def boards(draw: st.DrawFn, most: int = 14) -> dict[str, Any]:
    """A board of real cards (hypothesis strategies over the names of :data:`CARDS`)."""
    n = draw(st.integers(0, most))
    you: dict[str, Any] = {"name": "you", "life": draw(st.integers(0, 40))}
    if draw(st.booleans()):
        you["pool"] = draw(st.sampled_from(["{R}", "{G}{G}", "{C}", "{W}{U}"]))
    if draw(st.booleans()):
        you["hand"] = draw(st.lists(st.sampled_from(["Counterspell", "Lightning Bolt", "Llanowar Elves"]),
                                    max_size=3))
    return {"players": [you, {"name": "opponent"}],
            "battlefield": [draw(permanents(i)) for i in range(n)]}


def check_answer(query: dict[str, Any], result: Any, validate: bool = True) -> dict[str, Any]:
    """The checks every answer passes (see the module docstring); returns the answer."""
    assert isinstance(result, dict), result
    if "error" in result:
        error = result["error"]
        assert error["code"] in ERROR_CODES, error
        assert isinstance(error["message"], str) and error["message"], error
        assert "internal error" not in error["message"], (query.get("query"), error)
        return result
    kind = query.get("query")
    if validate and kind in ("pay", "max_x") and result.get("payment") is not None:
        _legal(query, result["payment"], result.get("max_x"))
    if validate and kind == "payments":
        assert isinstance(result["complete"], bool)
        for payment in result["payments"][:5]:
            _legal(query, payment, None)
    if kind in ("pay", "can_pay") and result.get("payable") is False:
        reason = result["reason"]
        assert reason["code"] in ("insufficient_mana", "insufficient_life", "insufficient_energy",
                                  "restricted_mana", "timing", "not_castable"), reason
        if reason.get("proved") is False:
            assert result.get("time_bound") is True, result
    return result


def _legal(query: dict[str, Any], payment: dict[str, Any], x: int | None) -> None:
    check = {k: v for k, v in query.items() if k in ("state", "cost", "spell", "modifiers", "player",
                                                     "convoke", "delve", "improvise", "x")}
    if x is not None:
        check["x"] = x
    verdict = answer({**check, "query": "validate", "payment": payment})
    if "error" in verdict:  # the checker refuses what it does not model: said, never a crash
        assert verdict["error"]["code"] in ERROR_CODES and "internal error" not in verdict["error"]["message"]
        return
    assert verdict["legal"] is True, (query.get("query"), query.get("cost"), payment, verdict)


def cut_short(result: dict[str, Any]) -> bool:
    """Did a bound decide part of this answer (then it may differ between two runs)?"""
    reason = result.get("reason")
    return (result.get("time_bound") is True or result.get("complete") is False
            or result.get("bounded") is True
            or (isinstance(reason, dict) and reason.get("proved") is False)
            or ("error" in result and "time bound" in result["error"].get("message", "")))
