"""Payment: the one result type every backend returns (SPEC §5 PAYMENT).

A payment says what was activated and how, what each announced symbol was paid
as, and the life, energy, damage and floating mana involved.  It converts to
and from the protocol's JSON exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Activation", "Choice", "Payment"]


@dataclass(frozen=True, slots=True)
class Activation:
    """One activation of a mana ability: which permanent, which ability (index
    among its mana abilities), the cost parts paid, and the mana it added.

    Optional fields, written only when used (SPEC §5's shape is otherwise unchanged):
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
class Payment:
    """A complete payment of a cost (SPEC §5).

    ``total``: the mana part of the locked total cost after choices and
    modifiers; ``floating``: mana produced and not spent; ``extra``: further
    fields for the answer: ``spent`` (the mana that paid the total, convoke excluded)
    and ``colors_spent`` (for converge and sunburst, adamant checks).
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
                              "spent", "colors_spent"}  # the last two are reports, not checked
        if unknown:
            raise ValueError(f"unknown payment field {sorted(unknown)[0]!r} (give the PAYMENT object, "
                             f"not the whole answer)")
        choices = tuple(Choice(str(c["symbol"]), str(c["paid_as"])) for c in obj.get("choices", []))
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
        )
