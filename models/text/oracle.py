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

from manasolver.models.abilities import Amount, Condition, ManaAbility
from manasolver.models.text.mana_abilities import Unreadable, read_ability
from manasolver.models.card import TypeLine
from manasolver.models.errors import BadCost

__all__ = [
    "GRANT_WORDS",
    "GRAVEYARD_MANA",
    "MANA_EFFECT_KINDS",
    "ManaEffect",
    "ParsedText",
    "activated_parts",
    "changes_no_payment",
    "holds_any",
    "is_loyalty_cost",
    "is_mana_ability",
    "level_condition",
    "parse_oracle",
    "reindex",
    "self_reference",
    "strip_reminder",
]

#: Clauses with mana words that change no payment on the board as given, read here so that no
#: reader leaves them unread: "You may have this artifact enter as a copy of …, except … it has
#: "{T}: Add {U}."" (Machine God's Effigy: a replacement applied as it entered, CR 614.1c, 707.9;
#: what it became is on the board as the permanent's given characteristics, and a permanent that
#: names the card alone did not copy anything, as Echoing Deeps' copy clause), and an end-step
#: trigger that perpetually gives a card in the library an ability (Vigorous Farming: a card that
#: later reaches the battlefield is given with its characteristics), and an activated ability whose
#: mana a reflexive trigger adds ("…: Draft a card … When you do, add {U}{U}{U}.": Oyaminartok,
#: Polar Werebear), which is no mana ability (CR 605.1a: the ability itself adds no mana as it
#: resolves, 603.12), so it uses the stack and no payment activates it; mana it made before is the
#: board's ``pool``.
_NO_PAYMENT_CLAUSES = re.compile(
    r'You may have (?:~|this \w+) enter (?:tapped )?as a copy of [^"]+, except [^"]*"[^"]+"\.?'
    r'|At the beginning of your end step, the topmost land card in your library perpetually gains "[^"]+"\.?'
    r'|[^":.]+: [^":]+?\. When you do, add (?:\{[WUBRGC]\})+\.(?: Spend this mana only [^".]+\.)?')


#: Words one of which a line must hold for the granted-keyword reader (:mod:`.granted`) to find
#: anything in it: "have haste", "has convoke" …, as words ("ha" first and the lookbehind the ``\b``
#: before it, so that the text is scanned for it as a substring: a pattern that starts with ``\b`` is
#: tried at every position).
GRANT_WORDS = re.compile(r"ha(?<!\wha)(?:ve|s) (?:haste|convoke|improvise|delve)\b")

def changes_no_payment(clause: str) -> bool:
    """Is ``clause`` one of :data:`_NO_PAYMENT_CLAUSES`?"""
    return _NO_PAYMENT_CLAUSES.fullmatch(clause) is not None


#: The kinds of :class:`ManaEffect`.
MANA_EFFECT_KINDS = ("triggered", "replacement", "type_change", "grant", "spend_as")


