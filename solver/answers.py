"""The answers of the payment queries: small frozen values whose ``to_json()`` is the protocol's shape.

:class:`PayAnswer`, :class:`CanPayAnswer`, :class:`MaxXAnswer` and :class:`PaymentsAnswer` answer
:func:`~manasolver.solver.queries.pay`, ``can_pay``, ``max_x`` and ``payments``;
:class:`Reason` says why a cost can't be paid (:mod:`manasolver.solver.reasons`).  A payment
answer holds its payment as a :class:`~manasolver.solver.payment.Payment` or as a
:class:`PaymentSource` that writes the PAYMENT JSON directly and builds the ``Payment`` value
only when it is read.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from manasolver.solver.payment import Payment

__all__ = ["CanPayAnswer", "MaxXAnswer", "PayAnswer", "PaymentSource", "PaymentsAnswer", "Reason", "ReasonCode"]

#: The REASON codes of an unpayable cost.
ReasonCode = Literal["insufficient_mana", "insufficient_life", "insufficient_energy",
                     "restricted_mana", "no_legal_x", "conflicting_sources", "illegal_partial"]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a cost can't be paid (the protocol's REASON).  ``proved`` false: the time bound cut the
    search for it short (:mod:`manasolver.solver.reasons`); its JSON then says
    ``"proved": false`` and its answer ``"time_bound": true``."""

    code: ReasonCode
    message: str
    missing: str | None = None
    proved: bool = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.missing is not None:
            out["missing"] = self.missing
        if not self.proved:
            out["proved"] = False
        return out


def _with_uncertain(out: dict[str, Any], uncertain: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """``out`` with the sources whose mana depends on chance or another player's choice under
    ``uncertain`` (none: unchanged)."""
    if uncertain:
        out["uncertain"] = [{"permanent": p, "reason": r} for p, r in uncertain]
    return out


def _unpaid(head: dict[str, Any], reason: Reason) -> dict[str, Any]:
    """An unpayable answer's JSON: ``head``, the reason, and ``time_bound`` when the time bound
    cut the search for the reason short."""
    out = {**head, "reason": reason.to_json()}
    if not reason.proved:
        out["time_bound"] = True
    return out


class PaymentSource(Protocol):
    """A payment not yet written: its PAYMENT JSON, and its :class:`Payment` value on demand
    (:class:`~manasolver.solver.payment_writer.Written` keeps a backend's solution so)."""

    def to_json(self) -> dict[str, Any]: ...

    def payment(self) -> Payment: ...


class _WithPayment:
    """An answer that may carry a payment given as a :class:`Payment` or as a
    :class:`PaymentSource` (written straight to JSON; the :class:`Payment` built only when
    :attr:`payment` is read).  Frozen: its fields are set once, in ``__init__``."""

    __slots__ = ("_payment", "_source")
    _FIELDS: tuple[str, ...] = ()

    _payment: Payment | None
    _source: PaymentSource | None

    def _init_payment(self, payment: Payment | None, source: PaymentSource | None) -> None:
        object.__setattr__(self, "_payment", payment)
        object.__setattr__(self, "_source", source if payment is None else None)

    @property
    def payment(self) -> Payment | None:
        """The payment, or ``None`` for an answer without one."""
        if self._payment is None and self._source is not None:
            object.__setattr__(self, "_payment", self._source.payment())
        return self._payment

    @property
    def source(self) -> PaymentSource | None:
        """How the payment is written: the source it came from, if any."""
        return self._source

    def _payment_json(self) -> dict[str, Any]:
        if self._source is not None:
            return self._source.to_json()
        assert self._payment is not None
        return self._payment.to_json()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._FIELDS)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, _WithPayment)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS)
        return f"{self.__class__.__name__}({inner})"


