"""Cost-modifying clauses read against the board and the spell being cast (CR 601.2f, 118.7).

The card-text reader (:mod:`manasolver.models.text.cost_modifiers`) turns a clause into a
:class:`~manasolver.models.card_text.CostEffect` when its amount follows from the card alone.  The
clauses it leaves unread need the board, the spell or the cast itself: the chosen creature or
card type of Herald's Horn and Cloud Key, "the first artifact spell you cast each turn", affinity
for Spirits, the +1/+1 counters on Herald of War, the cards in a graveyard, the life gained this
turn.  Each is read here, for one cast, in one of three ways:

* it can't apply to this spell, and applies exactly as nothing: a reduction of face-down spells
  (this engine casts every spell face up: it offers no morph or disguise cost), a modifier of
  opponents' spells or of a type the spell doesn't have, a spell's own clause on a permanent
  (it works only while that card is being cast) and a permanent's static ability on the card
  being cast (it works only on the battlefield, CR 113.6), "spells that target ~" for a spell
  that has no target (a permanent spell other than an Aura or a mutating creature, CR 115.1, or
  an instant or sorcery whose text says no "target"), an alternative cost the query did not ask
  for (CR 118.9);
* its amount is on the board, and is computed: counters, permanents of a type, the cards of a
  graveyard as the board lists them (as delve reads them), ``spells_cast_this_turn`` for "the
  first … each turn", ``life_gained_this_turn``, the step (no creature attacks outside combat);
* it needs what neither the board nor the query holds (attacking creatures during combat, the
  spell's targets, a player's experience counters, the energy paid this turn, whether a loyalty
  ability was activated): :class:`~manasolver.models.errors.Unsupported` naming the card, the
  clause and what is missing, never a guess.

Fireball's "{1} more for each target beyond the first" is read for one target: the query gives no
targets, and one (or none) is the choice that adds nothing, as X is 0 when the query gives none.

>>> _rule_of("Affinity for Spirits") is not None, _rule_of("Flying") is None
(True, True)
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
from manasolver.solver.request import Modifier, SpellInfo

if TYPE_CHECKING:
    from manasolver.models.text.cost_modifiers import CostEffect

__all__ = ["Cast", "clause_modifiers", "command_zone_modifiers", "is_self_clause", "plan_spells_cast_refusal",
           "reading_of", "spell_has_subtype"]

_CARD_TYPES = frozenset({"artifact", "creature", "enchantment", "instant", "sorcery", "planeswalker", "battle",
                         "land", "kindred"})
_PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "planeswalker", "battle", "land"})
_SUPERTYPES = frozenset({"legendary", "snow", "basic"})
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
#: Words of a spell or permanent filter that are not subtypes, which the engine does not read there.
_NOT_SUBTYPES = frozenset({"kicked", "token", "nontoken", "historic", "permanent", "multicolored", "monocolored",
                           "modified", "outlaw", "affinity", "playtest", "commander", "copy", "face-down",
                           "those", "these", "other", "such"})
#: Batches of subtypes named by one word (CR 700.15: outlaws).
_BATCHES = {"outlaw": frozenset({"assassin", "mercenary", "pirate", "rogue", "warlock"})}
_COMBAT = frozenset({"declare_attackers", "declare_blockers", "combat_damage", "end_of_combat"})
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10}
#: Where a spell cast for an alternative cost is cast from, beside the keyword costs' own zones
#: (:data:`manasolver.models.text.keyword_costs.ALTERNATIVE`); others are cast from the zone the card is in.
_ALTERNATIVE_ZONES = {"escape": "graveyard", "foretell": "exile", "plot": "exile"}
_FREE = "without_paying_mana_cost"


@dataclass(frozen=True, slots=True)
class Cast:
    """One cast, as a clause reads it: the board, the caster, the spell and the alternative cost
    it is cast for (``None``: its mana cost)."""

    state: GameState
    player: str
    spell: SpellInfo
    alternative: str | None = None


@dataclass(frozen=True, slots=True)
class _Clause:
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
_Found = list[tuple[str, ManaCost]]
_Reader = Callable[[re.Match[str], _Clause, Cast], _Found]


# -- helpers ---------------------------------------------------------------------------------------

def _number(word: str) -> int:
    return _NUMBERS.get(word.lower()) or (int(word) if word.isdigit() else 0)


def _times(cost: str, n: int, kind: str = "reduce") -> _Found:
    """``n`` times ``cost`` as one modifier, or nothing when ``n`` is 0."""
    return [(kind, ManaCost.of(list(ManaCost.parse(cost).symbols) * n))] if n > 0 else []


@lru_cache(maxsize=256)
def _base(text: str) -> CostEffect | None:
    """The board effect a rewritten clause reads as ("Artifact spells you cast cost {1} less to
    cast"), for its spell filter and whose spells it touches; ``None`` when not read."""
    from manasolver.models.text.cost_modifiers import read_cost_effects
    effects, unknown = read_cost_effects(text, "")
    if len(effects) != 1 or unknown or effects[0].subtypes & _NOT_SUBTYPES:
        return None  # "kicked spells", "multicolored spells": not a subtype the filter can read
    if any(re.search(rf"\b{re.escape(sub.capitalize())}\b", text) is None for sub in effects[0].subtypes):
        return None  # subtypes are capitalized in rules text: "Until your next turn, spells" names none
    return effects[0]


def _touches(effect: CostEffect, clause: _Clause, cast: Cast, mine: bool | None = None) -> bool:
    """Does the board effect ``effect`` of ``clause``'s permanent touch this spell: its caster is
    the one it names (CR 109.5: "you" is its controller; ``mine``: the caster is, when given)
    and the spell has its characteristics."""
    from manasolver.solver.casting.modifiers import spell_matches
    mine = clause.controller == cast.player if mine is None else mine
    if (effect.who == "you" and not mine) or (effect.who == "opponents" and mine):
        return False
    return spell_matches(effect, cast.spell)


def _filtered(words: str, rest: str, clause: _Clause, cast: Cast) -> CostEffect:
    """The filter ``words`` ("Creature", "Angel spells and Human") of a board clause as a read
    effect ``"{words} spells {rest}"``; a filter the reader does not know is refused."""
    text = f"{words} spells {rest}" if words.strip() else f"Spells {rest}"
    effect = _base(text)
    if effect is None:
        raise clause.refuse("a spell filter the engine does not read")
    return effect


def spell_has_subtype(spell: SpellInfo, subtypes: frozenset[str]) -> bool:
    """Has the spell one of ``subtypes``: a changeling creature or kindred spell has every
    creature type (CR 702.73a, in every zone)."""
    if subtypes & spell.subtypes:
        return True
    card = spell.card
    return (card is not None and "changeling" in card.keywords and bool(spell.types & {"creature", "kindred"})
            and bool(subtypes - _NON_CREATURE_SUBTYPES))


def _has_subtype(perm: Permanent, subtype: str, state: GameState) -> bool:
    """Does ``perm`` have ``subtype`` now: a creature type only while it is a creature or kindred
    (CR 205.3d), every creature type with changeling, a land's types after land-type changes."""
    from manasolver.models.rules.land_types import effective_subtypes
    subs = effective_subtypes(state, perm) if perm.is_land else perm.card.type_line.subtypes
    if subtype in subs:
        return not (subtype in perm.card.type_line.subtypes and "creature" in perm.card.type_line.types
                    and "creature" not in perm.types and "kindred" not in perm.types)
    return ("changeling" in perm.card.keywords and perm.is_creature
            and subtype not in _NON_CREATURE_SUBTYPES)


#: Subtypes that are not creature types, for changeling (CR 205.3g-205.3k, the common ones).
_NON_CREATURE_SUBTYPES = frozenset({"equipment", "aura", "vehicle", "saga", "class", "shrine", "curse", "food",
                                    "treasure", "clue", "forest", "island", "mountain", "plains", "swamp",
                                    "gate", "desert", "cave", "sphere", "lesson", "adventure", "arcane",
                                    "trap", "case", "room", "background", "cartouche", "rune", "role"})


def _may_target(spell: SpellInfo) -> bool:
    """Could the spell have targets (CR 115.1): an Aura spell (303.4a), a mutating creature
    spell (702.140a), or an instant, sorcery or card of no permanent type whose text says
    "target"; any other permanent spell has none."""
    card = spell.card
    if card is None or "aura" in spell.subtypes or "mutate" in card.keywords:
        return True
    if spell.types & _PERMANENT_TYPES and not spell.types & {"instant", "sorcery"}:
        return False
    texts = [card.oracle_text] + [face.oracle_text for face in card.faces]
    return any(re.search(r"\btargets?\b", re.sub(r"\([^)]*\)", "", t), re.IGNORECASE) for t in texts)


def _cast_from(cast: Cast) -> str | None:
    """The zone the spell is cast from, when the query says it: an alternative cost's zone,
    else the hand when the card is in its caster's hand, the command zone when it is their
    commander and not in hand; ``None`` when neither says."""
    from manasolver.models.text.keyword_costs import ALTERNATIVE
    alt = cast.alternative
    zones = {**ALTERNATIVE, **_ALTERNATIVE_ZONES}
    if alt in zones:
        return zones[alt]
    card = cast.spell.card
    if alt == _FREE or card is None:
        return None
    player = cast.state.player(cast.player)
    if any(c.name == card.name for c in player.hand):
        return "hand"
    if any(c.name == card.name for c in _in_command_zone(cast.state, cast.player)):
        return "command"
    return None


def _in_command_zone(state: GameState, player: str) -> list[Card]:
    """The player's commanders read as in the command zone: the board lists no command zone, and a
    commander that is not on the battlefield, in hand or in the graveyard is where its owner puts
    it (CR 903.9a-b)."""
    owner = state.player(player)
    if not owner.commander:
        return []
    elsewhere = {p.card.name for p in state.battlefield} | {c.name for c in owner.hand} | \
        {c.name for c in owner.graveyard}
    return [c for c in owner.commander if c.name not in elsewhere]


def _graveyard_types(words: str) -> frozenset[str]:
    """"land", "instant and sorcery", "instant and/or sorcery", "permanent" as card types; none
    when a word is not a card type (then the count is not read)."""
    if words.lower() == "permanent":
        return _PERMANENT_TYPES
    split = [w for w in re.split(r"\s+|/", words.lower()) if w not in ("and", "or")]
    return frozenset(split) if all(w in _CARD_TYPES for w in split) else frozenset()


def _card_has(card: Card, types: frozenset[str]) -> bool:
    return bool(types & set(card.type_line.types))


def _modified(perm: Permanent, state: GameState) -> bool:
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


def _historic(perm: Permanent) -> bool:
    """CR 700.6: artifacts, legendaries and Sagas are historic."""
    return (perm.is_artifact or "legendary" in perm.card.type_line.supertypes
            or "saga" in perm.card.type_line.subtypes)


def _singular(word: str) -> str:
    word = word.lower()
    if word.endswith("ves"):
        return word[:-3] + "f"
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") else word


def _controlled(state: GameState, who: Iterable[str], test: Callable[[Permanent], bool]) -> int:
    names = set(who)
    return sum(1 for p in state.battlefield if p.controller in names and test(p))


def _is_type(word: str) -> Callable[[Permanent], bool]:
    """A permanent of card type ``word`` ("creature")."""
    return lambda p: word in p.types


# -- board clauses (of a permanent on the battlefield) ---------------------------------------------

def _face_down(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return []  # every spell this engine casts is face up


def _first_each_turn(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    before = cast.state.player(cast.player).spells_cast_this_turn
    if before == 0:
        return _times(m["cost"], 1)
    raise clause.refuse(f"whether a {m['filter'].lower()} spell was among the {before} spells already cast "
                        "this turn (the board gives only spells_cast_this_turn)")


def _chosen_type(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    rest = f"{m['who']}cost {m['cost']} {m['dir']} to cast"
    effect = _filtered(m["filter"] or "", rest, clause, cast)
    if not _touches(effect, clause, cast):
        return []
    assert clause.source is not None
    chosen = clause.source.chosen_type
    if chosen is None:
        raise Unsupported(f"{clause.card.name}: the cost modifier \"{clause.text}\" needs the type chosen as it "
                          f"entered (chosen.type)", f"{clause.where}.chosen.type")
    oracle = clause.card.oracle_text.lower()
    card_type = "choose a card type" in oracle or re.search(r"choose artifact, creature", oracle) is not None
    if card_type:
        if chosen not in _CARD_TYPES:
            raise Unsupported(f"{clause.card.name} chooses a card type, and {chosen!r} is not one",
                              f"{clause.where}.chosen.type")
        hit = chosen in cast.spell.types
    else:
        hit = bool(cast.spell.types & {"creature", "kindred"}) and spell_has_subtype(cast.spell, frozenset({chosen}))
    return [(effect.kind, effect.cost)] if hit and effect.cost is not None else []


def _with_keyword(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} {m['dir']} to cast", clause, cast)
    card = cast.spell.card
    if not _touches(effect, clause, cast) or card is None or m["keyword"].lower() not in card.keywords:
        return []
    return [(effect.kind, ManaCost.parse(m["cost"]))]


def _with_power(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    card = cast.spell.card
    if not _touches(effect, clause, cast) or card is None or "creature" not in cast.spell.types:
        return []
    try:
        power = int(card.power or "0")
    except ValueError:
        raise clause.refuse(f"{card.name}'s power on the stack, {card.power!r}, which the engine does not "
                            "evaluate") from None
    return _times(m["cost"], 1) if power >= int(m["n"]) else []


def _per_counter_on_self(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    assert clause.source is not None
    return _times(m["cost"], clause.source.counter(m["kind"].lower()))


def _player_counters(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    raise clause.refuse(f"how many {m['kind'].lower()} counters its controller has (the board holds no "
                        "counters on players)")


def _targeting(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    mine = clause.controller == cast.player
    who = (m["who"] or "").strip().lower()
    if (who == "you cast" and not mine) or (who == "your opponents cast" and mine):
        return []
    if not _may_target(cast.spell):
        return []
    raise clause.refuse("the spell's targets, which the query does not give")


def _granted(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """Jubilant Skybonder: its creatures have "Spells your opponents cast that target this
    creature cost {2} more to cast."; read as the creatures' own clause (their controller is
    the source's)."""
    rule = _rule_of(m["inner"])
    if rule is None or rule[1] is not _targeting:
        raise clause.refuse("an ability it grants that the engine does not read")
    return _targeting(rule[0], clause, cast)


def _board_count_with_counter(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    return _count_with_counter(m, clause, cast)


def _granted_alternative(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return []  # an alternative cost is paid only when the query asks for it (CR 118.9)


def _chosen_colors(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    if clause.controller != cast.player or not cast.spell.colors:
        return []
    assert clause.source is not None
    if "choose two colors" in clause.card.oracle_text.lower():
        raise clause.refuse("the two colors chosen as it entered (the board holds one chosen color)")
    color = clause.source.chosen_color
    if color is None:
        raise Unsupported(f"{clause.card.name}: the cost modifier \"{clause.text}\" needs the color chosen as "
                          f"it entered (chosen.color)", f"{clause.where}.chosen.color")
    from manasolver.models.symbols import type_bit
    return _times(m["cost"], 1) if cast.spell.colors & type_bit(color) else []


def _from_zone(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"] or "", f"you cast cost {m['cost']} {m['dir']} to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    zone = _cast_from(cast)
    if zone is None:
        raise clause.refuse("the zone the spell is cast from, which the query does not say (the card is not "
                            "in its caster's hand)")
    wanted = m["zone"].lower()
    hit = zone != "hand" if wanted == "anywhere other than your hand" else zone == wanted.split()[-1]
    return [(effect.kind, ManaCost.parse(m["cost"]))] if hit else []


def _until_effect(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _base(f"{m['filter']} spells cost {m['cost']} {m['dir']} to cast")
    from manasolver.solver.casting.modifiers import spell_matches
    if effect is not None and not spell_matches(effect, cast.spell):
        return []
    raise clause.refuse("whether the ability that makes this effect was activated, and for which player (the "
                        "board does not say)")


def _during_turns(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """Geyser Drake: "During turns other than yours, spells you cast cost {1} less"; "During your
    turn, …": nothing on the other turns, the rest of the clause read on the ones named."""
    theirs = m["whose"].lower() == "turns other than yours"
    if (cast.state.turn.active == clause.controller) == theirs:
        return []
    rest = m["rest"][0].upper() + m["rest"][1:]
    rule = _rule_of(rest)
    if rule is not None and rule[1] is not _board_filter_only:
        return rule[1](rule[0], _Clause(clause.card, rest, clause.source, clause.where), cast)
    effect = _base(rest)
    if effect is None or effect.cost is None or effect.per:
        raise Unsupported(f"{clause.card.name}: the engine does not understand the cost modifier \"{clause.text}\"",
                          clause.where)
    return [(effect.kind, effect.cost)] if _touches(effect, clause, cast) else []


def _commander(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    card = cast.spell.card
    if clause.controller != cast.player or card is None:
        return []
    commanders = cast.state.player(cast.player).commander
    if any(c.name == card.name for c in commanders) or (
            not commanders and "legendary" in cast.spell.supertypes
            and cast.spell.types & {"creature", "planeswalker"}):
        raise clause.refuse("how many times the commander was cast from the command zone this game (the "
                            "board does not say)")
    return []


def _eminence(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return _eminence_for(m, clause, cast, mine=clause.controller == cast.player)


def _eminence_for(m: re.Match[str], clause: _Clause, cast: Cast, mine: bool) -> _Found:
    """An eminence clause whose card is its caster's (``mine``) or another player's."""
    rest = re.sub(r"^other ", "", m["rest"], flags=re.IGNORECASE)
    effect = _base(rest[0].upper() + rest[1:])
    if effect is None or effect.cost is None:
        raise clause.refuse("a spell filter the engine does not read")
    return [(effect.kind, effect.cost)] if _touches(effect, clause, cast, mine) else []


# -- the spell's own clauses -----------------------------------------------------------------------

def _attacking(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    if cast.state.turn.step not in _COMBAT:
        return []  # no creature is attacking outside the combat steps (CR 506.4, 508.1)
    raise clause.refuse("which creatures are attacking, which the board does not hold")


def _count_opponents(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    word = _singular(m["what"])
    if word not in _CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    return _times(m["cost"], _controlled(cast.state, cast.state.opponents_of(cast.player), _is_type(word)))


def _count_with_counter(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    word, kind = _singular(m["what"]), m["kind"].lower()
    if word not in _CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    return _times(m["cost"], _controlled(cast.state, [cast.player],
                                         lambda p: word in p.types and p.counter(kind) > 0))


def _count_modified(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    state = cast.state
    return _times(m["cost"], _controlled(state, [cast.player], lambda p: p.is_creature and _modified(p, state)))


def _graveyard_count(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    types = _graveyard_types(m["what"])
    if not types:
        raise clause.refuse("a count the engine does not read")
    graveyard = cast.state.player(cast.player).graveyard
    return _times(m["cost"], sum(1 for c in graveyard if _card_has(c, types)))


def _graveyard_mana_values(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    graveyard = cast.state.player(cast.player).graveyard
    return _times(m["cost"], len({c.mana_value for c in graveyard}))


def _graveyards_at_least(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    types, n = _graveyard_types(m["what"]), _number(m["n"])
    if not types or not n:
        raise clause.refuse("a count the engine does not read")
    players = cast.state.players if m["whose"].lower().endswith("all graveyards") else \
        (cast.state.player(cast.player),)
    total = sum(1 for p in players for c in p.graveyard if _card_has(c, types))
    return _times(m["cost"], 1) if total >= n else []


def _life_gained(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    gained = cast.state.player(cast.player).life_gained_this_turn
    if gained is None:
        raise Unsupported(f"{clause.card.name}: the cost modifier \"{clause.text}\" needs the life its caster "
                          "gained this turn (life_gained_this_turn)", "state.players.life_gained_this_turn")
    return _times(m.groupdict().get("cost") or "{1}", gained)


def _opponent_no_basics(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    state = cast.state
    for name in state.opponents_of(cast.player):
        if not _controlled(state, [name], lambda p: p.is_land and "basic" in p.card.type_line.supertypes):
            return _times(m["cost"], 1)
    return []


def _control_with_keyword(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    word, keyword = _singular(m["what"]), m["keyword"].lower()
    if word not in _CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    mine = cast.state.controlled_by(cast.player)
    if any(word in p.types and keyword in p.card.keywords for p in mine):
        return _times(m["cost"], 1)
    if any(keyword in p.card.oracle_text.lower() and re.search(rf"\b(?:have|has|gains?) [\w, ]*{keyword}",
                                                              p.card.oracle_text.lower())
           for p in cast.state.battlefield):
        raise clause.refuse(f"which creatures have {keyword}: a permanent grants it by an effect the engine "
                            "does not read")
    return []


def _affinity(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """Affinity for [text] (702.41a): "This spell costs {1} less to cast for each [text] you control"."""
    what = m["what"].lower()
    test = _historic if what == "historic permanents" else _permanents_named(what.removesuffix(" permanents"),
                                                                              cast.state)
    if test is None:
        raise clause.refuse("a count the engine does not read")
    return _times("{1}", _controlled(cast.state, [cast.player], test))


def _permanents_named(what: str, state: GameState) -> Callable[[Permanent], bool] | None:
    """Which permanents ``what`` names ("snow lands", "legendary creatures", "Spirits", "tokens",
    "outlaws"), or ``None`` when the engine does not read it."""
    words = [_singular(w) for w in what.split()]
    if words == ["token"]:
        return lambda p: p.token
    if len(words) == 1 and words[0] in _BATCHES:
        return lambda p: any(_has_subtype(p, sub, state) for sub in _BATCHES[words[0]])
    if all(w in _CARD_TYPES or w in _SUPERTYPES for w in words):
        return lambda p: all(w in p.types or w in p.card.type_line.supertypes for w in words)
    if len(words) == 1 and words[0].isalpha() and words[0] not in _NOT_SUBTYPES:
        return lambda p: _has_subtype(p, words[0], state)
    return None


def _energy_paid(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    raise clause.refuse("the energy paid or lost this turn, which the board does not hold (only the energy "
                        "its player has)")


def _damage_dealt(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    raise clause.refuse("the damage dealt this turn, which the board does not hold")


def _exiled_this_way(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    raise clause.refuse("how many cards are exiled as its additional cost, which the query can't say")


def _permanents_at_least(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    words = m["what"].lower().split()
    wanted = {w for w in words if w in _CARD_TYPES}
    unwanted = {w[3:].strip("-") for w in words if w.startswith("non") and w[3:].strip("-") in _CARD_TYPES}
    n = _number(m["n"])
    if not n or len(wanted) + len(unwanted) != len(words):
        raise clause.refuse("a count the engine does not read")
    total = sum(1 for p in cast.state.battlefield
                if (not wanted or wanted & set(p.types)) and not unwanted & set(p.types))
    return _times(m["cost"], 1) if total >= n else []


def _greatest_power(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    from manasolver.models.rules.amounts import power_of
    powers = [power_of(p) for p in cast.state.controlled_by(cast.player) if p.is_creature]
    return _times("{1}", max([0, *powers]))


def _party(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """CR 700.8: a party is up to one each of Cleric, Rogue, Warrior and Wizard among the
    creatures you control; its size is the largest such choice."""
    state = cast.state
    roles = [frozenset(r for r in _PARTY if _has_subtype(p, r, state))
             for p in state.controlled_by(cast.player) if p.is_creature]
    return _times(m["cost"], _largest_party([r for r in roles if r], frozenset(_PARTY)))


_PARTY = ("cleric", "rogue", "warrior", "wizard")


def _largest_party(roles: list[frozenset[str]], free: frozenset[str]) -> int:
    """The most of ``free`` roles that distinct creatures (each with its ``roles``) can fill."""
    if not roles or not free:
        return 0
    first, rest = roles[0], roles[1:]
    best = _largest_party(rest, free)
    for role in first & free:
        best = max(best, 1 + _largest_party(rest, free - {role}))
    return best


def _attacking_you(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    if cast.state.turn.step not in _COMBAT:
        return []  # no creature is attacking outside the combat steps (CR 506.4, 508.1)
    raise clause.refuse("which creatures are attacking, which the board does not hold")


def _cast_another(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return _times(m["cost"], 1) if cast.state.player(cast.player).spells_cast_this_turn else []


def _spells_cast_of_kind(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    if cast.state.player(cast.player).spells_cast_this_turn == 0:
        return []
    raise clause.refuse("which kinds of spells were cast this turn (the board gives only spells_cast_this_turn)")


def _drawn(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return _times(m["cost"], cast.state.player(cast.player).cards_drawn_this_turn)


def _devotion(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    from manasolver.models.rules.amounts import devotion
    from manasolver.models.symbols import type_bit
    color = _COLOR_WORDS[m["color"].lower()]
    return _times("{1}", devotion(cast.state, cast.player, type_bit(color)))


def _graveyard_card_types(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    from manasolver.models.rules.counts import card_types_of
    found = {t for c in cast.state.player(cast.player).graveyard for t in card_types_of(c)}
    if not m["n"]:
        return _times(m["cost"], len(found))
    return _times(m["cost"], 1) if len(found) >= _number(m["n"]) else []


def _colors_among(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    from manasolver.models.rules.counts import colors_among_permanents
    return _times(m["cost"], len(colors_among_permanents(cast.state, cast.player)))


def _control_at_least(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """"if you control two or more legendary creatures", "if you control a Wizard"."""
    n = 1 if m["n"].lower() in ("a", "an") else _number(m["n"])
    test = _permanents_named(m["what"], cast.state)
    if test is None or not n:
        raise clause.refuse("a count the engine does not read")
    return _times(m["cost"], 1) if _controlled(cast.state, [cast.player], test) >= n else []


def _control_power(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    from manasolver.models.rules.amounts import power_of
    mine = cast.state.controlled_by(cast.player)
    return _times(m["cost"], 1) if any(p.is_creature and power_of(p) >= int(m["n"]) for p in mine) else []


def _opponents(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return _times(m["cost"], len(cast.state.opponents_of(cast.player)))


def _graveyard_size(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    size = len(cast.state.player(cast.player).graveyard)
    return _times(m["cost"], 1) if size >= _number(m["n"]) else []


def _opponents_spells(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    state = cast.state
    return _times(m["cost"], sum(state.player(o).spells_cast_this_turn for o in state.opponents_of(cast.player)))


def _an_opponent_did(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """"if an opponent cast two or more spells this turn", "has drawn four or more cards"."""
    state = cast.state
    field = "spells_cast_this_turn" if m["what"].lower().startswith("cast") else "cards_drawn_this_turn"
    n = _number(m["n"])
    if not n:
        raise clause.refuse("a count the engine does not read")
    hit = any(getattr(state.player(o), field) >= n for o in state.opponents_of(cast.player))
    return _times(m["cost"], 1) if hit else []


def _end_step(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    turn = cast.state.turn
    return _times(m["cost"], 1) if turn.active == cast.player and turn.step == "end" else []


def _second_each_turn(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    if clause.controller != cast.player:
        return []
    return _times(m["cost"], 1) if cast.state.player(cast.player).spells_cast_this_turn == 1 else []


def _board_count_tokens(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    word = _singular(m["what"])
    if not _touches(effect, clause, cast):
        return []
    if word not in _CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    return _times(m["cost"], _controlled(cast.state, [cast.player], lambda p: p.token and word in p.types))


def _board_count_you_control(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """Sokka, Swordmaster: "Equipment spells you cast cost {1} less to cast for each Ally you control"."""
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    word, state = _singular(m["what"]), cast.state
    if word in _CARD_TYPES:
        return _times(m["cost"], _controlled(state, [cast.player], _is_type(word)))
    if word in _NOT_SUBTYPES or not m["what"][0].isupper():
        raise clause.refuse("a count the engine does not read")
    return _times(m["cost"], _controlled(state, [cast.player], lambda p: _has_subtype(p, word, state)))


def _board_source_power(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    from manasolver.models.rules.amounts import power_of
    effect = _filtered(m["filter"], "you cast cost {1} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    assert clause.source is not None
    return _times("{1}", max(0, power_of(clause.source)))


def _board_life_gained(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], "you cast cost {1} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    return _life_gained(m, clause, cast)


def _board_graveyard_subtype(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    effect = _filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not _touches(effect, clause, cast):
        return []
    word = _singular(m["what"])
    found = sum(1 for c in cast.state.player(cast.player).graveyard if word in c.type_line.subtypes)
    return _times(m["cost"], 1) if found >= _number(m["n"]) else []


def _board_filter_only(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    """A board clause whose amount the engine does not read: exact as nothing when its spell
    filter or its "you"/"your opponents" leaves this spell out, refused otherwise."""
    words = m["filter"] or ""
    effect = _base(f"{words} spells {m['who']}cost {{1}} less to cast" if words.strip()
                   else f"Spells {m['who']}cost {{1}} less to cast")
    if effect is not None and not _touches(effect, clause, cast):
        return []
    raise Unsupported(f"{clause.card.name}: the engine does not understand the cost modifier \"{clause.text}\"",
                      clause.where)


def _per_target(m: re.Match[str], clause: _Clause, cast: Cast) -> _Found:
    return []  # read for one target: the query gives none, and one adds nothing


_COST = r"(?P<cost>\{\d+\})"
_DIR = r"(?P<dir>more|less)"
_FILTER = r"^(?P<filter>[\w ,]+?) spells you cast "
_THIS = rf"^(?:this spell|~) costs {_COST} less to cast "
_THIS_X = r"^this spell costs \{x\} less to cast, where x is "
#: Clauses of a permanent on the battlefield: (pattern, reader).
_BOARD_RULES: tuple[tuple[str, _Reader], ...] = (
    (r"\bface-down\b.*\bspells?\b.*\bcosts? \{\d+\} (?:more|less) to cast$", _face_down),
    (rf"^the first (?P<filter>[\w ,\-]+?) spell you cast each turn costs {_COST} less to cast$", _first_each_turn),
    (rf"^(?P<filter>[\w ]*?)\s*spells (?P<who>you cast |your opponents cast |)of the chosen type cost {_COST} "
     rf"{_DIR} to cast$", _chosen_type),
    (rf"^(?P<filter>[\w ]+?) spells with (?P<keyword>[a-z]+) you cast cost {_COST} {_DIR} to cast$", _with_keyword),
    (rf"{_FILTER}with power (?P<n>\d+) or greater cost {_COST} less to cast$", _with_power),
    (rf"{_FILTER}cost {_COST} less to cast for each (?P<kind>\S+) counter on ~$", _per_counter_on_self),
    (rf"{_FILTER}cost {_COST} less to cast for each (?P<kind>\w+) counter you have$", _player_counters),
    (r"^spells (?P<who>you cast |your opponents cast )?that target .+? costs? \{\d+\} (?:more|less) to cast$",
     _targeting),
    (r"^creatures you control(?: with [\w ]+)? have \"(?P<inner>[^\"]+?)\.?\"$", _granted),
    (rf"{_FILTER}cost {_COST} less to cast for each (?P<what>\w+) you control with an? (?P<kind>\S+) counter "
     r"on it$", _board_count_with_counter),
    (r"^you may pay .+? rather than pay the mana cost for [\w ]*spells you cast$", _granted_alternative),
    (rf"^each spell you cast costs {_COST} less to cast for each of the chosen colors it is$", _chosen_colors),
    (rf"^(?P<filter>[\w ]*?)\s*spells you cast from (?P<zone>anywhere other than your hand|your graveyard|exile|"
     rf"your hand) cost {_COST} {_DIR} to cast$", _from_zone),
    (rf"^until (?:your next turn|end of turn), (?P<filter>[\w ,]+?) spells (?:that player casts |you cast |"
     rf"your opponents cast |)cost {_COST} {_DIR} to cast$", _until_effect),
    (r"^during (?P<whose>turns other than yours|your turn), (?P<rest>.+)$", _during_turns),
    (r"^your commander costs .+$", _commander),
    (r"^eminence — as long as ~ is in the command zone or on the battlefield, (?P<rest>.+)$", _eminence),
    (rf"^the second spell you cast each turn costs {_COST} less to cast$", _second_each_turn),
    (rf"{_FILTER}cost {_COST} less to cast for each (?P<what>\w+) token you control$", _board_count_tokens),
    (rf"{_FILTER}cost {_COST} less to cast for each (?P<what>\w+) you control$", _board_count_you_control),
    (rf"{_FILTER}cost \{{x\}} less to cast, where x is ~'s power$", _board_source_power),
    (rf"{_FILTER}cost \{{x\}} less to cast, where x is the amount of life you gained this turn$",
     _board_life_gained),
    (rf"{_FILTER}cost {_COST} less to cast as long as there are (?P<n>\w+) or more (?P<what>\w+) cards in your "
     r"graveyard$", _board_graveyard_subtype),
    (r"^(?P<filter>[\w ,]*?)\s*spells (?P<who>you cast |your opponents cast |)costs? (?:\{[^}]+\})+ (?:more|less) "
     r"to cast\b.*$", _board_filter_only),
)
#: A spell's own clauses: (pattern, reader); most begin "This spell costs {N} less to cast".
_OWN_RULES: tuple[tuple[str, _Reader], ...] = (
    (rf"{_THIS}for each attacking creature(?: you control)?$", _attacking),
    (rf"{_THIS}if a creature is attacking you$", _attacking_you),
    (rf"{_THIS_X}the greatest power among creatures you control$", _greatest_power),
    (rf"{_THIS}for each creature in your party$", _party),
    (rf"{_THIS}if you've cast another spell this turn$", _cast_another),
    (r"^this spell costs (?:\{[^}]+\})+ less to cast for each (?:[\w ]+) spell you've cast this turn$",
     _spells_cast_of_kind),
    (rf"{_THIS}for each card you've drawn this turn$", _drawn),
    (rf"{_THIS_X}your devotion to (?P<color>white|blue|black|red|green)$", _devotion),
    (rf"{_THIS}(?:if|as long as) there are (?P<n>\w+) or more card types among cards in your graveyard$",
     _graveyard_card_types),
    (rf"{_THIS}for each card type among cards in your graveyard(?P<n>)$", _graveyard_card_types),
    (rf"{_THIS}for each color among permanents you control$", _colors_among),
    (rf"{_THIS}if you control (?P<n>\w+) or more (?P<what>[\w ]+?)$", _control_at_least),
    (rf"{_THIS}if you control (?P<n>an?) (?P<what>\w+)$", _control_at_least),
    (rf"{_THIS}if you control a creature with power (?P<n>\d+) or greater$", _control_power),
    (rf"{_THIS}for each opponent you have$", _opponents),
    (rf"{_THIS}if you have (?P<n>\w+) or more cards in your graveyard$", _graveyard_size),
    (rf"{_THIS}for each spell your opponents have cast this turn$", _opponents_spells),
    (r"^this spell costs (?P<cost>(?:\{[^}]+\})+) less to cast if an opponent (?P<what>cast|has drawn) "
     r"(?P<n>\w+) or more (?:spells|cards) this turn$", _an_opponent_did),
    (rf"{_THIS}during your end step$", _end_step),
    (rf"{_THIS}for each (?P<what>\w+) your opponents control$", _count_opponents),
    (rf"{_THIS}for each (?P<what>\w+) you control with an? (?P<kind>\S+) counter on it$", _count_with_counter),
    (rf"{_THIS}for each modified creature you control$", _count_modified),
    (rf"{_THIS}for each (?P<what>[\w /]+?) card in your graveyard$", _graveyard_count),
    (rf"{_THIS}for each different mana value among cards in your graveyard$", _graveyard_mana_values),
    (rf"^if there are (?P<n>\w+) or more (?P<what>[\w /]+?) cards (?P<whose>total in all graveyards|in your "
     rf"graveyard), this spell costs {_COST} less to cast$", _graveyards_at_least),
    (rf"{_THIS}if you have (?P<n>\w+) or more (?P<what>[\w /]+?) cards (?P<whose>in your graveyard)$",
     _graveyards_at_least),
    (rf"{_THIS}for each 1 life you gained this turn$", _life_gained),
    (rf"{_THIS}if an opponent controls no basic lands$", _opponent_no_basics),
    (rf"{_THIS}if you control an? (?P<what>\w+) with (?P<keyword>\w+)$", _control_with_keyword),
    (r"^affinity for (?P<what>[\w ]+)$", _affinity),
    (rf"{_THIS}for each \{{e\}}\s*you've paid or lost this turn$", _energy_paid),
    (r"^this spell costs \{x\} less to cast, where x is the total amount of noncombat damage", _damage_dealt),
    (rf"\bthis spell costs {_COST} less to cast for each card exiled this way$", _exiled_this_way),
    (r"^this spell costs (?:\{[^}]+\})+ more to cast for each target beyond the first$", _per_target),
    (rf"{_THIS}if there are (?P<n>\w+) or more (?P<what>[\w ]+?) permanents on the battlefield$",
     _permanents_at_least),
)
#: Every rule, compiled: (pattern, reader, the clause is the spell's own).  A spell's own clause
#: works only while it is cast, a permanent's only on the battlefield.
_RULES: tuple[tuple[re.Pattern[str], _Reader, bool], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), reader, own)
    for rules, own in ((_BOARD_RULES, False), (_OWN_RULES, True)) for pattern, reader in rules)

_OWN = re.compile(r"\bthis spell\b|^affinity\b|^~ costs?\b", re.IGNORECASE)
_LEAD = re.compile(r"^(?:•\s*)?(?:[A-Z][\w' ]+ — )?(?=[A-Z])")


def _normal(text: str) -> str:
    """The clause without a mode's bullet and its ability word or mode name ("• Dragons — ")."""
    if text.lower().startswith("eminence — "):
        return text
    return _LEAD.sub("", text, count=1)


@lru_cache(maxsize=1024)
def _rule_of(text: str) -> tuple[re.Match[str], _Reader, bool] | None:
    """The rule that reads ``text`` and its match, or ``None``."""
    text = _normal(text)
    for pattern, reader, own in _RULES:
        m = pattern.search(text)
        if m is not None:
            return m, reader, own
    return None


def is_self_clause(text: str) -> bool:
    """Is ``text`` a spell's own cost clause ("This spell costs …", affinity), which works only
    while that card is being cast (CR 601.2f)?"""
    rule = _rule_of(text)
    return rule[2] if rule is not None else _OWN.search(_normal(text)) is not None


def clause_modifiers(card: Card, texts: Iterable[str], source: Permanent | None, where: str,
                     cast: Cast) -> list[tuple[Modifier, str]]:
    """The modifiers that the unread cost clauses ``texts`` of ``card`` put on ``cast``: of a
    permanent on the battlefield (``source``) or of the spell itself (``source`` None)."""
    out: list[tuple[Modifier, str]] = []
    for text in texts:
        if is_self_clause(text) != (source is None):
            continue  # a spell's own clause on a permanent, or a permanent's on the stack (CR 113.6)
        rule = _rule_of(text)
        if rule is None:
            raise Unsupported(f"{card.name}: the engine does not understand the cost modifier \"{text}\"", where)
        m, reader, _own = rule
        for kind, cost in reader(m, _Clause(card, text, source, where), cast):
            out.append((Modifier("increase" if kind == "increase" else "reduce", cost=cost), text))
    return out


def command_zone_modifiers(cast: Cast) -> list[tuple[Modifier, str, str]]:
    """The modifiers of the caster's commanders in the command zone that work there (eminence:
    The Ur-Dragon's "As long as ~ is in the command zone or on the battlefield, other Dragon
    spells you cast cost {1} less"), each with its clause and its card's name; a commander
    being cast is on the stack, not in the command zone."""
    from manasolver.models.text.cost_modifiers import cost_effects_of
    eminent = [(card, text, rule[0]) for card in cast.state.player(cast.player).commander
               for text in cost_effects_of(card)[1] if (rule := _rule_of(text)) is not None and rule[1] is _eminence]
    if not eminent:
        return []
    out: list[tuple[Modifier, str, str]] = []
    spell = cast.spell.card
    there = {c.name for c in _in_command_zone(cast.state, cast.player)}
    for card, text, m in eminent:
        if card.name not in there or (spell is not None and card.name == spell.name):
            continue
        for kind, cost in _eminence_for(m, _Clause(card, text, None, "state.players.commander"), cast, mine=True):
            out.append((Modifier("increase" if kind == "increase" else "reduce", cost=cost), text, card.name))
    return out


def reading_of(effects: tuple[CostEffect, ...], unknown: tuple[str, ...]
               ) -> tuple[tuple[CostEffect, ...], tuple[str, ...]]:
    """The card-text reader's effects and unread clauses, with an effect it misread moved to the
    unread ones: a "subtype" not capitalized in its text ("During turns other than yours, spells
    you cast cost {1} less" read as spells of the subtypes "turns", "other", "yours")."""
    if not effects:
        return effects, unknown
    return _reading(effects, unknown)


@lru_cache(maxsize=1024)
def _reading(effects: tuple[CostEffect, ...], unknown: tuple[str, ...]
             ) -> tuple[tuple[CostEffect, ...], tuple[str, ...]]:
    misread = [e for e in effects
               if any(re.search(rf"\b{re.escape(sub.capitalize())}\b", e.text) is None for sub in e.subtypes)]
    if not misread:
        return effects, unknown
    return tuple(e for e in effects if e not in misread), unknown + tuple(e.text for e in misread)


def plan_spells_cast_refusal(state: GameState, player: str, spells: Iterable[SpellInfo | None]) -> Unsupported | None:
    """Why a plan of ``spells``, cast one after another by ``player``, can't be read on one board:
    a cost clause counts the spells cast before it this turn (Artificer Class's first artifact
    spell when two of the plan's spells are artifacts, the second spell of a turn, "if you've
    cast another spell this turn" on a spell after the first), and each cost of a plan is
    announced on the same board; ``None`` when none does."""
    from manasolver.models.text.cost_modifiers import cost_effects_of
    from manasolver.solver.casting.modifiers import spell_matches
    given = [s for s in spells if s is not None]
    for i, perm in enumerate(state.battlefield):
        if perm.controller != player:
            continue
        for text in cost_effects_of(perm.card)[1]:
            rule = _rule_of(text)
            if rule is None or rule[1] not in (_first_each_turn, _second_each_turn):
                continue
            effect = _base(f"{rule[0]['filter']} spells you cast cost {{1}} less to cast") \
                if rule[1] is _first_each_turn else None
            if rule[1] is _second_each_turn or effect is None or sum(1 for s in given if spell_matches(effect, s)) > 1:
                return _plan_refusal(perm.card, text, f"battlefield[{i}]")
    for card in [s.card for s in given[1:] if s.card is not None]:
        for text in cost_effects_of(card)[1]:
            rule = _rule_of(text)
            if rule is not None and rule[1] in (_cast_another, _spells_cast_of_kind):
                return _plan_refusal(card, text, "spell.card")
    return None


def _plan_refusal(card: Card, text: str, where: str) -> Unsupported:
    return Unsupported(f"{card.name}: \"{text}\" counts the spells cast before it this turn, and a plan of "
                       "several costs is announced on one board: ask pay for each cost with "
                       "spells_cast_this_turn", where)