@dataclass(frozen=True, slots=True)
class ManaEffect:
    """An effect on mana production that this parser recognises but does not model yet.

    ``kind``: ``"triggered"`` (a triggered mana ability, CR 605.1b: Wild Growth,
    Mana Flare), ``"replacement"`` (an effect that changes what a mana ability
    produces, CR 106.12b / 614: Mana Reflection, Nyxbloom Ancient, Contamination),
    ``"type_change"`` (it changes land types and so intrinsic mana abilities,
    CR 305.7: Blood Moon, Urborg, Spreading Seas), ``"grant"`` (it gives other
    permanents a mana ability: Cryptolith Rite) or ``"spend_as"`` (mana may be spent as
    though it were another type, CR 609.4b: Mycosynth Lattice, Celestial Dawn,
    Chromatic Orrery, Sunglasses of Urza).  ``text`` is the clause.
    The structured form of the effects the engine models is
    :func:`manasolver.models.rules.production.mana_effects_of`.
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


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
#: "add"/"adds" as a word, then a mana symbol or "mana" in the same sentence.  Here and below, a
#: pattern's first word is written first and the ``\b`` before it as a lookbehind (``a(?<!\wa)``),
#: so that the text is scanned for that letter or word before anything is tried: a pattern that
#: starts with ``\b`` is tried at every position, several times slower.
_ADDS_MANA = re.compile(r"a(?<!\wa)dds?\b[^.]*?(?:\{[^}]+\}|\bmana\b)", re.IGNORECASE)
#: An ability word or flavor word before an activated ability (CR 207.2c: it has no rules
#: meaning): "Formidable — ", "Grand Summon — ", "A Thousand Souls Die Every Day — ".
_ABILITY_WORD = re.compile(r"^((?:An? |The )?[A-Z][a-z']+(?: [A-Za-z']+)*) — (?=.*:)")
_LOYALTY = re.compile(r"^\[?[+−\-–]?(?:\d+|X)\]?$")  # "+1", and "[+1]" as MTGJSON writes it
_SELF_WORDS = re.compile(r"\bthis (?:artifact|creature|land|permanent|enchantment|card|token|vehicle|equipment|aura|"
                         r"planeswalker|battle|saga|class|case|room|spacecraft)\b",
                         re.IGNORECASE)
#: :data:`_SELF_WORDS` for ASCII text in lower case, where it finds the same places: the literal
#: "this" first, so that the text is scanned for it as a substring (a pattern that starts with
#: ``\b``, or ignores case, is tried at every position, some ten times slower); the lookbehind
#: is the ``\b`` before it.
_SELF_WORDS_LOW = re.compile(r"this(?<!\wthis) (?:artifact|creature|land|permanent|enchantment|card|token|vehicle|"
                             r"equipment|aura|planeswalker|battle|saga|class|case|room|spacecraft)\b")


#: "Whenever ~ becomes tapped, it deals N damage to you." (City of Brass).  Tapping it for mana
#: (a {T} cost) is one way it becomes tapped, so the trigger's damage is charged to every {T}
#: mana ability, as a pain land's rider is: the trigger uses the stack (it adds no mana,
#: CR 605.5a), but the damage follows from the payment all the same (policy ``min_life``).
_TAP_DAMAGE = re.compile(r"Whenever ~ becomes tapped, (?:it|~) deals (\d+) damage to you\.")

#: Doubling Cube's effect: a mana ability whose production is ``doubles_pool`` (CR 106.6 example).
_DOUBLES_POOL = "Double the amount of each type of unspent mana you have."

#: Mana text that works only while the card is in its owner's graveyard: "{1}, Exile ~ from your
#: graveyard: Add one mana of any color." (Jack-o'-Lantern), "As long as ~ is in your graveyard,
#: lands you control have …" (Riftstone Portal).  Nothing on the battlefield; the solver refuses a
#: board with such a card in the player's graveyard (``solver/supply/unmodelled.py``).
GRAVEYARD_MANA = re.compile(r"^[^:]*\bExile ~ from your graveyard\b[^:]*:.*\bAdd\b|"
                            r"^As long as ~ is in your graveyard, [^\n]*\bAdd\b")

_STATION = re.compile(r"(\d+)\+ \| ")

#: A reminder with no parenthesis inside, found by its "(" (a literal the text is scanned for: a
#: pattern that starts with the spaces before it is tried at every position, some times slower).
_FLAT_REMINDER = re.compile(r"\([^()]*\)")


def holds_any(text: str, words: tuple[str, ...]) -> bool:
    """Whether ``text`` holds one of ``words``: the readers' test of the words a clause must hold,
    made before reading it (a plain loop: twice as fast as ``any`` over a generator)."""
    for word in words:
        if word in text:
            return True
    return False


def strip_reminder(text: str) -> str:
    """Remove reminder text: every parenthesised part, nested ones included (CR 207.2),
    with the spaces before it.  Linear: one regex pass for the usual flat case, one
    character scan when parentheses nest; an unbalanced ")" is kept."""
    if "(" not in text:
        return text.strip()
    parts = _FLAT_REMINDER.split(text)  # the text around each flat reminder, spaces before it taken off
    flat = "".join([part.rstrip(" \t") for part in parts[:-1]]) + parts[-1]
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
    artifact/creature/land/permanent" by ``~``.  A rebalanced Alchemy card's text names the card
    without the "A-" of its name ("A-Vivi Ornitier" says "Vivi Ornitier's power")."""
    if name.startswith("A-") and name[2:] in text:
        text = self_reference(text, name[2:], legendary)
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
            for stat in ("power", "toughness"):  # "equal to Marwyn's power" (Marwyn, the Nurturer)
                text = text.replace(f"{short}'s {stat}", f"~'s {stat}")
    low = text.lower()
    if "this " not in low:
        return text
    if not text.isascii():
        return _SELF_WORDS.sub("~", text)
    pieces: list[str] = []
    last = 0
    for m in _SELF_WORDS_LOW.finditer(low):  # the same places as _SELF_WORDS in ``text`` (ASCII: one case each)
        pieces.append(text[last:m.start()])
        pieces.append("~")
        last = m.end()
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


