"""What a cost clause reads of the board and of the spell being cast (CR 601.2f, 118.7).

The cast a clause is read for (:class:`Cast`), the clause and where it is printed
(:class:`Clause`), and what the readers of :mod:`~manasolver.solver.casting.modifier_clauses` and
:mod:`~manasolver.solver.casting.own_clauses` count: permanents of a type or subtype (creature types
only on creatures and kindred, changeling, land types after type changes), whether a spell could
have targets (CR 115.1), the zone it is cast from, the commanders in the command zone, the cards of a
graveyard; the regular-expression pieces their rules share.

>>> singular("Allies"), singular("Elves"), singular("Spirits")
('ally', 'elf', 'spirit')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.solver.request import SpellInfo

if TYPE_CHECKING:
    from manasolver.models.text.cost_modifiers import CostEffect

__all__ = ["ALTERNATIVE_ZONES", "base", "BATCHES", "card_has", "CARD_TYPES", "Cast", "cast_from", "Clause",
           "COLOR_WORDS", "COMBAT", "controlled", "COST", "DIR", "FILTER", "filtered", "Found", "FREE",
           "graveyard_types", "has_subtype", "historic", "in_command_zone", "is_type", "may_target",
           "modified", "NON_CREATURE_SUBTYPES", "NOT_SUBTYPES", "number", "NUMBERS", "PERMANENT_TYPES",
           "permanents_named", "Reader", "singular", "spell_has_subtype", "spell_matches", "SUPERTYPES",
           "THIS", "THIS_X", "times", "touches"]

CARD_TYPES = frozenset({"artifact", "creature", "enchantment", "instant", "sorcery", "planeswalker", "battle",
                         "land", "kindred"})


PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "planeswalker", "battle", "land"})


SUPERTYPES = frozenset({"legendary", "snow", "basic"})


COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


#: Words of a spell or permanent filter that are not subtypes, which the engine does not read there.
NOT_SUBTYPES = frozenset({"kicked", "token", "nontoken", "historic", "permanent", "multicolored", "monocolored",
                           "modified", "outlaw", "affinity", "playtest", "commander", "copy", "face-down",
                           "those", "these", "other", "such"})


#: Batches of subtypes named by one word (CR 700.15: outlaws).
BATCHES = {"outlaw": frozenset({"assassin", "mercenary", "pirate", "rogue", "warlock"})}


COMBAT = frozenset({"declare_attackers", "declare_blockers", "combat_damage", "end_of_combat"})


NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10}


#: Where a spell cast for an alternative cost is cast from, beside the keyword costs' own zones
#: (:data:`manasolver.models.text.keyword_costs.ALTERNATIVE`); others are cast from the zone the card is in.
ALTERNATIVE_ZONES = {"escape": "graveyard", "foretell": "exile", "plot": "exile"}


FREE = "without_paying_mana_cost"


@dataclass(frozen=True, slots=True)
class Cast:
    """One cast, as a clause reads it: the board, the caster, the spell and the alternative cost
    it is cast for (``None``: its mana cost)."""

    state: GameState
    player: str
    spell: SpellInfo
    alternative: str | None = None


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause of ``card`` on the battlefield (``source``) or of the spell (``source`` None)."""

    card: Card
    text: str
    source: Permanent | None
    where: str

    def refuse(self, needs: str) -> Unsupported:
        return Unsupported(f"{self.card.name}: the cost modifier \"{self.text}\" needs {needs}", self.where)

    @property
    def controller(self) -> str | None:
        return self.source.controller if self.source is not None else None


#: What a rule makes of a clause: the modifiers (kind, cost), none when it applies as nothing.
Found = list[tuple[str, ManaCost]]


Reader = Callable[[re.Match[str], Clause, Cast], Found]


# -- helpers ---------------------------------------------------------------------------------------

def number(word: str) -> int:
    return NUMBERS.get(word.lower()) or (int(word) if word.isdigit() else 0)


def times(cost: str, n: int, kind: str = "reduce") -> Found:
    """``n`` times ``cost`` as one modifier, or nothing when ``n`` is 0."""
    return [(kind, ManaCost.of(list(ManaCost.parse(cost).symbols) * n))] if n > 0 else []


