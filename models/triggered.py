"""Triggered abilities read from oracle text, as frozen values (CR 603).

:mod:`manasolver.models.text.triggers` reads them from a card's text (once, when the card is
built); :mod:`manasolver.models.rules.events` resolves the ones it understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from manasolver.models.abilities import Production
from manasolver.models.slots import slot_setters
from manasolver.models.symbols import mask_letters

__all__ = ["EffectKind", "Trigger", "TriggerEffect", "TriggerEvent"]

#: When a trigger triggers; ``"other"`` is a trigger the engine does not read.
TriggerEvent = Literal["enters", "landfall", "becomes_tapped", "enchanted_tapped", "your_upkeep", "other"]
#: What one effect of a trigger does.
EffectKind = Literal["energy", "token", "damage", "lose_life", "life", "mana", "win"]


@dataclass(frozen=True, slots=True)
class TriggerEffect:
    """One effect of a triggered ability, in the order printed.

    ``kind``: ``"energy"`` (``amount`` {E} to the controller), ``"token"`` (``amount``
    tokens named ``token``, one of :data:`manasolver.models.tokens.TOKENS`, ``tapped``
    or not), ``"damage"`` / ``"lose_life"`` (``amount`` damage to / life lost by the
    controller, or with ``who == "enchanted"`` the enchanted permanent's controller), ``"life"``
    (``amount`` life gained by ``who``: ``"you"`` or ``"each"`` player), ``"mana"``
    (``production`` added to the controller's pool; not a mana ability) or
    ``"win"`` (the controller wins the game).  ``text``: the sentence.
    """

    kind: EffectKind
    text: str
    amount: int = 0
    token: str = ""
    tapped: bool = False
    who: str = "you"
    production: Production | None = None

    def to_json(self) -> dict[str, object]:
        """The protocol form: the kind and the fields that apply to it."""
        out: dict[str, object] = {"kind": self.kind}
        if self.kind in ("energy", "damage", "lose_life", "life", "token"):
            out["amount"] = self.amount
        if self.kind == "token":
            out["token"] = self.token
            out["tapped"] = self.tapped
        if self.kind in ("life", "damage", "lose_life") and self.who != "you":
            out["who"] = self.who
        if self.kind == "mana" and self.production is not None:
            out["options"] = ["".join("{" + "|".join(mask_letters(s)) + "}" for s in option)
                              for option in self.production.options]
        return out


@dataclass(frozen=True, slots=True, init=False)
class Trigger:
    """A triggered ability (CR 603.1): when it triggers, the intervening ``condition``
    (one of the names of :data:`manasolver.models.text.triggers.CONDITIONS`, "" for none) and its ``effects``.

    ``unsupported`` is "" for a trigger the engine can resolve; otherwise it says what
    was not understood and ``effects`` may be incomplete.  ``text`` is the line as printed,
    without reminder text.
    """

    event: TriggerEvent
    text: str
    effects: tuple[TriggerEffect, ...] = ()
    condition: str = ""
    also_attacks: bool = False
    unsupported: str = ""

    def __init__(self, event: TriggerEvent, text: str, effects: tuple[TriggerEffect, ...] = (), condition: str = "",
                 also_attacks: bool = False, unsupported: str = "") -> None:
        # Each field set through its slot (see models.slots): a trigger for every one a card built has.
        s0, s1, s2, s3, s4, s5 = _TRIGGER_SLOTS
        s0(self, event)
        s1(self, text)
        s2(self, effects)
        s3(self, condition)
        s4(self, also_attacks)
        s5(self, unsupported)

    def to_json(self) -> dict[str, object]:
        """The protocol form (for ``card`` answers): event, text, effects, and what was not read."""
        out: dict[str, object] = {"event": self.event, "text": self.text,
                                  "effects": [e.to_json() for e in self.effects]}
        if self.condition:
            out["condition"] = self.condition
        if self.also_attacks:
            out["also_attacks"] = True
        if self.adds_mana:
            out["mana_ability"] = self.is_mana_ability
        if self.unsupported:
            out["unsupported"] = self.unsupported
        return out

    @property
    def supported(self) -> bool:
        """True when every part of it was understood."""
        return not self.unsupported

    @property
    def adds_mana(self) -> bool:
        """True when one of its effects adds mana."""
        return any(e.kind == "mana" for e in self.effects)

    @property
    def is_mana_ability(self) -> bool:
        """Always False for the events read here: they don't trigger from a mana ability or
        from mana being added (CR 605.1b), so a trigger that adds mana is not a mana ability
        (605.5a; Lotus Cobra ruling 2017-11-17; Burning-Tree Emissary ruling)."""
        return False

    @property
    def uses_stack(self) -> bool:
        """True: every trigger read here goes on the stack and can be responded to (605.5a)."""
        return not self.is_mana_ability


_TRIGGER_SLOTS = slot_setters(Trigger)
