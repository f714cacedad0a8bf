"""The oracle-text parser for mana abilities (CR 605).

:func:`parse_oracle` reads a card's rules text and returns its *printed*
activated mana abilities as :class:`~manasolver.models.abilities.ManaAbility`
values, the clauses about mana it could not read (``unsupported``, verbatim,
never guessed), and the effects on mana production that a later part of the
engine will implement (``mana_effects``: triggered mana abilities, replacement
effects on mana, land-type changes, granted mana abilities).

What counts (CR 605.1a): an activated ability, with no target, that could add
mana, and that is not a loyalty ability.  Not mana abilities, and so ignored:
spells (Dark Ritual, 605.5b), triggered abilities that add mana but don't
trigger from mana abilities (Lotus Cobra's landfall, Burning-Tree Emissary's
ETB, 605.5a), abilities with a target, loyalty abilities, and abilities that
merely create tokens with mana abilities (the token has them, not the card).
The intrinsic abilities of basic land types (305.6) are added by the card
builder, not here.

>>> [a.cost.parts() for a in parse_oracle("{T}: Add {C}.\\n{U/R}, {T}: Add {U}{U}, {U}{R}, or {R}{R}.",
...                                       TypeLine.parse("Land"), "Cascade Bluffs").mana_abilities]
[['{T}'], ['{U/R}', '{T}']]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from manasolver.models.abilities import (
    AbilityCost,
    Amount,
    ManaAbility,
    Production,
    Restriction,
)
from manasolver.models.card import CARD_TYPES, SUPERTYPES, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadCost
from manasolver.models.symbols import (
    ANY_COLOR,
    ANY_TYPE,
    COLORS,
    C,
    iter_symbols,
    type_bit,
)

__all__ = [
    "MANA_EFFECT_KINDS",
    "ManaEffect",
    "ParsedText",
    "activated_parts",
    "parse_oracle",
    "self_reference",
    "strip_reminder",
]

#: The kinds of :class:`ManaEffect`.
MANA_EFFECT_KINDS = ("triggered", "replacement", "type_change", "grant")


@dataclass(frozen=True, slots=True)
class ManaEffect:
    """An effect on mana production that this parser recognises but does not model yet.

    ``kind``: ``"triggered"`` (a triggered mana ability, CR 605.1b: Wild Growth,
    Mana Flare), ``"replacement"`` (an effect that changes what a mana ability
    produces, CR 106.12b / 614: Mana Reflection, Nyxbloom Ancient, Contamination),
    ``"type_change"`` (it changes land types and so intrinsic mana abilities,
    CR 305.7: Blood Moon, Urborg, Spreading Seas) or ``"grant"`` (it gives other
    permanents a mana ability: Cryptolith Rite).  ``text`` is the clause.
    """

    kind: str
    text: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.text}"


@dataclass(frozen=True, slots=True)
class ParsedText:
    """What the parser read from one face's rules text."""

    mana_abilities: tuple[ManaAbility, ...] = ()
    unsupported: tuple[str, ...] = ()
    mana_effects: tuple[ManaEffect, ...] = ()


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_SYMBOLS = r"(?:\{[^}]+\})+"
_ADDS_MANA = re.compile(r"\badds?\b[^.]*?(?:\{[^}]+\}|\bmana\b)", re.IGNORECASE)
_ABILITY_WORD = re.compile(r"^([A-Z][a-z']+(?: [a-z']+)*) — (?=.*:)")
_LOYALTY = re.compile(r"^[+−\-–]?(?:\d+|X)$")
_SELF_WORDS = re.compile(r"\bthis (?:artifact|creature|land|permanent|enchantment|card|token|vehicle)\b",
                         re.IGNORECASE)
_PLURALS = {"elves": "elf", "dwarves": "dwarf", "wolves": "wolf", "plains": "plains", "lotuses": "lotus",
            "allies": "ally", "faeries": "faerie", "zombies": "zombie", "sorceries": "sorcery",
            "fungi": "fungus", "mice": "mouse", "myr": "myr", "sphinxes": "sphinx"}
_LAND_TYPES = ("plains", "island", "swamp", "mountain", "forest")


_FLAT_REMINDER = re.compile(r"[ \t]*\([^()]*\)")