class PayAnswer(_WithPayment):
    """``{"payable": true, "payment": …}`` or ``{"payable": false, "reason": …}``.

    ``unsupported``: sources left out as unsupported (permanent, why): the payment is legal,
    but one using them might be better under the policy, so the answer says so.  ``uncertain``:
    sources whose mana depends on chance or another player's choice (permanent, why), counted as
    the least they can give.  ``source``: the payment as a :class:`PaymentSource` instead of
    ``payment``."""

    __slots__ = ("payable", "reason", "time_bound", "uncertain", "unsupported")
    _FIELDS = ("payable", "payment", "reason", "time_bound", "unsupported", "uncertain")

    payable: bool
    reason: Reason | None
    time_bound: bool
    unsupported: tuple[tuple[str, str], ...]
    uncertain: tuple[tuple[str, str], ...]

    def __init__(self, payable: bool, payment: Payment | None = None, reason: Reason | None = None,
                 time_bound: bool = False, unsupported: tuple[tuple[str, str], ...] = (),
                 source: PaymentSource | None = None, uncertain: tuple[tuple[str, str], ...] = ()) -> None:
        object.__setattr__(self, "payable", payable)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "time_bound", time_bound)
        object.__setattr__(self, "unsupported", unsupported)
        object.__setattr__(self, "uncertain", uncertain)
        self._init_payment(payment, source)

    def naming_uncertain(self, uncertain: tuple[tuple[str, str], ...]) -> PayAnswer:
        """This answer with ``uncertain`` named (the same payment, reason and flags)."""
        return PayAnswer(self.payable, self._payment, self.reason, self.time_bound, self.unsupported,
                         self._source, uncertain)

    def to_json(self) -> dict[str, Any]:
        if self.payable:
            out: dict[str, Any] = {"payable": True, "payment": self._payment_json()}
            if self.time_bound:
                out["time_bound"] = True  # a time bound stopped the proof of optimality
            if self.unsupported:
                out["unsupported"] = [{"permanent": p, "reason": r} for p, r in self.unsupported]
        else:
            assert self.reason is not None
            out = _unpaid({"payable": False}, self.reason)
        return _with_uncertain(out, self.uncertain)


@dataclass(frozen=True, slots=True)
class CanPayAnswer:
    """``{"payable": bool}`` with ``reason`` only when false, and ``uncertain`` (as
    :class:`PayAnswer`'s) when some source's mana depends on chance or another player's choice."""

    payable: bool
    reason: Reason | None = None
    uncertain: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.payable or self.reason is None:
            out: dict[str, Any] = {"payable": self.payable}
        else:
            out = _unpaid({"payable": False}, self.reason)
        return _with_uncertain(out, self.uncertain)


class MaxXAnswer(_WithPayment):
    """``{"max_x": N, "payment": …}`` or ``{"max_x": null, "reason": …}``."""

    __slots__ = ("max_x", "reason", "time_bound", "uncertain")
    _FIELDS = ("max_x", "payment", "reason", "time_bound", "uncertain")

    max_x: int | None
    reason: Reason | None
    time_bound: bool
    uncertain: tuple[tuple[str, str], ...]

    def __init__(self, max_x: int | None, payment: Payment | None = None, reason: Reason | None = None,
                 time_bound: bool = False, source: PaymentSource | None = None,
                 uncertain: tuple[tuple[str, str], ...] = ()) -> None:
        object.__setattr__(self, "max_x", max_x)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "time_bound", time_bound)
        object.__setattr__(self, "uncertain", uncertain)
        self._init_payment(payment, source)

    def naming_uncertain(self, uncertain: tuple[tuple[str, str], ...]) -> MaxXAnswer:
        """This answer with ``uncertain`` named (as :meth:`PayAnswer.naming_uncertain`)."""
        return MaxXAnswer(self.max_x, self._payment, self.reason, self.time_bound, self._source, uncertain)

    def to_json(self) -> dict[str, Any]:
        if self.max_x is not None:
            out: dict[str, Any] = {"max_x": self.max_x, "payment": self._payment_json()}
            if self.time_bound:
                out["time_bound"] = True
        else:
            assert self.reason is not None
            out = _unpaid({"max_x": None}, self.reason)
        return _with_uncertain(out, self.uncertain)


@dataclass(frozen=True, slots=True)
class PaymentsAnswer:
    """``{"payments": […], "complete": bool}``, and ``"time_bound": true`` when the time bound
    (not ``limit``) cut the list short; ``uncertain`` as :class:`PayAnswer`'s."""

    payments: tuple[Payment, ...]
    complete: bool
    time_bound: bool = False
    uncertain: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payments": [p.to_json() for p in self.payments], "complete": self.complete}
        if self.time_bound:
            out["time_bound"] = True
        return _with_uncertain(out, self.uncertain)