#: A leveler's striation line: "LEVEL 1-4", "LEVEL 5+" (CR 711.2).
_LEVEL = re.compile(r"LEVEL (\d+)(?:-(\d+)|\+)")
#: "target" or "targets": an ability with a target is not a mana ability (CR 605.1a).
_TARGET = re.compile(r"t(?<!\wt)argets?\b", re.IGNORECASE)


def level_condition(line: str) -> Condition:
    """``LEVEL 1-4`` / ``LEVEL 5+`` (a leveler's striation, CR 711.2): the condition that the
    permanent has that many level counters (711.5: it has the abilities of that striation)."""
    m = _LEVEL.fullmatch(line)
    assert m is not None
    low, high = int(m.group(1)), int(m.group(2)) if m.group(2) else None
    return Condition(line, counts=((Amount("counters", counter="level"), low),), at_most=high)


def is_loyalty_cost(cost_text: str) -> bool:
    """``+1``, ``−2``, ``X``: a planeswalker's loyalty ability (CR 606), never a mana ability."""
    return bool(_LOYALTY.match(cost_text))


def is_mana_ability(cost_text: str, effect: str) -> bool:
    """Whether the activated ability ``cost_text: effect`` is a mana ability (CR 605.1a):
    not a loyalty ability, no target, and it could add mana (quoted text, which grants
    abilities to others, does not count); Doubling Cube's pool doubling is one too."""
    if is_loyalty_cost(cost_text):
        return False
    if effect == _DOUBLES_POOL:
        return True
    unquoted = _QUOTED.sub("", effect)
    return bool(_ADDS_MANA.search(unquoted)) and not _TARGET.search(unquoted)


def activated_parts(line: str) -> tuple[str, str] | None:
    """Split ``cost: effect`` at the first colon outside quotes; None when the line
    is not an activated ability (the part before the colon must hold no sentence
    and no quote).  An ability word prefix (``Formidable — ``) is dropped."""
    if ":" not in line:
        return None
    if " — " in line:  # (the pattern, tried on a line without its dash, backtracks over every word)
        line = _ABILITY_WORD.sub("", line, count=1)
    i = line.find(":")
    while i >= 0:
        before = line[:i]
        if (before.count("\"") + before.count("“") + before.count("”")) % 2 == 0:  # not inside quotes
            cost = before.strip()
            if not cost or "." in cost or "\"" in cost or len(cost) > 150:
                return None
            return cost, line[i + 1:].strip()
        i = line.find(":", i + 1)
    return None


# ---------------------------------------------------------------------------------------------
# effects that are not activated mana abilities

_TYPE_WORDS = re.compile(
    r"\b(?:is|are|becomes?)(?: an?| the)? (?:every basic land type|basic land types?|land types?|Plains|Islands?|"
    r"Swamps?|Mountains?|Forests?)\b")
_LAND_WORD = re.compile(r"\blands?\b", re.IGNORECASE)
_LOSES_LAND_TYPES = re.compile(r"\blose(?:s)? all land types\b")
#: Lines longer than this are not oracle text (the longest real one has 645 characters).
MAX_LINE = 2000


#: Words one of which a line that changes land types holds (:data:`_TYPE_WORDS`, :data:`_LOSES_LAND_TYPES`).
_LAND_TYPE_WORDS = ("land type", "Plains", "Island", "Swamp", "Mountain", "Forest")


def _changes_land_types(line: str) -> bool:
    """"Nonbasic lands are Mountains", "Enchanted land is an Island", "Each land is a
    Swamp in addition …", "… lose all land types …" (CR 305.7)."""
    if not holds_any(line, _LAND_TYPE_WORDS):
        return False  # (most lines: the patterns below, which start with a \b, are tried at every position)
    if _LOSES_LAND_TYPES.search(line):
        return True
    for sentence in line.split("."):
        m = _TYPE_WORDS.search(sentence)
        if m and _LAND_WORD.search(sentence[:m.start()]):
            return True
    return False