@lru_cache(maxsize=256)
def base(text: str) -> CostEffect | None:
    """The board effect a rewritten clause reads as ("Artifact spells you cast cost {1} less to
    cast"), for its spell filter and whose spells it touches; ``None`` when not read."""
    from manasolver.models.text.cost_modifiers import read_cost_effects
    effects, unknown = read_cost_effects(text, "")
    if len(effects) != 1 or unknown or effects[0].subtypes & NOT_SUBTYPES:
        return None  # "kicked spells", "multicolored spells": not a subtype the filter can read
    if any(re.search(rf"\b{re.escape(sub.capitalize())}\b", text) is None for sub in effects[0].subtypes):
        return None  # subtypes are capitalized in rules text: "Until your next turn, spells" names none
    return effects[0]


def touches(effect: CostEffect, clause: Clause, cast: Cast, mine: bool | None = None) -> bool:
    """Does the board effect ``effect`` of ``clause``'s permanent touch this spell: its caster is
    the one it names (CR 109.5: "you" is its controller; ``mine``: the caster is, when given)
    and the spell has its characteristics."""
    mine = clause.controller == cast.player if mine is None else mine
    if (effect.who == "you" and not mine) or (effect.who == "opponents" and mine):
        return False
    return spell_matches(effect, cast.spell)


def filtered(words: str, rest: str, clause: Clause, cast: Cast) -> CostEffect:
    """The filter ``words`` ("Creature", "Angel spells and Human") of a board clause as a read
    effect ``"{words} spells {rest}"``; a filter the reader does not know is refused."""
    text = f"{words} spells {rest}" if words.strip() else f"Spells {rest}"
    effect = base(text)
    if effect is None:
        raise clause.refuse("a spell filter the engine does not read")
    return effect


def spell_matches(effect: CostEffect, spell: SpellInfo) -> bool:
    """True when ``spell`` has the characteristics ``effect`` names."""
    if effect.types and not effect.types & spell.types:
        return False
    if effect.not_types & spell.types:
        return False
    if effect.colors and not effect.colors & spell.colors:
        return False
    if effect.colorless and spell.colors:
        return False
    if effect.subtypes and not spell_has_subtype(spell, effect.subtypes):
        return False
    if effect.supertypes and not effect.supertypes & spell.supertypes:
        return False
    return True


def spell_has_subtype(spell: SpellInfo, subtypes: frozenset[str]) -> bool:
    """Has the spell one of ``subtypes``: a changeling creature or kindred spell has every
    creature type (CR 702.73a, in every zone)."""
    if subtypes & spell.subtypes:
        return True
    card = spell.card
    return (card is not None and "changeling" in card.keywords and bool(spell.types & {"creature", "kindred"})
            and bool(subtypes - NON_CREATURE_SUBTYPES))


def has_subtype(perm: Permanent, subtype: str, state: GameState) -> bool:
    """Does ``perm`` have ``subtype`` now: a creature type only while it is a creature or kindred
    (CR 205.3d), every creature type with changeling, a land's types after land-type changes."""
    from manasolver.models.rules.land_types import effective_subtypes
    subs = effective_subtypes(state, perm) if perm.is_land else perm.card.type_line.subtypes
    if subtype in subs:
        return not (subtype in perm.card.type_line.subtypes and "creature" in perm.card.type_line.types
                    and "creature" not in perm.types and "kindred" not in perm.types)
    return ("changeling" in perm.card.keywords and perm.is_creature
            and subtype not in NON_CREATURE_SUBTYPES)


#: Subtypes that are not creature types, for changeling (CR 205.3g-205.3k, the common ones).
NON_CREATURE_SUBTYPES = frozenset({"equipment", "aura", "vehicle", "saga", "class", "shrine", "curse", "food",
                                    "treasure", "clue", "forest", "island", "mountain", "plains", "swamp",
                                    "gate", "desert", "cave", "sphere", "lesson", "adventure", "arcane",
                                    "trap", "case", "room", "background", "cartouche", "rune", "role"})


def may_target(spell: SpellInfo) -> bool:
    """Could the spell have targets (CR 115.1): an Aura spell (303.4a), a mutating creature
    spell (702.140a), or an instant, sorcery or card of no permanent type whose text says
    "target"; any other permanent spell has none."""
    card = spell.card
    if card is None or "aura" in spell.subtypes or "mutate" in card.keywords:
        return True
    if spell.types & PERMANENT_TYPES and not spell.types & {"instant", "sorcery"}:
        return False
    texts = [card.oracle_text] + [face.oracle_text for face in card.faces]
    return any(re.search(r"\btargets?\b", re.sub(r"\([^)]*\)", "", t), re.IGNORECASE) for t in texts)


