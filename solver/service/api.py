"""The typed Python API: one function per query of the protocol, returning its typed answer.

Each function builds the protocol's query object, asks :func:`manasolver.solver.answer` and returns
the answer object itself, typed with the definitions of :mod:`manasolver.solver.service.schema.types`, so
that a type checker knows every field (``pay(...)["payabel"]`` is an error before it runs, and
``answer["payment"]`` needs ``answer["payable"]`` checked first).  An error answer is raised as
the :class:`~manasolver.models.errors.ManasolverError` of its code (``BadCost``, ``UnknownCard``,
…, all ``ValueError``), with its ``where``.

>>> from manasolver.solver import api
>>> board = {"players": [{"name": "you"}], "battlefield": [{"id": "f1", "card": "Forest"}]}
>>> answer = api.pay(board, "{G}")
>>> answer["payable"] and answer["payment"]["activations"][0]["permanent"]
'f1'
>>> api.mana_value("{2/W}{2/U}")["mana_value"]
4

A board kept with :func:`open` is named by its handle wherever a board is taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from manasolver.models import errors
from manasolver.solver.service.protocol import answer as _answer

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from manasolver.solver.service.schema.types import (
        Answer,
        BoardAnswer,
        CanPayAnswer,
        CardAnswer,
        Change,
        CloseAnswer,
        CountsAnswer,
        CouldProduceAnswer,
        GuideAnswer,
        ManaValueAnswer,
        MaxXAnswer,
        OptionsAnswer,
        PayAnswer,
        PartialStep,
        Payment,
        PaymentOptions,
        PaymentsAnswer,
        PlanAnswer,
        PlanCost,
        Policy,
        Query,
        Sources,
        State,
        ValidateAnswer,
    )

#: The definitions the functions take and give, re-exported (loaded on first use: the API itself
#: needs them only for the type checker).
_TYPES = ("Answer", "BoardAnswer", "CanPayAnswer", "CardAnswer", "Change", "CloseAnswer", "CountsAnswer",
          "CouldProduceAnswer", "GuideAnswer", "ManaValueAnswer", "MaxXAnswer", "OptionsAnswer", "PartialStep",
          "PayAnswer", "Payment", "PaymentOptions", "PaymentsAnswer", "PlanAnswer", "PlanCost", "Policy", "Query",
          "Sources", "State", "ValidateAnswer")

__all__ = ["Answer", "BoardAnswer", "CanPayAnswer", "CardAnswer", "Change", "CloseAnswer", "CountsAnswer",
           "CouldProduceAnswer", "GuideAnswer", "ManaValueAnswer", "MaxXAnswer", "OptionsAnswer", "PartialStep",
           "PayAnswer", "Payment", "PaymentOptions", "PaymentsAnswer", "PlanAnswer", "PlanCost", "Policy", "Query",
           "State", "ValidateAnswer",
           "ask", "can_pay", "card", "close", "counts", "could_produce", "error_of", "guide", "mana_value",
           "max_x", "open", "options", "pay", "payments", "plan", "update", "validate"]


def __getattr__(name: str) -> Any:
    if name in _TYPES:
        from manasolver.solver.service.schema import types
        return getattr(types, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_ERRORS: dict[str, type[errors.ManasolverError]] = {
    cls.code: cls for cls in (errors.BadCost, errors.BadState, errors.UnknownCard, errors.UnknownField,
                              errors.Unsupported, errors.BadQuery)
}


def error_of(out: dict[str, Any]) -> errors.ManasolverError:
    """The exception of an error answer: the error class of its code, with its message and
    ``where`` (a code without a class of its own keeps its ``code`` on the instance)."""
    info = out["error"]
    code = str(info.get("code", "error"))
    cls = _ERRORS.get(code, errors.ManasolverError)
    err = cls(str(info.get("message", "")), str(info.get("where", "")))
    if cls is errors.ManasolverError:
        err.code = code
    return err


def _ask(query: dict[str, Any]) -> Any:
    out = _answer(query)
    if "error" in out:
        raise error_of(out)
    return out


def _on(state: State | str, query: dict[str, Any], options: dict[str, Any]) -> Any:
    """Ask ``query`` about ``state`` (a board, or the handle of a kept board) with ``options``."""
    where = {"board": state} if isinstance(state, str) else {"state": state}
    merged = {**query, **where, **options}
    return _ask({k: v for k, v in merged.items() if v is not None})


def ask(query: Query) -> Answer:
    """Any query object, its answer (an error answer raised)."""
    return cast("Answer", _ask(dict(query)))


def pay(state: State | str, cost: str | None = None, apply: bool | None = None,
        **options: Unpack[PaymentOptions]) -> PayAnswer:
    """The best payment of ``cost`` under the policy, or why it can't be paid; ``apply`` (with a
    kept board's handle) carries it out on that board."""
    return cast("PayAnswer", _on(state, {"query": "pay", "cost": cost, "apply": apply}, dict(options)))


