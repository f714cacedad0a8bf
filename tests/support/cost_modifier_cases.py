"""Helpers of the cost-modifier card tests: a board of real cards, ``pay``'s total checked by
``validate``, and a refusal's message."""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer

#: Three of each basic land: enough mana for every spell of these tests at its full cost.
LANDS = [{"id": f"{land[0]}{i}", "card": land} for land in ("Plains", "Island", "Swamp", "Mountain", "Forest")
         for i in range(3)]


def board(*perms: dict[str, Any], you: dict[str, Any] | None = None, opp: dict[str, Any] | None = None,
          step: str = "main1", active: str = "you") -> dict[str, Any]:
    """A board: ``perms`` (``controller`` defaults to ``you``) beside :data:`LANDS`; the players'
    own fields ``you`` and ``opp``; the turn's ``active`` player and ``step``."""
    field = [dict(p, id=p.get("id", f"p{i}")) for i, p in enumerate(perms)]
    return {"players": [{"name": "you", **(you or {})}, {"name": "opp", **(opp or {})}],
            "turn": {"active": active, "step": step}, "battlefield": field + LANDS}


def paid(state: dict[str, Any], spell: str, **extra: Any) -> str:
    """The total ``pay`` pays for casting ``spell`` on ``state``, after checking that ``validate``
    accepts that payment and ``can_pay`` agrees."""
    query = {"state": state, "spell": {"card": spell}, **extra}
    out = answer({"query": "pay", **query})
    assert out.get("payable") is True, out
    verdict = answer({"query": "validate", **query, "payment": out["payment"]})
    assert verdict["legal"] is True, verdict
    assert answer({"query": "can_pay", **query})["payable"] is True
    return str(out["payment"]["total"])


def refused(state: dict[str, Any], spell: str, **extra: Any) -> str:
    """The message of the ``unsupported`` answer to casting ``spell`` on ``state``."""
    out = answer({"query": "pay", "state": state, "spell": {"card": spell}, **extra})
    assert "error" in out and out["error"]["code"] == "unsupported", out
    return str(out["error"]["message"])