def cast_from(cast: Cast) -> str | None:
    """The zone the spell is cast from, when the query says it: an alternative cost's zone,
    else the hand when the card is in its caster's hand, the command zone when it is their
    commander and not in hand; ``None`` when neither says."""
    from manasolver.models.text.keyword_costs import ALTERNATIVE
    alt = cast.alternative
    zones = {**ALTERNATIVE, **ALTERNATIVE_ZONES}
    if alt in zones:
        return zones[alt]
    card = cast.spell.card
    if alt == FREE or card is None:
        return None
    player = cast.state.player(cast.player)
    if any(c.name == card.name for c in player.hand):
        return "hand"
    if any(c.name == card.name for c in in_command_zone(cast.state, cast.player)):
        return "command"
    return None


def in_command_zone(state: GameState, player: str) -> list[Card]:
    """The player's commanders read as in the command zone: the board lists no command zone, and a
    commander that is not on the battlefield, in hand or in the graveyard is where its owner puts
    it (CR 903.9a-b)."""
    owner = state.player(player)
    if not owner.commander:
        return []
    elsewhere = {p.card.name for p in state.battlefield} | {c.name for c in owner.hand} | \
        {c.name for c in owner.graveyard}
    return [c for c in owner.commander if c.name not in elsewhere]


def graveyard_types(words: str) -> frozenset[str]:
    """"land", "instant and sorcery", "instant and/or sorcery", "permanent" as card types; none
    when a word is not a card type (then the count is not read)."""
    if words.lower() == "permanent":
        return PERMANENT_TYPES
    split = [w for w in re.split(r"\s+|/", words.lower()) if w not in ("and", "or")]
    return frozenset(split) if all(w in CARD_TYPES for w in split) else frozenset()


def card_has(card: Card, types: frozenset[str]) -> bool:
    return bool(types & set(card.type_line.types))


def modified(perm: Permanent, state: GameState) -> bool:
    """CR 700.9: a creature with a counter, equipped, or enchanted by an Aura its controller controls."""
    if any(n > 0 for _, n in perm.counters):
        return True
    for other in state.battlefield:
        if other.attached_to != perm.id:
            continue
        subs = other.card.type_line.subtypes
        if "equipment" in subs or ("aura" in subs and other.controller == perm.controller):
            return True
    return False


def historic(perm: Permanent) -> bool:
    """CR 700.6: artifacts, legendaries and Sagas are historic."""
    return (perm.is_artifact or "legendary" in perm.card.type_line.supertypes
            or "saga" in perm.card.type_line.subtypes)


def singular(word: str) -> str:
    word = word.lower()
    if word.endswith("ves"):
        return word[:-3] + "f"
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") else word


def controlled(state: GameState, who: Iterable[str], test: Callable[[Permanent], bool]) -> int:
    names = set(who)
    return sum(1 for p in state.battlefield if p.controller in names and test(p))


def is_type(word: str) -> Callable[[Permanent], bool]:
    """A permanent of card type ``word`` ("creature")."""
    return lambda p: word in p.types


def permanents_named(what: str, state: GameState) -> Callable[[Permanent], bool] | None:
    """Which permanents ``what`` names ("snow lands", "legendary creatures", "Spirits", "tokens",
    "outlaws"), or ``None`` when the engine does not read it."""
    words = [singular(w) for w in what.split()]
    if words == ["token"]:
        return lambda p: p.token
    if len(words) == 1 and words[0] in BATCHES:
        return lambda p: any(has_subtype(p, sub, state) for sub in BATCHES[words[0]])
    if all(w in CARD_TYPES or w in SUPERTYPES for w in words):
        return lambda p: all(w in p.types or w in p.card.type_line.supertypes for w in words)
    if len(words) == 1 and words[0].isalpha() and words[0] not in NOT_SUBTYPES:
        return lambda p: has_subtype(p, words[0], state)
    return None


COST = r"(?P<cost>\{\d+\})"


DIR = r"(?P<dir>more|less)"


FILTER = r"^(?P<filter>[\w ,]+?) spells you cast "


THIS = rf"^(?:this spell|~) costs {COST} less to cast "


THIS_X = r"^this spell costs \{x\} less to cast, where x is "
