"""Building a :class:`~manasolver.models.card.Card` from a card-data record, with the reading of its text.

A record is the card data's JSON object (Scryfall's card fields), a user card file's line,
or a board's inline characteristics.  :func:`card_from_record` checks each field it reads (errors
name the field's path), parses the mana cost, the type line and the keyword lines, computes the
colors (CR 202.2, 204), adds the intrinsic abilities of basic land types (CR 305.6) to the mana
abilities the oracle parser reads, then gives the card the reading of the other oracle-text
readers (:func:`manasolver.models.text.read.read_card_text`: ``Card.text``, each field read when
first asked).  A multi-face record gives its front face with every face in ``faces``; a split
card has both halves' characteristics at once (CR 709.4).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.card import BASIC_LAND_TYPES, CARD_TYPES, SPLIT_LAYOUTS, Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadState
from manasolver.models.symbols import ANY_COLOR, mask_from_letters, type_bit
from manasolver.models.text.oracle import parse_oracle, reindex, self_reference, strip_reminder
from manasolver.models.text.read import read_card_text

__all__ = ["WHERE", "card_from_record", "color_mask", "intrinsic_abilities", "reindex_all", "str_field"]

#: The key under which a record read from a user's card file keeps its position there (``FILE:LINE``,
#: ``FILE[INDEX]``), for the errors of a card built from it; not a card field.
WHERE = "_where"

#: Keywords the engine reads, found at the start of a keyword line.
_KEYWORDS = ("haste", "flash", "convoke", "delve", "improvise", "devoid", "affinity", "impending",
             "flying", "vigilance", "trample", "reach", "defender", "changeling", "indestructible",
             "lifelink", "deathtouch", "first strike", "double strike", "menace", "hexproof", "shroud")


def str_field(record: dict[str, Any], key: str, where: str, required: bool = False) -> str:
    """The string field ``key`` of ``record`` ("" when absent and not ``required``); a BadState
    naming ``where.key`` otherwise."""
    value = record.get(key)
    if value is None:
        if required:
            raise BadState(f"a card needs a {key!r}", f"{where}.{key}" if where else key)
        return ""
    if not isinstance(value, str):
        raise BadState(f"{key!r} must be a string, not {type(value).__name__}",
                       f"{where}.{key}" if where else key)
    return value


def _cost(text: str, where: str) -> ManaCost | None:
    """The mana cost, or None for a card without one (CR 202.1b)."""
    if not text.strip():
        return None
    return ManaCost.parse(text, where)


#: The keywords by their first word (in :data:`_KEYWORDS`' order): a part of a keyword line can
#: be only a keyword whose first word it starts with.
_KEYWORDS_BY_FIRST: dict[str, tuple[str, ...]] = {
    first: tuple(k for k in _KEYWORDS if k.split()[0] == first) for first in (k.split()[0] for k in _KEYWORDS)}
_FIRST_WORD = re.compile(r"[A-Za-z]+")
_KEYWORD_SEPARATOR = re.compile(r"[,;] ")
_AFFINITY = re.compile(r"affinity for [a-z' ]+")
_IMPENDING_KEYWORD = re.compile(r"impending \d+—")
#: "Impending N—{cost}" at the start of a line (CR 702.176).
_IMPENDING_COST = re.compile(r"^Impending \d+—((?:\{[^}]+\})+)", re.MULTILINE)
_ALL_COLORS = re.compile(r"(?:^|\n|\. )~ is all colors")
_COLORLESS = re.compile(r"(?:^|\n|\. )~ is colorless")


def _keywords(oracle: str) -> frozenset[str]:
    """Lower-case keywords read from keyword lines (``Flying, haste``), with
    "affinity for artifacts" kept whole and "Impending 4—{1}{G}{G}" as "impending"."""
    found: set[str] = set()
    for raw in oracle.split("\n"):
        first = _FIRST_WORD.match(raw)
        if not first or first.group(0).lower() not in _KEYWORDS_BY_FIRST:
            continue  # a keyword line starts with a keyword
        line = strip_reminder(raw).rstrip(".")
        for part in _KEYWORD_SEPARATOR.split(line):
            low = part.strip().lower()
            for kw in _KEYWORDS_BY_FIRST.get(low.split(" ", 1)[0].split("—", 1)[0], ()):
                if low == kw or low.startswith((kw + " ", kw + "—")):
                    if kw == "affinity":
                        m = _AFFINITY.match(low)
                        if m:
                            found.add(m.group(0).strip())
                    elif low == kw or kw == "impending" and _IMPENDING_KEYWORD.match(low):
                        found.add(kw)
                    break
    return frozenset(found)


def _alternative_costs(oracle: str, where: str) -> tuple[tuple[str, ManaCost], ...]:
    """Alternative costs printed as keywords: "Impending N—{cost}" (CR 702.176)."""
    if "Impending" not in oracle:
        return ()
    out: list[tuple[str, ManaCost]] = []
    for m in _IMPENDING_COST.finditer(oracle):
        out.append(("impending", ManaCost.parse(m.group(1), f"{where}.oracle_text")))
    return tuple(out)


def _colors(record: dict[str, Any], cost: ManaCost | None, keywords: frozenset[str], oracle: str,
            name: str, where: str) -> int:
    """Colors by CR 202.2 / 204: the cost (hybrid halves included), the color
    indicator, devoid (colorless), "is all colors", "is colorless"; a given
    ``colors`` field overrides."""
    given = record.get("colors")
    if given is not None:
        return color_mask(given, f"{where}.colors" if where else "colors")
    mask = cost.colors if cost is not None else 0
    indicator = record.get("color_indicator")
    if indicator is not None:
        mask |= color_mask(indicator, f"{where}.color_indicator" if where else "color_indicator")
    if "devoid" in keywords:
        return 0
    if "colors" not in oracle and "colorless" not in oracle:
        return mask
    text = self_reference(strip_reminder(oracle), name)
    if _ALL_COLORS.search(text):
        return ANY_COLOR
    if _COLORLESS.search(text):
        return 0
    return mask


def color_mask(value: Any, where: str) -> int:
    """The color bitmask of a list of color letters (``["W", "G"]``) or one string of them; a
    BadState naming ``where`` (and the index of a bad entry) otherwise."""
    letters = value if isinstance(value, (list, tuple)) else [value] if isinstance(value, str) else None
    if letters is None:
        raise BadState(f"colors must be a list of letters such as [\"W\", \"G\"], not {value!r}", where)
    mask = 0
    for i, letter in enumerate(letters):
        if not isinstance(letter, str):
            raise BadState(f"a color is a letter W, U, B, R or G, not {letter!r}", f"{where}[{i}]")
        for ch in letter.strip().upper():
            if ch not in "WUBRG":
                raise BadState(f"unknown color {letter!r}: use W, U, B, R or G", f"{where}[{i}]")
            mask |= type_bit(ch)
    return mask


def intrinsic_abilities(type_line: TypeLine) -> tuple[ManaAbility, ...]:
    """The intrinsic ``{T}: Add [symbol]`` of each basic land type (CR 305.6), in the order
    the type line prints them: Savannah, "Land — Forest Plains", has {G} then {W}, as its
    reminder text "({T}: Add {G} or {W}.)" reads (abilities in printed order)."""
    out: list[ManaAbility] = []
    for land_type in dict.fromkeys(type_line.subtypes):
        letter = BASIC_LAND_TYPES.get(land_type)
        if letter is not None:
            out.append(ManaAbility(cost=AbilityCost(tap=True),
                                   production=Production(options=((mask_from_letters(letter),),)),
                                   text=f"{{T}}: Add {{{letter}}}.", intrinsic=True))
    return tuple(out)


def _face(record: dict[str, Any], where: str, layout: str) -> Card:
    """One face (or a single-faced card) as a Card."""
    name = str_field(record, "name", where, required=True)
    if not name.strip():
        raise BadState("a card's name can't be empty", f"{where}.name" if where else "name")
    type_text = str_field(record, "type_line", where)
    oracle = str_field(record, "oracle_text", where)
    cost = _cost(str_field(record, "mana_cost", where), f"{where}.mana_cost" if where else "mana_cost")
    type_line = TypeLine.parse(type_text)
    keywords = _keywords(oracle)
    extra_kw = record.get("keywords")
    if isinstance(extra_kw, list):
        keywords |= frozenset(str(k).lower() for k in extra_kw if isinstance(k, str)
                              and str(k).lower() != "affinity")
    parsed = parse_oracle(oracle, type_line, name)
    abilities = reindex(intrinsic_abilities(type_line) + parsed.mana_abilities)
    power = record.get("power")
    toughness = record.get("toughness")
    return _read(Card(
        name=name, mana_cost=cost, type_line=type_line,
        colors=_colors(record, cost, keywords, oracle, name, where),
        oracle_text=oracle, layout=layout,
        power=str(power) if power is not None else None,
        toughness=str(toughness) if toughness is not None else None,
        keywords=keywords, mana_abilities=abilities, unsupported=parsed.unsupported,
        alternative_costs=_alternative_costs(oracle, where),
        front_mana_cost=_front_cost(record, where),
    ))


def _read(card: Card) -> Card:
    """``card``, just made here and seen by no one else yet, with the reading of its text
    (``Card.text``, read as it is asked) stored on it: a copy of the card with its reading
    (``dataclasses.replace``) would cost more than making the reading does."""
    object.__setattr__(card, "text", read_card_text(card))
    return card


def _front_cost(record: dict[str, Any], where: str) -> ManaCost | None:
    """The front face's mana cost given to a transforming back face (CR 712.8e)."""
    text = record.get("front_mana_cost")
    if not isinstance(text, str) or not text:
        return None
    return _cost(text, f"{where}.front_mana_cost" if where else "front_mana_cost")


