"""The reader of keywords a permanent gives other permanents or spells (layer 6, CR 613.1f).

It reads, one line at a time (reminder text removed), the clauses that give haste to
permanents and convoke, improvise or delve to spells:

* "Creatures you control have haste." (Fervor), "Other Goblin creatures you control get +1/+1 and
  have haste." (Goblin Chieftain), "Goblins you control have haste.", "Creature tokens you
  control have haste.", "Artifact creatures you control have haste." (Thopter Engineer);
* "All creatures have haste." (Concordant Crossroads), "All Sliver creatures have haste.";
* "Equipped creature has haste." (Lightning Greaves), "Enchanted creature gets +1/+1 and has
  haste." (an Aura or Equipment: only what it is attached to);
* "Artifact spells you cast have convoke." (Chief Engineer).

A line that gives haste in a way this reader does not follow (a condition: "As long as …", a
qualifier it can't check: "Multicolored creatures", "with a +1/+1 counter on it") is kept as a
:class:`~manasolver.models.card_text.GrantedKeyword` with ``unread`` set, so that the solver
refuses rather than treats a creature as summoning sick that may have haste.  A card's own
haste keyword is ``Card.keywords``, not read here; "except it has haste" (token copies) gives
nothing on the battlefield.
"""

from __future__ import annotations

import re

from manasolver.models.card_text import GrantedKeyword
from manasolver.models.text.oracle import GRANT_WORDS, strip_reminder
from manasolver.models.text.restrictions import Unreadable, kind_word

__all__ = ["read_color_settings", "read_granted_keywords"]


_PT = r"(?:gets? [+-]\d+/[+-]\d+,? and )?"
_HAVE = re.compile(r"(?P<all>All )?(?P<other>Other )?(?P<subject>[A-Za-z' ]+?)(?P<mine> you control)? "
                   + _PT + r"have haste(?: and [^.\"]*)?\.")
_ATTACHED = re.compile(r"(?:Equipped|Enchanted) creature (?:gets [+-]\d+/[+-]\d+(?:,| and) )?has haste\b.*")
_SPELLS = re.compile(r"(?P<kind>[A-Z][a-z]+ )?spells you cast have (?P<kw>convoke|improvise|delve)\.")
#: Qualifiers of "creatures" this reader checks: a card type, or a creature type (capitalised).
_CARD_TYPE_WORDS = {"artifact", "enchantment", "land"}
#: Capitalised words at the start of a sentence that are not creature types: not read.
_NOT_SUBTYPES = {"modified", "multicolored", "monocolored", "colorless", "commander", "nontoken", "token",
                 "white", "blue", "black", "red", "green", "tapped", "untapped", "attacking", "blocking",
                 "legendary", "nonlegendary", "each", "your", "the", "all", "other", "creatures", "creature"}


def _subject(words: str) -> tuple[frozenset[str], frozenset[str], bool] | None:
    """(types, subtypes, tokens) for the permanents a subject names, or None when unread:
    ``creatures``, ``creature tokens``, ``Sliver creatures``, ``artifact creatures``, ``Goblins``."""
    parts = words.split()
    tokens = [p.lower() for p in parts[-2:]] == ["creature", "tokens"]
    if tokens:
        parts = parts[:-2] + ["creatures"]
    if not parts:
        return None
    if parts[-1].lower() != "creatures":
        if len(parts) != 1 or not parts[0][0].isupper() or parts[0].lower().rstrip("s") in _NOT_SUBTYPES:
            return None
        try:
            return frozenset({"creature"}), frozenset({kind_word(parts[0])}), tokens
        except Unreadable:
            return None
    types = {"creature"}
    subtypes: set[str] = set()
    for word in parts[:-1]:
        if word.lower() in _CARD_TYPE_WORDS:
            types.add(word.lower())
        elif word[0].isupper() and word.lower() not in _NOT_SUBTYPES:
            subtypes.add(word.lower())
        else:
            return None
    if len(subtypes) > 1:
        return None
    return frozenset(types), frozenset(subtypes), tokens