def _tapped_for_mana(sentence: str) -> bool:
    """"tap(s/ped) … for … mana" in one sentence, found in linear time."""
    tap = _TAP_WORD.search(sentence)
    if not tap:
        return False
    for_ = _FOR_WORD.search(sentence[tap.end():])
    if for_ is None:
        return False
    return _MANA_WORD.search(sentence[tap.end() + for_.end():]) is not None


#: "tap", "taps", "tapped", "for", "mana" as words: each word first and the lookbehind the ``\b``
#: before it, so that a sentence is scanned for the word as a substring (a pattern that starts with
#: ``\b`` is tried at every position).
_TAP_WORD = re.compile(r"tap(?<!\wtap)(?:s|ped)?\b")
_FOR_WORD = re.compile(r"for(?<!\wfor)\b")
_MANA_WORD = re.compile(r"mana(?<!\wmana)\b")


_SPEND_AS = re.compile(r"^(?:you|players) (?:may spend [^.]*\bmana as though it were|"
                       r"can spend mana of any (?:type|color))\b")


#: An ability word before a triggered ability, in lower case ("landfall — ").
_LOW_ABILITY_WORD = re.compile(r"^[a-z']+(?: [a-z']+)* — ")
_ATTACKS_TRIGGER = re.compile(r"^(?:when|whenever) ~ attacks\b")
_WOULD_ADD = re.compile(r"would(?<!\wwould) (?:add|produce)\b")
_GRANTS_ADD = re.compile(r"\b(?:has|have|gains?)\b[^\"]*\"[^\"]*:[^\"]*\badd\b")
_ALL_ACTIVATED = re.compile(r"ha(?<!\wha)(?:s|ve) all activated abilities of\b")
#: Every line :func:`parse_oracle` reads something from holds one of these (in lower case) or is a
#: change of land types (:func:`_holds_land_types`): a mana ability adds mana ("add", Doubling
#: Cube's "mana"), each other kind of :func:`_classify_static` names mana, adding, spending or "all
#: activated abilities of", and City of Brass's damage comes when it "becomes tapped".  A self
#: reference only takes words away.
_MANA_LINE_WORDS = ("mana", "add", "spend", "all activated abilities of", "becomes tapped")


def _holds_land_types(text: str, low: str) -> bool:
    """Whether ``text`` (``low`` in lower case) holds the words of a change of land types
    (:func:`_changes_land_types`): "land" and a land type word.  Most lines that name lands ("search
    your library for a basic land card") hold no land type word, and need no more reading."""
    return "land" in low and holds_any(text, _LAND_TYPE_WORDS)


def _classify_static(line: str, low: str) -> str | None:
    """The kind of :class:`ManaEffect` a non-activated line is, or None."""
    if _SPEND_AS.search(low):
        return "spend_as"  # changes what mana pays (609.4b): where read as a SpendAs, the payment applies it
    # an ability word ("Landfall — Whenever …") does not change what the line is (CR 207.2c); the
    # pattern is tried only on a line with its dash, as it backtracks over every word of another
    bare = _LOW_ABILITY_WORD.sub("", low) if " — " in low else low
    triggered = bare.startswith(("when ", "whenever ", "at "))
    if triggered and _ATTACKS_TRIGGER.match(low):
        return None  # a combat trigger (Pygmy Hippo): never part of paying a cost
    for_mana = any(_tapped_for_mana(sentence) for sentence in low.split("."))
    if triggered:
        if for_mana and _ADDS_MANA.search(low):
            return "triggered"
        if ("mana ability" in low or "causes you to add" in low) and _ADDS_MANA.search(low):
            return "triggered"
        return None
    if for_mana and ("produce" in low or "instead" in low or _ADDS_MANA.search(low)):
        return "replacement" if ("produce" in low or "instead" in low) else "triggered"
    if low == "if a player would add mana, instead all players add that mana.":
        return None  # Mana Abundance: the player still adds it; what others add never pays their costs
    if _WOULD_ADD.search(low) and "mana" in low:
        return "replacement"
    if "create" not in low and _changes_land_types(line):
        return "type_change"
    if '"' in low and "create" not in low and _GRANTS_ADD.search(low):  # (it quotes the ability it grants)
        return "grant"
    if _ALL_ACTIVATED.search(low) and "the chosen permanent" not in low:
        # Manascape Refractor, Necrotic Ooze, Myr Welder: mana abilities of other objects, not read
        # (Scheming Fence's chosen permanent is refused with its prohibition, CR 602.5)
        return "grant"
    return None