def guide(state: State | str, cost: str | None = None, partial: list[PartialStep] | None = None,
          **options: Unpack[PaymentOptions]) -> GuideAnswer:
    """Paying by hand: the activations that, made after ``partial``, keep ``cost`` payable, and the
    best completion."""
    opts = {k: v for k, v in dict(options).items() if k != "backend"}
    return cast("GuideAnswer", _on(state, {"query": "guide", "cost": cost, "partial": partial}, opts))


def can_pay(state: State | str, cost: str | None = None, **options: Unpack[PaymentOptions]) -> CanPayAnswer:
    """Whether ``cost`` can be paid, and if not, what is missing."""
    return cast("CanPayAnswer", _on(state, {"query": "can_pay", "cost": cost}, dict(options)))


def payments(state: State | str, cost: str | None = None, limit: int | None = None,
             **options: Unpack[PaymentOptions]) -> PaymentsAnswer:
    """Every distinct way to pay ``cost``, up to ``limit`` (default 100)."""
    return cast("PaymentsAnswer", _on(state, {"query": "payments", "cost": cost, "limit": limit}, dict(options)))


def max_x(state: State | str, cost: str | None = None, **options: Unpack[PaymentOptions]) -> MaxXAnswer:
    """The largest X for which ``cost`` (with ``{X}``) can be paid."""
    return cast("MaxXAnswer", _on(state, {"query": "max_x", "cost": cost}, dict(options)))


def validate(state: State | str, cost: str | None, payment: Payment,
             **options: Unpack[PaymentOptions]) -> ValidateAnswer:
    """Whether ``payment`` (a PAYMENT, perhaps written by a player clicking lands) legally pays ``cost``."""
    return cast("ValidateAnswer", _on(state, {"query": "validate", "cost": cost, "payment": payment},
                                      dict(options)))


def options(state: State | str, limit: int | None = None, detail: bool | None = None,
            player: str | None = None) -> OptionsAnswer:
    """Every maximal pool the player can have at once by activating mana abilities now."""
    return cast("OptionsAnswer", _on(state, {"query": "options"},
                                     {"limit": limit, "detail": detail, "player": player}))


def could_produce(state: State | str, detail: bool | None = None) -> CouldProduceAnswer:
    """The mana types each permanent with a mana ability could produce (CR 106.7)."""
    return cast("CouldProduceAnswer", _on(state, {"query": "could_produce"}, {"detail": detail}))


def counts(state: State | str, player: str | None = None) -> CountsAnswer:
    """Colors among permanents, card types, devotion and domain."""
    return cast("CountsAnswer", _on(state, {"query": "counts"}, {"player": player}))


def mana_value(cost: str | None = None, card: str | None = None, zone: str | None = None,
               x: int | None = None) -> ManaValueAnswer:
    """The mana value and colors of a cost or a card (CR 202.3)."""
    query = {"query": "mana_value", "cost": cost, "card": card, "zone": zone, "x": x}
    return cast("ManaValueAnswer", _ask({k: v for k, v in query.items() if v is not None}))


def card(name: str) -> CardAnswer:
    """The card as the engine reads it."""
    return cast("CardAnswer", _ask({"query": "card", "card": name}))


def plan(state: State | str, costs: list[PlanCost], policy: Policy | None = None,
         player: str | None = None, sources: Sources | None = None, apply: bool | None = None) -> PlanAnswer:
    """Several costs paid one after another this step, optimal for the whole sequence;
    ``sources`` (permanents required, excluded or preserved) hold across the whole plan, and
    ``apply`` (with a kept board's handle) carries the payments out on that board."""
    return cast("PlanAnswer", _on(state, {"query": "plan", "costs": costs},
                                  {"policy": policy, "player": player, "sources": sources, "apply": apply}))


def open(state: State) -> BoardAnswer:  # the protocol's name for it
    """Keep ``state`` in this process; its ``board`` handle names it in later calls."""
    return cast("BoardAnswer", _ask({"query": "open", "state": state}))


def update(board: str, changes: list[Change]) -> BoardAnswer:
    """Apply ``changes`` to a kept board, in order and atomically."""
    return cast("BoardAnswer", _ask({"query": "update", "board": board, "changes": changes}))


def close(board: str) -> CloseAnswer:
    """Forget a kept board."""
    return cast("CloseAnswer", _ask({"query": "close", "board": board}))