def _read_line(line: str) -> GrantedKeyword | None:
    if m := _SPELLS.fullmatch(line):
        kind = m.group("kind")
        types = frozenset({kind.strip().lower()}) if kind else frozenset()
        return GrantedKeyword(m.group("kw"), line, scope="spells", types=types)
    if _ATTACHED.fullmatch(line):
        return GrantedKeyword("haste", line, controller="any", types=frozenset({"creature"}), attached=True)
    if (m := _HAVE.fullmatch(line)) and (m.group("all") is None) == (m.group("mine") is not None):
        read = _subject(m.group("subject"))
        if read is not None:
            types, subtypes, tokens = read
            return GrantedKeyword("haste", line, controller="you" if m.group("mine") else "any", types=types,
                                  subtypes=subtypes, other=m.group("other") is not None, tokens=tokens)
    if re.search(r"\b(?:have|has) haste\b", line) and "except it has haste" not in line:
        return GrantedKeyword("haste", line, controller="any", unread=line)
    return None


def read_granted_keywords(oracle_text: str, name: str) -> tuple[GrantedKeyword, ...]:
    """Every granted keyword in ``oracle_text`` (see the module docstring); ``name`` is the
    card's, read as "~" in its own lines.  A grant after a class level line ("{2}{R}: Level 3",
    CR 716) holds only at that level, which the board does not say: kept unread."""
    out: list[GrantedKeyword] = []
    leveled = False
    for raw in oracle_text.split("\n"):
        line = strip_reminder(raw).strip().replace(name, "~") if name else strip_reminder(raw).strip()
        leveled = leveled or bool(re.fullmatch(r"[^:]*: Level \d+", line))
        if not GRANT_WORDS.search(line):
            continue
        found = _read_line(line)
        if found is not None and leveled and not found.unread:
            found = GrantedKeyword(found.keyword, line, scope=found.scope, controller="any", unread=line)
        if found is not None:
            out.append(found)
    return tuple(out)


#: Color-setting effects (layer 5, CR 613.1d, 105.3): "Nonland permanents you control are white."
#: (Celestial Dawn), "All permanents are colorless." (Thran Lens), "All Slivers are colorless."
#: (Ghostflame Sliver), "All creatures are black" (Darkest Hour), "All nonland permanents are the
#: chosen color." (Shifting Sky), "… permanents are the chosen color in addition to their other
#: colors." (Painter's Servant).
_COLOR_SET = re.compile(r"(?:^|\. |, )(?P<all>All )?(?:(?P<non>nonland|Nonland) )?(?P<what>permanents|creatures|"
                        r"Slivers)(?P<mine> you control)? are (?P<color>white|blue|black|red|green|colorless|"
                        r"the chosen color)(?P<add> in addition to their other colors)?\b")
_COLOR_BITS = {"white": 1, "blue": 2, "black": 4, "red": 8, "green": 16, "colorless": 0}


def read_color_settings(oracle_text: str) -> tuple[tuple[str, bool, bool, int | None, bool], ...]:
    """The color-setting effects of ``oracle_text`` (see ``_COLOR_SET``), each as (what it
    reaches: ``permanents``, ``creatures`` or ``sliver``; nonland only; only its controller's;
    the color bits, or None for the chosen color; added to the other colors rather than set)."""
    out = []
    for line in oracle_text.split("\n"):
        line = strip_reminder(line)
        for m in _COLOR_SET.finditer(line):
            if m.group("all") is None and m.group("mine") is None:
                continue
            what = "sliver" if m.group("what") == "Slivers" else m.group("what")
            color = m.group("color")
            out.append((what, m.group("non") is not None, m.group("mine") is not None,
                        None if color == "the chosen color" else _COLOR_BITS[color], m.group("add") is not None))
    return tuple(out)