#: The reading of a text none of whose lines holds a word of :data:`_MANA_LINE_WORDS` or changes land types.
_NOTHING_READ = ParsedText()


def parse_oracle(oracle_text: str, type_line: TypeLine, name: str) -> ParsedText:
    """Read the printed mana abilities of one face's rules text.

    ``type_line`` tells spells (instant, sorcery) from permanents: a spell's
    "Add …" is its effect, not an ability (CR 605.5b).  ``name`` is replaced by
    a self reference.  Clauses the parser does not understand that are about
    mana abilities or mana production come back in ``unsupported``, verbatim.
    """
    lower = (oracle_text or "").lower()
    if not holds_any(lower, _MANA_LINE_WORDS) and not _holds_land_types(oracle_text or "", lower):
        return _NOTHING_READ  # most texts: no line holds a word of what is read below
    abilities: list[ManaAbility] = []
    unsupported: list[str] = []
    effects: list[ManaEffect] = []
    is_spell = "instant" in type_line.types or "sorcery" in type_line.types
    level: Condition | None = None
    tap_damage = 0
    legendary = "legendary" in type_line.supertypes and bool({"creature", "planeswalker"} & set(type_line.types))
    for raw in (oracle_text or "").split("\n"):
        if len(raw) > MAX_LINE:
            if "mana" in raw.lower() or _ADDS_MANA.search(raw):
                unsupported.append(raw[:200] + "…")
            continue
        line = strip_reminder(raw)
        if not line or line == "//":
            continue
        if line.startswith("LEVEL ") and _LEVEL.fullmatch(line):
            level = level_condition(line)  # the abilities below exist only at these levels (CR 711.2)
            continue
        station: Condition | None = None
        if m := _STATION.match(line):
            # a Spacecraft's or Planet's "12+ | …": the ability exists only while the permanent
            # has that many charge counters (station)
            charge = Amount("counters", counter="charge")
            station = Condition(f"{m.group(1)}+ charge counters (station)", counts=((charge, int(m.group(1))),))
            line = line[m.end():]
        low = line.lower()
        if not holds_any(low, _MANA_LINE_WORDS) and not _holds_land_types(line, low):
            continue  # most lines: nothing below can be read from them
        text = self_reference(line, name, legendary)
        if "graveyard" in text and GRAVEYARD_MANA.search(text):
            continue  # works only while the card is in a graveyard (Jack-o'-Lantern, Riftstone Portal)
        parts = activated_parts(text)
        if parts is not None:
            cost_text, effect = parts
            unquoted = _QUOTED.sub("", effect)
            if not _LOYALTY.match(cost_text) and effect == _DOUBLES_POOL:
                try:  # Doubling Cube: a mana ability (it could add mana, no target, CR 605.1a)
                    abilities.append(read_ability(cost_text, effect, line))
                except (Unreadable, BadCost):
                    unsupported.append(line)
                continue
            if _LOYALTY.match(cost_text) or not _ADDS_MANA.search(unquoted):
                continue  # loyalty abilities are never mana abilities (605.1a)
            if _TARGET.search(unquoted):
                continue  # an ability with a target is not a mana ability (605.1a, 605.5a)
            try:
                ability = read_ability(cost_text, effect, line)
                for limit in (level, station):
                    if limit is not None:
                        if ability.condition is not None:
                            raise Unreadable(line)
                        ability = replace(ability, condition=limit)
                abilities.append(ability)
            except (Unreadable, BadCost):
                unsupported.append(line)
            continue
        if is_spell:
            continue
        if m := _TAP_DAMAGE.fullmatch(text):
            tap_damage += int(m.group(1))  # City of Brass: put on each {T} ability below
            continue
        kind = _classify_static(text, text.lower())
        if kind is not None:
            effects.append(ManaEffect(kind, line))
            unsupported.append(line)
    if tap_damage:
        abilities = [replace(a, damage=a.damage + tap_damage) if a.cost.tap else a for a in abilities]
    return ParsedText(tuple(abilities), tuple(unsupported), tuple(effects))


def reindex(abilities: list[ManaAbility] | tuple[ManaAbility, ...]) -> tuple[ManaAbility, ...]:
    """Number abilities 0, 1, … in order (the protocol's ``ability``); one already numbered so
    is kept."""
    return tuple(a if a.index == i else replace(a, index=i) for i, a in enumerate(abilities))
