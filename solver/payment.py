"""Payment: the one result type every backend returns (the protocol's PAYMENT).

A payment says what was activated and how, what each announced symbol was paid
as, and the life, energy, damage and floating mana involved.  It converts to
and from the protocol's JSON exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PAID_KINDS", "WARNINGS", "Activation", "Allocation", "Choice", "Payment"]

#: What may pay a symbol of the total, as ``allocation`` names it.
PAID_KINDS = ("activation", "pool", "life", "convoke", "delve", "improvise")

#: The warnings a payment may carry, in the order they are written: what a player would want
#: to be told before confirming it.
WARNINGS = ("sacrifices", "pays_life", "deals_damage", "spends_energy", "floats_mana", "uses_preserved",
            "discards", "exiles")


@dataclass(frozen=True, slots=True)
class Activation:
    """One activation of a mana ability: which permanent, which ability (index
    among its mana abilities), the cost parts paid, and the mana it added.

    Optional fields, written only when used (the protocol's shape is otherwise unchanged):
    ``sacrificed``: the other permanents its cost sacrificed (Ashnod's Altar: "Sacrifice a
    creature"), one id per sacrifice; ``tapped``: the untapped permanents its cost tapped
    (Springleaf Drum, Heritage Druid); ``hand``: for an ability activated from the hand
    (Simian Spirit Guide), the card's index in the player's hand, with ``card`` its name
    and ``permanent`` empty.
    """

    permanent: str
    ability: int
    costs: tuple[str, ...]
    mana: str
    times: int = 1
    sacrificed: tuple[str, ...] = ()
    tapped: tuple[str, ...] = ()
    hand: int | None = None
    card: str = ""

    def to_json(self) -> dict[str, Any]:
        if self.hand is not None:
            out: dict[str, Any] = {"hand": self.hand, "card": self.card}
        else:
            out = {"permanent": self.permanent}
        out.update({"ability": self.ability, "costs": list(self.costs), "mana": self.mana})
        if self.times != 1:
            out["times"] = self.times
        if self.sacrificed:
            out["sacrificed"] = list(self.sacrificed)
        if self.tapped:
            out["tapped"] = list(self.tapped)
        return out


@dataclass(frozen=True, slots=True)
class Choice:
    """How one announced symbol of the cost is paid (CR 601.2b): ``paid_as`` is
    ``{W}``, ``{2}``, ``{C}`` or ``life``."""

    symbol: str
    paid_as: str

    def to_json(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "paid_as": self.paid_as}


@dataclass(frozen=True, slots=True)
class Allocation:
    """What paid one symbol of the total: ``kind`` is one of :data:`PAID_KINDS` and ``value``
    the activation's index in the payment's ``activations`` (``activation``), ``True``
    (``pool``), the life paid (``life``: a Phyrexian symbol), or the id or card name of what
    was convoked, improvised or delved."""

    symbol: str
    kind: str
    value: int | str | bool

    def to_json(self) -> dict[str, Any]:
        return {"symbol": self.symbol, "paid_by": {self.kind: self.value}}

    @staticmethod
    def from_json(obj: Any, where: str) -> Allocation:
        """One entry of a caller's ``allocation``; ``ValueError`` naming ``where`` when malformed."""
        if not isinstance(obj, dict) or set(obj) != {"symbol", "paid_by"}:
            raise ValueError(f"{where} must be an object with symbol and paid_by")
        paid = obj["paid_by"]
        if not isinstance(paid, dict) or len(paid) != 1:
            raise ValueError(f"{where}.paid_by must name one payer, such as {{\"activation\": 0}}")
        ((kind, value),) = paid.items()
        if kind not in PAID_KINDS:
            raise ValueError(f"{where}.paid_by: {kind!r} is none of {', '.join(PAID_KINDS)}")
        if kind in ("activation", "life") and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{where}.paid_by.{kind} must be an integer")
        if kind in ("convoke", "delve", "improvise") and not isinstance(value, str):
            raise ValueError(f"{where}.paid_by.{kind} must be a string")
        if kind == "pool" and value is not True:
            raise ValueError(f"{where}.paid_by.pool must be true")
        return Allocation(str(obj["symbol"]), kind, value)


@dataclass(frozen=True, slots=True)
class Payment:
    """A complete payment of a cost.

    ``total``: the mana part of the locked total cost after choices and
    modifiers; ``floating``: mana produced and not spent; ``extra``: further
    fields for the answer: ``spent`` (the mana that paid the total, convoke excluded)
    and ``colors_spent`` (for converge and sunburst, adamant checks).

    The plan a client carries out: ``activations`` in an executable order (every activation's
    own mana cost paid by the pool or earlier activations); ``allocation``: what paid each
    symbol of the total (and each Phyrexian symbol paid with life); ``warnings``: codes of
    :data:`WARNINGS`; ``score``: the policy's criteria with their values.  The last three are
    ``None`` until the payment is written as a plan (and are not compared: they follow from
    the rest).
    """

    total: str
    choices: tuple[Choice, ...] = ()
    x: int = 0
    activations: tuple[Activation, ...] = ()
    pool_used: str = ""
    convoked: tuple[str, ...] = ()
    delved: tuple[str, ...] = ()
    improvised: tuple[str, ...] = ()
    life: int = 0
    energy: int = 0
    damage: int = 0
    floating: str = ""
    extra: tuple[tuple[str, Any], ...] = field(default=(), compare=False)
    allocation: tuple[Allocation, ...] | None = field(default=None, compare=False)
    warnings: tuple[str, ...] | None = field(default=None, compare=False)
    score: tuple[tuple[str, int], ...] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The protocol's PAYMENT object."""
        out: dict[str, Any] = {
            "total": self.total,
            "choices": [c.to_json() for c in self.choices],
            "x": self.x,
            "activations": [a.to_json() for a in self.activations],
            "pool_used": self.pool_used,
            "convoked": list(self.convoked),
            "delved": list(self.delved),
            "improvised": list(self.improvised),
            "life": self.life,
            "energy": self.energy,
            "damage": self.damage,
            "floating": self.floating,
        }
        for key, value in self.extra:
            out[key] = value
        if self.allocation is not None:
            out["allocation"] = [a.to_json() for a in self.allocation]
        if self.warnings is not None:
            out["warnings"] = list(self.warnings)
        if self.score is not None:
            out["score"] = [[name, value] for name, value in self.score]
        return out

    @staticmethod
    def from_json(obj: Any) -> Payment:
        """Read a PAYMENT written by a caller; raises ``ValueError``/``KeyError``/``TypeError``
        on malformed input (the protocol turns these into ``bad_query`` answers)."""
        if not isinstance(obj, dict):
            raise TypeError("payment must be an object")
        acts = []
        activations = obj.get("activations", [])
        if not isinstance(activations, list) or len(activations) > 10_000:
            raise ValueError("activations must be a list of at most 10,000 activations")
        for i, a in enumerate(activations):
            if not isinstance(a, dict):
                raise ValueError(f"activations[{i}] must be an object")
            times = a.get("times", 1)
            if isinstance(times, bool) or not isinstance(times, int) or not 1 <= times <= 1000:
                raise ValueError(f"activations[{i}].times must be an integer from 1 to 1000")
            hand = a.get("hand")
            if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
                raise TypeError(f"activations[{i}].hand must be an index into the hand")
            for key in ("sacrificed", "tapped"):
                if not isinstance(a.get(key, []), list):
                    raise TypeError(f"activations[{i}].{key} must be a list of permanent ids")
            acts.append(Activation("" if hand is not None else str(a["permanent"]),
                                   int(a.get("ability", 0)),
                                   tuple(str(c) for c in a.get("costs", [])), str(a.get("mana", "")),
                                   times, tuple(str(s) for s in a.get("sacrificed", [])),
                                   tuple(str(s) for s in a.get("tapped", [])), hand,
                                   str(a.get("card", ""))))
        for key in ("x", "life", "energy", "damage"):
            value = obj.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key} must be an integer")
        unknown = set(obj) - {"total", "choices", "x", "activations", "pool_used", "convoked", "delved",
                              "improvised", "life", "energy", "damage", "floating",
                              "allocation", "warnings", "score",
                              "spent", "colors_spent"}  # the last four are reports, not checked
        if unknown:
            raise ValueError(f"unknown payment field {sorted(unknown)[0]!r} (give the PAYMENT object, "
                             f"not the whole answer)")
        choices = tuple(Choice(str(c["symbol"]), str(c["paid_as"])) for c in obj.get("choices", []))
        allocation = None
        if "allocation" in obj:
            if not isinstance(obj["allocation"], list) or len(obj["allocation"]) > 100_000:
                raise ValueError("allocation must be a list of at most 100,000 entries")
            allocation = tuple(Allocation.from_json(a, f"allocation[{i}]") for i, a in enumerate(obj["allocation"]))
        return Payment(
            total=str(obj.get("total", "")),
            choices=choices,
            x=int(obj.get("x", 0)),
            activations=tuple(acts),
            pool_used=str(obj.get("pool_used", "")),
            convoked=tuple(str(s) for s in obj.get("convoked", [])),
            delved=tuple(str(s) for s in obj.get("delved", [])),
            improvised=tuple(str(s) for s in obj.get("improvised", [])),
            life=int(obj.get("life", 0)),
            energy=int(obj.get("energy", 0)),
            damage=int(obj.get("damage", 0)),
            floating=str(obj.get("floating", "")),
            allocation=allocation,
        )
