"""Reading triggers on becoming tapped, or on tapping for mana, for what they cost a payer (CR 603.2).

A payment taps permanents: a trigger on that (Manabarbs: "Whenever a player taps a land for
mana, ~ deals 1 damage to that player."; Royal Decree; Haunting Wind; an Aura's "Whenever
enchanted land becomes tapped, …") goes on the stack after the mana ability and changes nothing
the payment may use (CR 605.5a: it is no mana ability), but the damage or life loss it deals
the payer follows from the payment all the same (policy ``min_life``), as a pain land's does.
:func:`read_tap_trigger` turns one such trigger's text into a :class:`TapTrigger`:

* what it watches (``reach``): the source itself (``"self"``), the permanent it is attached to
  (``"attached"``: enchanted or fortified), or permanents matching ``kinds`` (any one of the
  alternatives of "a Swamp, Mountain, black permanent, or red permanent"), controlled by
  ``controller`` (``"any"``, ``"you"``: the trigger's controller, ``"opponents"``);
* ``for_mana``: only when tapped for mana ("taps a land for mana", CR 106.12: a mana ability
  with ``{T}`` in its cost); else on becoming tapped for any reason (convoke and tapping costs
  included); ``nontap``: also when an ability of it without ``{T}`` in its cost is activated
  (Haunting Wind, Artifact Possession);
* what it costs: ``hurt`` damage or life loss to the tapped permanent's controller ("that
  player", "its controller", "that land's controller"), ``hurt_you`` to the trigger's
  controller, ``hurt_opponents`` to each opponent of the trigger's controller.

Everything else such a trigger does (gain life, create a token, draw, counters, destroy the land,
damage to a target or to opponents chosen by its controller) happens after the payment and costs
the payer nothing the payment decides; a trigger that does only that is read as harmless without
its watch being read.  ``None`` is returned for a trigger that may hurt in a way not read ("unless
that player pays {3}": Seizures), which the solver refuses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manasolver.models.card import Card
from manasolver.models.symbols import type_bit
from manasolver.models.text.oracle import self_reference
from manasolver.models.text.triggers import triggers_of

__all__ = ["TapKind", "TapTrigger", "read_tap_trigger", "tap_triggers_of"]


@dataclass(frozen=True, slots=True)
class TapKind:
    """One alternative of what a tap trigger watches: every one of ``types`` (card types, lower
    case), one of ``subtypes`` when given, ``colors`` (bitmask, any of) when set, ``nonbasic``
    / ``basic`` / ``snow`` when set."""

    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    colors: int = 0
    basic: bool = False
    nonbasic: bool = False
    snow: bool = False


@dataclass(frozen=True, slots=True)
class TapTrigger:
    """A trigger on becoming tapped or tapping for mana, read (see the module docstring)."""

    text: str
    reach: str = "self"
    kinds: tuple[TapKind, ...] = ()
    controller: str = "any"
    for_mana: bool = False
    nontap: bool = False
    hurt: int = 0
    hurt_you: int = 0
    hurt_opponents: int = 0

    @property
    def harmless(self) -> bool:
        """It costs no player life or damage."""
        return not (self.hurt or self.hurt_you or self.hurt_opponents)


#: Whom a hurting effect names: the tapped permanent's controller, the trigger's, its opponents.
_TAPPER = (r"that player|the player|its controller|that (?:permanent|land|creature|artifact)'s controller")
_VICTIM = rf"(?P<who>{_TAPPER}|you|each opponent)"
_DAMAGE = re.compile(rf"(?:~|it) deals (?P<n>\d+) damage to {_VICTIM}(?: and each creature (?:you control|"
                     rf"that player controls))?\b")
_LOSES = re.compile(rf"{_VICTIM} loses? (?P<n>\d+) life\b")
#: Damage to a target or to opponents its controller picks: never the payer's cost.
_CHOSEN_DAMAGE = re.compile(r"(?:~|it) deals \d+ damage to (?:any target|target [^.,]*)")
_HURT_WORDS = re.compile(r"\bdamage\b|\blos(?:e|es)\b|\bunless\b|\bpoison\b", re.IGNORECASE)

_EVENT = re.compile(r"^(?:Whenever|When) (?P<event>.+?(?:becomes tapped|for mana|activation cost)), (?P<effect>.+)$")
_SELF = re.compile(r"^~ becomes tapped$|^you tap ~ for mana$")
_ATTACHED = re.compile(r"^(?:enchanted|fortified|equipped) (?:land|creature|artifact|permanent|Forest) "
                       r"(?:becomes tapped|is tapped for mana)(?P<nontap> or a player activates an ability of "
                       r"enchanted artifact without \{T\} in its activation cost)?$")
_TAPS = re.compile(r"^(?P<who>a player|you|an opponent) taps? (?P<what>.+) for mana$")
_BECOMES = re.compile(r"^(?P<what>.+?)(?P<ctl> you control| an opponent controls)? (?P<verb>becomes tapped|is tapped "
                      r"for mana)(?P<nontap> or (?:a player|an opponent) activates an artifact's ability without "
                      r"\{T\} in its activation cost)?$")

_COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPES = ("land", "creature", "artifact", "enchantment", "permanent", "planeswalker")
_LAND_SUBTYPES = ("plains", "island", "swamp", "mountain", "forest", "desert", "gate", "cave", "sphere")


def _kind(words: list[str]) -> TapKind | None:
    """``["nonbasic", "land"]``, ``["black", "permanent"]``, ``["Island"]`` → a :class:`TapKind`."""
    types: set[str] = set()
    subs: set[str] = set()
    colors = 0
    basic = nonbasic = snow = False
    for w in words:
        low = w.lower()
        if low in _COLORS:
            colors |= type_bit(_COLORS[low])
        elif low == "nonbasic":
            nonbasic = True
        elif low == "basic":
            basic = True
        elif low == "snow":
            snow = True
        elif low in _TYPES:
            if low != "permanent":
                types.add(low)
        elif low in _LAND_SUBTYPES and w[0].isupper():
            subs.add(low)
        else:
            return None
    if not (types or subs or colors or basic or nonbasic or snow) and "permanent" not in [w.lower() for w in words]:
        return None
    return TapKind(frozenset(types), frozenset(subs), colors, basic, nonbasic, snow)


def _kinds(what: str) -> tuple[TapKind, ...] | None:
    """"a Swamp, Mountain, black permanent, or red permanent" → its alternatives."""
    text = re.sub(r"^(?:a|an) ", "", what)
    items = [i for i in re.split(r",? or |, ", text) if i]
    out: list[TapKind] = []
    for item in items:
        kind = _kind(item.split())
        if kind is None:
            return None
        out.append(kind)
    return tuple(out)


def _effects(effect: str) -> tuple[int, int, int] | None:
    """(hurt to the tapper's controller, to the trigger's controller, to its opponents) of the
    effect text, or ``None`` when it may hurt in a way not read."""
    hurt = [0, 0, 0]
    rest = effect
    for pattern in (_DAMAGE, _LOSES):
        for m in pattern.finditer(effect):
            who = m.group("who")
            slot = 1 if who == "you" else 2 if who == "each opponent" else 0
            hurt[slot] += int(m.group("n"))
            rest = rest.replace(m.group(0), "")
    rest = _CHOSEN_DAMAGE.sub("", rest)
    if _HURT_WORDS.search(rest):
        return None
    return hurt[0], hurt[1], hurt[2]


def read_tap_trigger(text: str) -> TapTrigger | None:
    """The trigger ``text`` (the card's name already replaced by ``~``) read, or ``None`` when it
    may hurt in a way not read (see the module docstring).  A text that is no trigger on tapping
    is read as harmless."""
    m = _EVENT.match(text.rstrip("."))
    if not m:
        return TapTrigger(text)
    event, effect = m.group("event"), m.group("effect")
    hurts = _effects(effect)
    if hurts is None:
        return None
    hurt, you, opponents = hurts
    if not (hurt or you or opponents):
        return TapTrigger(text)
    if effect.startswith("if ") or " if " in effect or "may" in effect:
        return None  # an intervening "if" or a choice on a hurting effect: not read
    found = TapTrigger(text, hurt=hurt, hurt_you=you, hurt_opponents=opponents)
    if _SELF.match(event):
        return _with(found, reach="self", for_mana=event.endswith("for mana"))
    if a := _ATTACHED.match(event):
        return _with(found, reach="attached", for_mana=event.endswith("for mana"), nontap=bool(a.group("nontap")))
    if t := _TAPS.match(event):
        kinds = _kinds(t.group("what"))
        if kinds is None:
            return None
        who = {"a player": "any", "you": "you", "an opponent": "opponents"}[t.group("who")]
        return _with(found, reach="kinds", kinds=kinds, controller=who, for_mana=True)
    if b := _BECOMES.match(event):
        kinds = _kinds(b.group("what"))
        if kinds is None:
            return None
        ctl = {None: "any", " you control": "you", " an opponent controls": "opponents"}[b.group("ctl")]
        return _with(found, reach="kinds", kinds=kinds, controller=ctl, for_mana=b.group("verb") != "becomes tapped",
                     nontap=bool(b.group("nontap")))
    return None


def _with(t: TapTrigger, **fields: object) -> TapTrigger:
    from dataclasses import replace
    return replace(t, **fields)  # type: ignore[arg-type]


def _about_tapping(low: str) -> bool:
    """Does the (lower-case) trigger text speak of becoming tapped or tapping for mana?"""
    return "becomes tapped" in low or ("tap" in low and "for mana" in low)


_QUOTED = re.compile(r'"[^"]*"')


def _token_abilities_only(low: str) -> bool:
    """Is every mention of tapping in the (lower-case) trigger text inside quoted abilities of a
    token it creates ("create a … token … It has "{T}: Add {C}" and "Whenever this token … becomes
    tapped, …"": The Bus Runner)?  Those are the token's own abilities, and the token is a
    permanent of its own on the board, given with its characteristics."""
    if _about_tapping(_QUOTED.sub('""', low)) or not re.search(r"\bcreate\b", low):
        return False
    for m in _QUOTED.finditer(low):
        sentence = _QUOTED.sub('""', low[:m.start()]).rsplit(". ", 1)[-1]
        if "token" not in sentence and not sentence.startswith(("it has", "they have")):
            return False
    return True


def _read(card: Card) -> tuple[tuple[str, TapTrigger | None], ...]:
    legendary = "legendary" in card.type_line.supertypes
    out: list[tuple[str, TapTrigger | None]] = []
    for trig in triggers_of(card):
        low = trig.text.lower()
        if not _about_tapping(low) or _token_abilities_only(low):
            continue
        out.append((trig.text, read_tap_trigger(self_reference(trig.text, card.name, legendary))))
    return tuple(out)


def tap_triggers_of(card: Card) -> tuple[tuple[str, TapTrigger | None], ...]:
    """Every trigger of ``card`` on becoming tapped or tapping for mana: its text and its
    reading (``None``: it may hurt in a way not read).  Kept in the card's facts."""
    facts = card.facts
    found = facts.tap_triggers
    if found is None:
        found = facts.tap_triggers = _read(card)
    return found  # type: ignore[no-any-return]
