"""How a deck's lands enter the battlefield and what its fetch lands find, read from their oracle text.

Each land becomes a :class:`LandRule`: whether it enters tapped always, never, or on a condition read
against the lands already played (check lands "unless you control a Plains or an Island", fast lands
"unless you control two or fewer other lands", slow lands "unless you control two or more other
lands", reveal lands "you may reveal a Plains or Island card from your hand"); shock lands ("you may pay
2 life", Shatterskull, the Hammer Pass "you may pay 3 life") enter untapped, their life paid.
A land whose "enters tapped" clause has a condition not read
here enters tapped (the cautious answer, stated in the model).  A fetch land ("Search your library for a
basic land card / an Island or Mountain card, put it onto the battlefield") is :attr:`LandRule.fetch`:
what it can find and whether the found land enters tapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manasolver.models.card import Card
from manasolver.models.text.oracle import self_reference
from manasolver.solver.supply.plain import quiet

__all__ = ["Fetch", "LandRule", "at_least_as_good", "land_rule"]

_BASIC_TYPES = ("plains", "island", "swamp", "mountain", "forest")


@dataclass(frozen=True, slots=True)
class Fetch:
    """What a fetch land finds: a land card with one of ``types`` (any land type when empty),
    ``basic`` when it must be basic; ``tapped`` when the found land enters tapped."""

    types: tuple[str, ...]
    basic: bool
    tapped: bool

    def finds(self, card: Card) -> bool:
        if "land" not in card.type_line.types:
            return False
        if self.basic and "basic" not in card.type_line.supertypes:
            return False
        return not self.types or any(t in card.type_line.subtypes for t in self.types)


@dataclass(frozen=True, slots=True)
class LandRule:
    """How one land enters: ``kind`` is ``untapped``, ``tapped``, ``check`` (untapped when a land of
    one of ``types`` is already in play), ``reveal`` (untapped when such a land is in the hand), ``fast``
    (untapped with at most ``lands`` other lands), ``slow`` (untapped with at least ``lands`` other
    lands) or ``shock`` (untapped for 2 life); ``fetch`` when it is a fetch land."""

    kind: str
    types: tuple[str, ...] = ()
    lands: int = 0
    fetch: Fetch | None = None

    def enters_tapped(self, played: tuple[Card, ...], hand: tuple[Card, ...]) -> bool:
        """Whether it enters tapped with ``played`` lands already on the battlefield and ``hand``
        the other cards in the hand."""
        if self.kind in ("untapped", "shock"):
            return False
        if self.kind == "tapped":
            return True
        if self.kind == "check":
            return not any(t in c.type_line.subtypes for c in played for t in self.types)
        if self.kind == "reveal":
            return not any(t in c.type_line.subtypes for c in hand for t in self.types)
        if self.kind == "fast":
            return len(played) > self.lands
        if self.kind == "slow":
            return len(played) < self.lands
        return True


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _types(text: str) -> tuple[str, ...]:
    return tuple(t for t in _BASIC_TYPES if re.search(rf"\b{t}\b", text))


def land_rule(card: Card) -> LandRule:
    """The :class:`LandRule` of a land card, read from its oracle text."""
    text = self_reference(card.oracle_text, card.name).lower().replace(card.name.lower(), "~")
    fetch = _fetch(text)
    if re.search(r"you may pay \d+ life\. if you don't, (it|~) enters( the battlefield)? tapped", text):
        return LandRule("shock", fetch=fetch)
    m = re.search(r"enters( the battlefield)? tapped unless you control (an? [a-z ,]+?)\.", text)
    if m:
        cond = m.group(2)
        types = _types(cond)
        if types and "legendary" not in cond and "creature" not in cond:
            return LandRule("check", types=types, fetch=fetch)
        return LandRule("tapped", fetch=fetch)
    m = re.search(r"enters( the battlefield)? tapped unless you control (\w+) or (fewer|more) other lands", text)
    if m:
        n_other = _NUMBERS.get(m.group(2), 2)
        return LandRule("fast" if m.group(3) == "fewer" else "slow", lands=n_other, fetch=fetch)
    m = re.search(r"you may reveal an? ([a-z ]+?) card from your hand\. if you don't, (it|~) enters", text)
    if m and _types(m.group(1)):
        return LandRule("reveal", types=_types(m.group(1)), fetch=fetch)
    et = card.text.enters_tapped if card.text is not None else None
    if re.search(r"~ enters( the battlefield)? tapped\.", text) or et is True:
        return LandRule("tapped", fetch=fetch)
    if et is None or re.search(r"enters( the battlefield)? tapped", text):
        return LandRule("tapped", fetch=fetch)
    return LandRule("untapped", fetch=fetch)


def _fetch(text: str) -> Fetch | None:
    m = re.search(r"sacrifice ~: search your library for (an? [a-z ]+?) card(?:s)?, put (it|them) onto the "
                  r"battlefield( tapped)?", text)
    if m is None:
        return None
    what = m.group(1)
    basic = "basic" in what
    types = _types(what)
    if not types and "land" not in what:
        return None
    return Fetch(types=types, basic=basic, tapped=m.group(3) is not None)


def _simple_colors(card: Card) -> int | None:
    """The colors a land adds when every mana ability of it is ``{T}: Add`` one mana of a fixed color
    (basics, shock lands, duals), as a WUBRG mask; ``None`` for any other land."""
    if not quiet(card) or not card.mana_abilities:
        return None
    mask = 0
    for a in card.mana_abilities:
        c, prod = a.cost, a.production
        if not (c.tap and not c.untap and not c.mana and c.life == 0 and c.energy == 0 and not c.sacrifice_self
                and not c.sacrifice and not c.remove_counters and not c.tap_creatures and not c.remove_any
                and not c.put_counters and not c.exert and not c.discard_hand and not c.unmodelled):
            return None
        if (prod.reads_board or prod.restriction is not None or prod.doubles_pool or a.damage or a.extra
                or a.condition is not None or a.per_turn):
            return None
        for option in prod.options:
            if len(option) != 1:
                return None
            mask |= option[0]
    return mask


def at_least_as_good(b: Card, ib: int, a: Card, ia: int) -> bool:
    """Whether land ``b`` fetched instead of land ``a`` (both found by one fetch land, entering no more
    tapped) leaves every later board at least as able to pay: both add one mana of a fixed color, ``b``
    every color ``a`` adds, with ``a``'s types, subtypes and supertypes (``basic`` aside).  Any later
    play that fetches ``b`` after ``a`` was fetched is matched by fetching ``a`` after ``b`` (the same
    lands in the end, a better one earlier), so the search need not try ``a`` while ``b`` is there.
    Between two lands equally good, the one of lower index is kept.  The search uses it only when ``b``
    has at least as many copies left in the library as the game has fetch lands still to play (this one
    included), so it never runs out: every later play of the branch that fetched ``a`` is then open to
    the branch that fetched ``b``, on boards with ``b`` in place of ``a``."""
    ca, cb = _simple_colors(a), _simple_colors(b)
    if ca is None or cb is None or ca & ~cb:
        return False
    ta, tb = a.type_line, b.type_line
    if ta.types != tb.types or not set(ta.subtypes) <= set(tb.subtypes) \
            or not set(ta.supertypes) - {"basic"} <= set(tb.supertypes):
        return False
    equal = ca == cb and set(ta.subtypes) == set(tb.subtypes) \
        and set(ta.supertypes) - {"basic"} == set(tb.supertypes) - {"basic"}
    return not equal or ib < ia
