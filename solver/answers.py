"""The answers of the payment queries: small frozen dataclasses whose ``to_json()`` is the protocol's shape.

:class:`PayAnswer`, :class:`CanPayAnswer`, :class:`MaxXAnswer` and :class:`PaymentsAnswer` answer
:func:`~manasolver.solver.queries.pay`, ``can_pay``, ``max_x`` and ``payments`` (SPEC §5);
:class:`Reason` says why a cost can't be paid (:mod:`manasolver.solver.reasons`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from manasolver.solver.payment import Payment

__all__ = ["CanPayAnswer", "MaxXAnswer", "PayAnswer", "PaymentsAnswer", "Reason", "ReasonCode"]

#: The REASON codes of an unpayable cost (SPEC §5).
ReasonCode = Literal["insufficient_mana", "insufficient_life", "insufficient_energy",
                     "restricted_mana", "no_legal_x"]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a cost can't be paid (SPEC §5 REASON)."""

    code: ReasonCode
    message: str
    missing: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.missing is not None:
            out["missing"] = self.missing
        return out


@dataclass(frozen=True, slots=True)
class PayAnswer:
    """``{"payable": true, "payment": …}`` or ``{"payable": false, "reason": …}``."""

    payable: bool
    payment: Payment | None = None
    reason: Reason | None = None
    time_bound: bool = False
    #: Sources left out as unsupported (permanent, why): the payment is legal, but one using
    #: them might be better under the policy, so the answer says so.
    unsupported: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.payable:
            assert self.payment is not None
            out: dict[str, Any] = {"payable": True, "payment": self.payment.to_json()}
            if self.time_bound:
                out["time_bound"] = True  # a time bound stopped the proof of optimality
            if self.unsupported:
                out["unsupported"] = [{"permanent": p, "reason": r} for p, r in self.unsupported]
            return out
        assert self.reason is not None
        return {"payable": False, "reason": self.reason.to_json()}


@dataclass(frozen=True, slots=True)
class CanPayAnswer:
    """``{"payable": bool}`` with ``reason`` only when false."""

    payable: bool
    reason: Reason | None = None

    def to_json(self) -> dict[str, Any]:
        if self.payable or self.reason is None:
            return {"payable": self.payable}
        return {"payable": False, "reason": self.reason.to_json()}


@dataclass(frozen=True, slots=True)
class MaxXAnswer:
    """``{"max_x": N, "payment": …}`` or ``{"max_x": null, "reason": …}``."""

    max_x: int | None
    payment: Payment | None = None
    reason: Reason | None = None
    time_bound: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.max_x is not None:
            assert self.payment is not None
            out: dict[str, Any] = {"max_x": self.max_x, "payment": self.payment.to_json()}
            if self.time_bound:
                out["time_bound"] = True
            return out
        assert self.reason is not None
        return {"max_x": None, "reason": self.reason.to_json()}


@dataclass(frozen=True, slots=True)
class PaymentsAnswer:
    """``{"payments": […], "complete": bool}``."""

    payments: tuple[Payment, ...]
    complete: bool

    def to_json(self) -> dict[str, Any]:
        return {"payments": [p.to_json() for p in self.payments], "complete": self.complete}