def strip_reminder(text: str) -> str:
    """Remove reminder text: every parenthesised part, nested ones included (CR 207.2),
    with the spaces before it.  Linear: one regex pass for the usual flat case, one
    character scan when parentheses nest; an unbalanced ")" is kept."""
    if "(" not in text:
        return text.strip()
    flat = _FLAT_REMINDER.sub("", text)
    if "(" not in flat:
        return flat.strip()
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            if depth == 0:
                while out and out[-1] in " \t":
                    out.pop()
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out).strip()


def _replace_word(text: str, word: str, also_after: str) -> str:
    """Replace ``word`` by ``~`` where it stands alone: no word character (or
    apostrophe) before it, none (nor a character of ``also_after``) after it."""
    out: list[str] = []
    i = 0
    n = len(word)
    while True:
        j = text.find(word, i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        before = text[j - 1] if j else " "
        after = text[j + n] if j + n < len(text) else " "
        if (before.isalnum() or before in "_'") or (after.isalnum() or after == "_" or after in also_after):
            out.append(text[i:j + n])
        else:
            out.append(text[i:j])
            out.append("~")
        i = j + n


def self_reference(text: str, name: str, legendary: bool = False) -> str:
    """Replace the card's own name, its short name (the part before a comma of a
    legendary name; with ``legendary``, also the first word of a legendary
    creature's name, as "Rasputin" for Rasputin Dreamweaver) and "this
    artifact/creature/land/permanent" by ``~``."""
    if name and name in text:
        text = _replace_word(text, name, "")
    if name:
        short = ""
        if ", " in name:
            short = name.split(", ")[0]
        elif legendary and " " in name and len(name.split()[0]) >= 4:
            short = name.split()[0]
        if short and short in text:
            text = _replace_word(text, short, ",'")
    return _SELF_WORDS.sub("~", text) if "this " in text.lower() else text


def activated_parts(line: str) -> tuple[str, str] | None:
    """Split ``cost: effect`` at the first colon outside quotes; None when the line
    is not an activated ability (the part before the colon must hold no sentence
    and no quote).  An ability word prefix (``Formidable — ``) is dropped."""
    line = _ABILITY_WORD.sub("", line, count=1)
    depth = False
    for i, ch in enumerate(line):
        if ch in "\"“”":
            depth = not depth
        elif ch == ":" and not depth:
            cost = line[:i].strip()
            if not cost or "." in cost or "\"" in cost or len(cost) > 150:
                return None
            return cost, line[i + 1:].strip()
    return None


def _sentences(text: str) -> list[str]:
    """Split on sentence ends outside quotes."""
    out: list[str] = []
    start, quoted = 0, False
    for i, ch in enumerate(text):
        if ch in "\"“”":
            quoted = not quoted
        elif ch == "." and not quoted and (i + 1 == len(text) or text[i + 1] == " "):
            out.append(text[start:i + 1].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


class _Unreadable(Exception):
    """Raised inside the parser for a clause it does not understand."""


# ---------------------------------------------------------------------------------------------
# costs


def _number(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in _NUMBERS:
        return _NUMBERS[word]
    raise _Unreadable(word)


def _singular(word: str) -> str:
    w = word.lower()
    if w in _PLURALS:
        return _PLURALS[w]
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def _kind_word(word: str, plural: bool = True) -> str:
    """A type or subtype named in a cost or count: ``"Forests"`` → ``"forest"``;
    with ``plural=False`` the word is already singular (``"Locus"``)."""
    w = _singular(word) if plural else word.lower()
    if not re.fullmatch(r"[a-z][a-z'\-]*", w):
        raise _Unreadable(word)
    return w


def _parse_cost(text: str) -> AbilityCost:
    tap = untap = False
    mana: list[str] = []
    life = energy = tap_creatures = 0
    sac_self = False
    sacrifice: list[str] = []
    counters: list[tuple[str, int]] = []
    for part in (p.strip() for p in text.split(",")):
        low = part.lower()
        if re.fullmatch(_SYMBOLS, part):
            for sym in iter_symbols(part, "cost"):
                if sym.special == "T":
                    tap = True
                elif sym.special == "Q":
                    untap = True
                elif sym.special == "E":
                    energy += 1
                elif sym.variable:
                    raise _Unreadable(part)
                else:
                    mana.append(sym.text)
        elif m := re.fullmatch(r"pay (\d+|\w+) life", low):
            life += _number(m.group(1))
        elif m := re.fullmatch(r"pay ((?:\{e\})+)", low):
            energy += m.group(1).count("{e}")
        elif low == "sacrifice ~":
            sac_self = True
        elif m := re.fullmatch(r"sacrifice an? ([a-z][\w'\-]*)", part, re.IGNORECASE):
            sacrifice.append(_kind_word(m.group(1), plural=False))
        elif m := re.fullmatch(r"remove (an?|one|two|three|four|five|\d+) ([+\-−\d/\w]+) counters? from ~",
                               low):
            counters.append((m.group(2).replace("−", "-"), _number(m.group(1))))
        elif m := re.fullmatch(r"tap (an|one|two|three|four|five) untapped creatures? you control", low):
            tap_creatures += _number(m.group(1))
        else:
            raise _Unreadable(part)
    return AbilityCost(tap=tap, untap=untap,
                       mana=ManaCost.parse("".join(mana), "cost", allow_empty=True),
                       life=life, energy=energy, sacrifice_self=sac_self, sacrifice=tuple(sacrifice),
                       remove_counters=tuple(counters), tap_creatures=tap_creatures)


# ---------------------------------------------------------------------------------------------
# amounts


def _count_amount(text: str, plural: bool = False) -> Amount:
    """``creature you control``, ``other Elf you control``, ``basic Swamp you control``,
    ``Locus on the battlefield``, ``artifacts you control`` → a ``count`` Amount."""
    m = re.fullmatch(r"(other )?((?:basic |snow |legendary )*)([A-Za-z'\-]+) "
                     r"(you control|on the battlefield|your opponents control|an opponent controls)", text)
    if not m:
        raise _Unreadable(text)
    controller = {"you control": "you", "on the battlefield": "any",
                  "your opponents control": "opponents", "an opponent controls": "opponents"}[m.group(4)]
    kind = _kind_word(m.group(3), plural)
    supers = frozenset(m.group(2).split())
    if kind in SUPERTYPES:
        raise _Unreadable(text)
    if kind == "permanent":
        types: frozenset[str] = frozenset()
        subs: frozenset[str] = frozenset()
    elif kind in CARD_TYPES or kind == "tribal":
        types, subs = frozenset({"kindred" if kind == "tribal" else kind}), frozenset()
    elif m.group(3)[0].isupper():
        types, subs = frozenset(), frozenset({kind})
    else:
        raise _Unreadable(text)
    if not types and not subs and not supers:
        raise _Unreadable(text)
    return Amount("count", types=types, subtypes=subs, supertypes=supers, controller=controller,
                  other=bool(m.group(1)))


def _amount(text: str) -> Amount:
    """The number in "for each …", "equal to …" and "where X is …" phrases."""
    text = text.strip().rstrip(".")
    if text in ("~'s power", "its power"):
        return Amount("power")
    if m := re.fullmatch(r"(?:the number of )?([\w+\-/−]+) counters? on ~", text):
        return Amount("counters", counter=m.group(1).replace("−", "-"))
    if m := re.fullmatch(r"your devotion to (\w+)(?: and (\w+))?", text):
        mask = 0
        for word in filter(None, m.groups()):
            if word not in _COLOR_WORDS:
                raise _Unreadable(text)
            mask |= type_bit(_COLOR_WORDS[word])
        return Amount("devotion", colors=mask)
    if m := re.fullmatch(r"the number of (.+)", text):
        return _count_amount(m.group(1), plural=True)
    return _count_amount(text)


# ---------------------------------------------------------------------------------------------
# productions

_ALTERNATIVE_SPLIT = re.compile(r",? or |, ")


def _symbol_option(text: str) -> tuple[int, ...]:
    """``{U}{R}`` → ``(U, R)``; a numeral adds that much colorless (CR 106.10)."""
    slots: list[int] = []
    for sym in iter_symbols(text, "production"):
        if sym.is_numeral:
            slots.extend([C] * sym.generic)
        elif sym.colorless and not sym.colors:
            slots.append(C)
        elif sym.colors and not (sym.colorless or sym.generic or sym.phyrexian or sym.snow):
            if sym.colors.bit_count() != 1:
                raise _Unreadable(text)  # a hybrid symbol in production: not printed on cards
            slots.append(sym.colors)
        else:
            raise _Unreadable(text)
    return tuple(slots)


def _one_color_options(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple((type_bit(c),) * n for c in COLORS)


def _options(text: str) -> tuple[tuple[tuple[int, ...], ...], str, bool, int]:
    """Read what "Add …" adds, without a trailing amount phrase.

    Returns (options, reference, colors_only, reference_count).
    """
    text = text.strip()
    if m := re.fullmatch(r"(\w+) mana of any (color|type) that an? lands? (you control|an opponent controls) "
                         r"could produce", text):
        ref = "lands_you_control" if m.group(3) == "you control" else "lands_opponents_control"
        return (), ref, m.group(2) == "color", _number(m.group(1))
    if m := re.fullmatch(r"(\w+) mana of any type the sacrificed land could produce", text):
        return (), "sacrificed_land", False, _number(m.group(1))
    if m := re.fullmatch(r"(\w+) (\{[WUBRGC]\}) ?", text + " "):
        return ((_symbol_option(m.group(2)) * _number(m.group(1))),), "", False, 1
    if m := re.fullmatch(r"(\w+) mana of any one color", text):
        return _one_color_options(_number(m.group(1))), "", False, 1
    if m := re.fullmatch(r"(\w+) mana in any combination of colors", text):
        return ((ANY_COLOR,) * _number(m.group(1)),), "", False, 1
    if m := re.fullmatch(r"(\w+) mana in any combination of ((?:\{[WUBRGC]\}(?:, |,? and/or |,? or )?)+)", text):
        mask = 0
        for sym in re.findall(r"\{[WUBRGC]\}", m.group(2)):
            mask |= _symbol_option(sym)[0]
        return ((mask,) * _number(m.group(1)),), "", False, 1
    if text == "two mana of different colors":
        pairs = tuple((type_bit(a), type_bit(b)) for i, a in enumerate(COLORS) for b in COLORS[i + 1:])
        return pairs, "", False, 1
    options: list[tuple[int, ...]] = []
    for alt in _ALTERNATIVE_SPLIT.split(text):
        alt = alt.strip()
        alt = alt.removeprefix("or ")
        if re.fullmatch(_SYMBOLS, alt):
            options.append(_symbol_option(alt))
        elif m := re.fullmatch(r"(\w+) mana of any (color|type)", alt):
            n = _number(m.group(1))
            options.append((ANY_COLOR if m.group(2) == "color" else ANY_TYPE,) * n)
        else:
            raise _Unreadable(text)
    if not options or any(not o for o in options):
        raise _Unreadable(text)
    return tuple(options), "", False, 1


def _production(sentence: str) -> Production:
    """Read one "Add …." sentence."""
    body = sentence.strip().rstrip(".")
    m = re.fullmatch(r"[Aa]dd (.+)", body)
    if not m:
        raise _Unreadable(sentence)
    body = m.group(1)
    amount: Amount | None = None
    if m := re.fullmatch(r"an amount of (\{[WUBRGC]\}|mana of any one color) equal to (.+)", body):
        amount = _amount(m.group(2))
        body = "one " + m.group(1) if m.group(1).startswith("{") else "one mana of any one color"
    elif m := re.fullmatch(r"X (mana .+|\{[WUBRGC]\}), where X is (.+)", body):
        amount = _amount(m.group(2))
        body = "one " + m.group(1)
    elif m := re.fullmatch(r"(.+?) for each (.+)", body):
        amount = _amount(m.group(2))
        body = m.group(1)
    options, reference, colors_only, ref_count = _options(body)
    if amount is not None and reference:
        raise _Unreadable(sentence)
    return Production(options=options, amount=amount, reference=reference, colors_only=colors_only,
                      reference_count=ref_count)


# ---------------------------------------------------------------------------------------------
# riders after the "Add" sentence


def _restriction(sentence: str) -> Restriction:
    """Read a spending restriction sentence (CR 106.6)."""
    s = sentence.rstrip(".")
    if s == "This mana can't be spent to cast nonartifact spells":
        return Restriction(sentence, spell_types=frozenset({"artifact"}), any_ability=True)
    m = re.fullmatch(r"Spend this mana only (to cast|to activate|on) (.+)", s)
    if not m:
        raise _Unreadable(sentence)
    rest = m.group(1) + " " + m.group(2)
    if re.fullmatch(r"on costs that (?:contain|include) \{X\}", rest):
        return Restriction(sentence, abilities=True, x_only=True)
    if rest == "to activate abilities":
        return Restriction(sentence, spells=False, abilities=True)
    if m := re.fullmatch(r"to activate abilities of (.+)", rest):
        types, subs, multi, colorless = _spell_spec(m.group(1), nouns=True)
        return Restriction(sentence, spell_types=types, subtypes=subs, colorless=colorless, spells=False,
                           abilities=True)
    if rest == "to activate an ability or cast an artifact spell":
        return Restriction(sentence, spell_types=frozenset({"artifact"}), any_ability=True)
    if not rest.startswith("to cast "):
        raise _Unreadable(sentence)
    rest = rest[len("to cast "):]
    abilities = False
    am = re.fullmatch(r"(.+?),? or (?:to )?activate (?:abilities|an ability) of (.+)", rest)
    if am:
        rest, owners = am.group(1), am.group(2)
        abilities = True
    spec = _spell_spec(rest)
    if am and _spell_spec(owners, nouns=True) != spec:
        raise _Unreadable(sentence)
    types, subs, multi, colorless = spec
    return Restriction(sentence, spell_types=types, subtypes=subs, multicolored=multi, colorless=colorless,
                       abilities=abilities)


def _spell_spec(text: str, nouns: bool = False) -> tuple[frozenset[str], frozenset[str], bool, bool]:
    """``creature spells``, ``an instant or sorcery spell``, ``a Dragon creature spell``,
    ``a Cleric, Rogue, or Wizard spell``, ``colorless Eldrazi spells`` →
    (types, subtypes, multicolored, colorless); the fields hold together (AND),
    the words of an "or" list are alternatives within one field.  With ``nouns``
    the text names permanents (``artifacts``, ``Dragons``, ``an Elemental``)."""
    words = text.replace(",", " ,").split()
    if not nouns:
        if not words or _singular(words[-1]) != "spell":
            raise _Unreadable(text)
        words = words[:-1]
    if words and words[0] in ("a", "an"):
        words = words[1:]
    multi = colorless = False
    if words and words[0] == "multicolored":
        multi, words = True, words[1:]
    elif words and words[0] == "colorless":
        colorless, words = True, words[1:]
    items: list[list[str]] = [[]]
    for w in words:
        if w in ("or", "and/or", ","):
            if items[-1]:
                items.append([])
            continue
        items[-1].append(w)
    items = [i for i in items if i]
    types: set[str] = set()
    subs: set[str] = set()
    if len(items) == 1:
        for w in items[0]:
            kind = _kind_word(w)
            if kind in CARD_TYPES and w[0].islower():
                types.add(kind)
            elif w[0].isupper() and not types:
                subs.add(kind)
            else:
                raise _Unreadable(text)
        if len(types) > 1:
            raise _Unreadable(text)
    else:
        for item in items:
            if len(item) != 1:
                raise _Unreadable(text)
            kind = _kind_word(item[0])
            if kind in CARD_TYPES and item[0][0].islower():
                types.add(kind)
            elif item[0][0].isupper():
                subs.add(kind)
            else:
                raise _Unreadable(text)
        if types and subs:
            raise _Unreadable(text)
    if not (types or subs or multi or colorless):
        raise _Unreadable(text)
    return frozenset(types), frozenset(subs), multi, colorless


#: Sentences after the production that change neither what the ability adds nor what pays it.
_HARMLESS_PATTERNS: tuple[str, ...] = (
    r"~ doesn't untap during your next untap step\.",
    r"Draw (?:a card|two cards)\.",
    r"Draw a card at the beginning of the next turn's upkeep\.",
    r"You gain \w+ life\.",
    r"Put an? [\w+\-/]+ counter on ~\.",
    r"If there are no [\w+\-/]+ counters on ~, sacrifice it\.",
    (r"If this ability has been activated \w+ or more times this turn, sacrifice ~ at the beginning "
     r"of the next end step\."),
    r"Sacrifice ~ at the beginning of the next end step\.",
    r"Activate only as an instant\.",
    r"Until end of turn, you don't lose this mana as steps and phases end\.",
    r"If that mana is spent on an? [\w ]+ spell, (?:that spell|that creature|it) [^.]+\.",
    # riders on spending the mana (CR 106.6): they never change what may be paid
    r"(?:When|Whenever) (?:you spend this mana|that mana is spent) [^.]+\.",
    # delayed effects after the mana is added: they don't change this payment
    r"An opponent gains control of ~ at the beginning of the next end step\.",
    r"During your next untap step, as you untap your permanents, return ~ to its owner's hand\.",
    r"When you cast your next spell this turn, [^.]+\.",
    r"Until end of turn, you may cast that card without paying its mana cost\.",
    r"Put each other card exiled this way on the bottom of your library in a random order\.",
    r"If you control an? [\w, ]+, you gain \w+ life\.",
    r"Each (?:player|opponent) (?:loses|gains) \w+ life\.",
)


@lru_cache(maxsize=1)
def _harmless() -> tuple[re.Pattern[str], ...]:
    """The compiled :data:`_HARMLESS_PATTERNS` (compiled on first use: a light import)."""
    return tuple(re.compile(p) for p in _HARMLESS_PATTERNS)


def _read_ability(cost_text: str, effect: str, line: str) -> ManaAbility:
    """Read one activated mana ability; raise :class:`_Unreadable` for anything unclear."""
    cost = _parse_cost(cost_text)
    sentences = _sentences(effect)
    if not sentences:
        raise _Unreadable(effect)
    head = sentences[0]
    rest = sentences[1:]
    if head == "Choose a color." and rest and rest[0].startswith("Add an amount"):
        m = re.fullmatch(r"Add an amount of mana of that color equal to your devotion to that color\.", rest[0])
        if not m:
            raise _Unreadable(effect)
        production = Production(options=_one_color_options(1), amount=Amount("devotion", colors=0))
        rest = rest[1:]
    elif head == "Choose a color." and rest and (m := re.fullmatch(r"Add one mana of that color for each (.+)\.",
                                                                     rest[0])):
        production = Production(options=_one_color_options(1), amount=_amount(m.group(1)))
        rest = rest[1:]
    elif head == "Choose a player." and rest and rest[0] == "That player adds one mana of any color they choose.":
        # the controller may choose themselves; mana given to another player never pays their costs
        production = Production(options=((ANY_COLOR,),))
        rest = rest[1:]
    else:
        production = _production(head)
    damage = 0
    extra: list[str] = []
    for sentence in rest:
        if m := re.fullmatch(r"~ deals (\d+) damage to you\.", sentence):
            damage += int(m.group(1))
        elif sentence.startswith(("Spend this mana", "This mana can't be spent")):
            if production.restriction is not None:
                raise _Unreadable(sentence)
            production = replace(production, restriction=_restriction(sentence))
        elif sentence == "Activate only once each turn." and (cost.tap or cost.untap):
            extra.append(sentence)  # a {T} ability can't be activated twice anyway
        elif any(p.fullmatch(sentence) for p in _harmless()):
            extra.append(sentence)
        else:
            raise _Unreadable(sentence)
    return ManaAbility(cost=cost, production=production, text=line, damage=damage, extra=tuple(extra))


# ---------------------------------------------------------------------------------------------
# effects that are not activated mana abilities

_TYPE_WORDS = re.compile(
    r"\b(?:is|are|becomes?)(?: an?| the)? (?:every basic land type|basic land types?|land types?|Plains|Islands?|"
    r"Swamps?|Mountains?|Forests?)\b")
_LAND_WORD = re.compile(r"\blands?\b", re.IGNORECASE)
#: Lines longer than this are not oracle text (the longest real one has 645 characters).
MAX_LINE = 2000


def _changes_land_types(line: str) -> bool:
    """"Nonbasic lands are Mountains", "Enchanted land is an Island", "Each land is a
    Swamp in addition …", "… lose all land types …" (CR 305.7)."""
    if re.search(r"\blose(?:s)? all land types\b", line):
        return True
    for sentence in line.split("."):
        m = _TYPE_WORDS.search(sentence)
        if m and _LAND_WORD.search(sentence[:m.start()]):
            return True
    return False


def _tapped_for_mana(sentence: str) -> bool:
    """"tap(s/ped) … for … mana" in one sentence, found in linear time."""
    tap = re.search(r"\btap(?:s|ped)?\b", sentence)
    if not tap:
        return False
    for_ = re.search(r"\bfor\b", sentence[tap.end():])
    if for_ is None:
        return False
    return re.search(r"\bmana\b", sentence[tap.end() + for_.end():]) is not None


def _classify_static(line: str, low: str) -> str | None:
    """The kind of :class:`ManaEffect` a non-activated line is, or None."""
    triggered = low.startswith(("when ", "whenever ", "at "))
    for_mana = any(_tapped_for_mana(sentence) for sentence in low.split("."))
    if triggered:
        if for_mana and _ADDS_MANA.search(low):
            return "triggered"
        if ("mana ability" in low or "causes you to add" in low) and _ADDS_MANA.search(low):
            return "triggered"
        return None
    if for_mana and ("produce" in low or "instead" in low or _ADDS_MANA.search(low)):
        return "replacement" if ("produce" in low or "instead" in low) else "triggered"
    if re.search(r"\bwould (?:add|produce)\b", low) and "mana" in low:
        return "replacement"
    if "create" not in low and _changes_land_types(line):
        return "type_change"
    if "create" not in low and re.search(r"\b(?:has|have|gains?)\b[^\"]*\"[^\"]*:[^\"]*\badd\b", low):
        return "grant"
    return None


def parse_oracle(oracle_text: str, type_line: TypeLine, name: str) -> ParsedText:
    """Read the printed mana abilities of one face's rules text.

    ``type_line`` tells spells (instant, sorcery) from permanents: a spell's
    "Add …" is its effect, not an ability (CR 605.5b).  ``name`` is replaced by
    a self reference.  Clauses the parser does not understand that are about
    mana abilities or mana production come back in ``unsupported``, verbatim.
    """
    abilities: list[ManaAbility] = []
    unsupported: list[str] = []
    effects: list[ManaEffect] = []
    is_spell = any(t in type_line.types for t in ("instant", "sorcery"))
    leveled = False
    legendary = "legendary" in type_line.supertypes and bool({"creature", "planeswalker"} & set(type_line.types))
    for raw in (oracle_text or "").split("\n"):
        if len(raw) > MAX_LINE:
            if "mana" in raw.lower() or _ADDS_MANA.search(raw):
                unsupported.append(raw[:200] + "…")
            continue
        line = strip_reminder(raw)
        if not line or line == "//":
            continue
        if re.fullmatch(r"LEVEL \d+(?:-\d+|\+)", line):
            leveled = True  # the abilities below exist only at some levels (CR 711.2)
            continue
        text = self_reference(line, name, legendary)
        parts = activated_parts(text)
        if parts is not None:
            cost_text, effect = parts
            unquoted = _QUOTED.sub("", effect)
            if _LOYALTY.match(cost_text) or not _ADDS_MANA.search(unquoted):
                continue  # loyalty abilities are never mana abilities (605.1a)
            if re.search(r"\btargets?\b", unquoted, re.IGNORECASE):
                continue  # an ability with a target is not a mana ability (605.1a, 605.5a)
            try:
                ability = _read_ability(cost_text, effect, line)
                if leveled:
                    raise _Unreadable(line)
                abilities.append(ability)
            except (_Unreadable, BadCost):
                unsupported.append(line)
            continue
        if is_spell:
            continue
        kind = _classify_static(text, text.lower())
        if kind is not None:
            effects.append(ManaEffect(kind, line))
            unsupported.append(line)
    return ParsedText(tuple(abilities), tuple(unsupported), tuple(effects))


def reindex(abilities: list[ManaAbility] | tuple[ManaAbility, ...]) -> tuple[ManaAbility, ...]:
    """Number abilities 0, 1, … in order (SPEC §5 ``ability``)."""
    return tuple(replace(a, index=i) for i, a in enumerate(abilities))