def card_from_record(record: dict[str, Any], where: str = "") -> Card:
    """Build a :class:`Card` from a card-data record or a board's inline characteristics.

    Inline characteristics are ``name``, ``type_line``, ``mana_cost``,
    ``oracle_text`` and optional ``colors``.  A multi-face record gives its front
    face (CR 712.8a, 715.4: an adventurer is its creature; a flip card its
    unflipped half) with ``faces`` holding every face; a split card (``split``,
    ``aftermath``) has both halves' characteristics at once (CR 709.4): its full
    name, the sum of the halves' mana costs (so mana value and colors combine,
    202.3d) and both halves' types.  Errors (a non-string field, a bad cost)
    name ``where``.
    """
    if not isinstance(record, dict):
        raise BadState(f"a card must be an object, not {type(record).__name__}", where)
    layout = record.get("layout") or "normal"
    if not isinstance(layout, str):
        raise BadState("'layout' must be a string", f"{where}.layout" if where else "layout")
    raw_faces = record.get("faces")
    if not raw_faces:
        return _face(record, where, layout)
    if not isinstance(raw_faces, list) or not all(isinstance(f, dict) for f in raw_faces):
        raise BadState("'faces' must be a list of objects", f"{where}.faces" if where else "faces")
    faces = tuple(_face(f, f"{where}.faces[{i}]" if where else f"faces[{i}]", layout)
                  for i, f in enumerate(raw_faces))
    front = faces[0]
    if layout in SPLIT_LAYOUTS:
        cost: ManaCost | None = None
        for f in faces:
            if f.mana_cost is not None:
                cost = f.mana_cost if cost is None else cost + f.mana_cost
        types = tuple(t for t in CARD_TYPES if any(t in f.type_line.types for f in faces))
        type_line = TypeLine(str_field(record, "type_line", where), front.type_line.supertypes, types,
                             tuple(dict.fromkeys(s for f in faces for s in f.type_line.subtypes)))
        colors = 0
        for f in faces:
            colors |= f.colors
        if record.get("colors") is not None:
            colors = color_mask(record["colors"], f"{where}.colors" if where else "colors")
        abilities = reindex_all(faces)
        unsupported = tuple(u for f in faces for u in f.unsupported)
        return _read(replace(front, name=str_field(record, "name", where, required=True), mana_cost=cost,
                             type_line=type_line, colors=colors, mana_abilities=abilities,
                             unsupported=unsupported, faces=faces,
                             keywords=frozenset().union(*(f.keywords for f in faces))))
    return replace(front, faces=faces)  # the front face's reading: the face it has on the battlefield


def reindex_all(faces: Iterable[Card]) -> tuple[ManaAbility, ...]:
    """The mana abilities of several faces, numbered in order."""
    return reindex([a for f in faces for a in f.mana_abilities])

