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
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.solver.casting.clause_reading import (
    CARD_TYPES,
    COST,
    DIR,
    FILTER,
    NOT_SUBTYPES,
    Cast,
    Clause,
    Found,
    Reader,
    base,
    cast_from,
    controlled,
    filtered,
    has_subtype,
    in_command_zone,
    is_type,
    may_target,
    number,
    singular,
    spell_has_subtype,
    spell_matches,
    times,
    touches,
)
from manasolver.solver.casting.own_clauses import (
    OWN_RULES,
    cast_another,
    count_with_counter,
    life_gained,
    spells_cast_of_kind,
)
from manasolver.solver.request import Modifier, SpellInfo

if TYPE_CHECKING:
    from manasolver.models.text.cost_modifiers import CostEffect

__all__ = ["Cast", "clause_modifiers", "command_zone_modifiers", "cost_clauses", "is_self_clause",
           "plan_spells_cast_refusal", "reading_of", "spell_has_subtype", "spell_matches"]

# -- board clauses (of a permanent on the battlefield) ---------------------------------------------

def _face_down(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return []  # every spell this engine casts is face up


def _first_each_turn(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    before = cast.state.player(cast.player).spells_cast_this_turn
    if before == 0:
        return times(m["cost"], 1)
    raise clause.refuse(f"whether a {m['filter'].lower()} spell was among the {before} spells already cast "
                        "this turn (the board gives only spells_cast_this_turn)")


def _chosen_type(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    rest = f"{m['who']}cost {m['cost']} {m['dir']} to cast"
    effect = filtered(m["filter"] or "", rest, clause, cast)
    if not touches(effect, clause, cast):
        return []
    assert clause.source is not None
    chosen = clause.source.chosen_type
    if chosen is None:
        raise Unsupported(f"{clause.card.name}: the cost modifier \"{clause.text}\" needs the type chosen as it "
                          f"entered (chosen.type)", f"{clause.where}.chosen.type")
    oracle = clause.card.oracle_text.lower()
    card_type = "choose a card type" in oracle or re.search(r"choose artifact, creature", oracle) is not None
    if card_type:
        if chosen not in CARD_TYPES:
            raise Unsupported(f"{clause.card.name} chooses a card type, and {chosen!r} is not one",
                              f"{clause.where}.chosen.type")
        hit = chosen in cast.spell.types
    else:
        hit = bool(cast.spell.types & {"creature", "kindred"}) and spell_has_subtype(cast.spell, frozenset({chosen}))
    return [(effect.kind, effect.cost)] if hit and effect.cost is not None else []


def _with_keyword(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} {m['dir']} to cast", clause, cast)
    card = cast.spell.card
    if not touches(effect, clause, cast) or card is None or m["keyword"].lower() not in card.keywords:
        return []
    return [(effect.kind, ManaCost.parse(m["cost"]))]


def _with_power(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    card = cast.spell.card
    if not touches(effect, clause, cast) or card is None or "creature" not in cast.spell.types:
        return []
    try:
        power = int(card.power or "0")
    except ValueError:
        raise clause.refuse(f"{card.name}'s power on the stack, {card.power!r}, which the engine does not "
                            "evaluate") from None
    return times(m["cost"], 1) if power >= int(m["n"]) else []


def _per_counter_on_self(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    assert clause.source is not None
    return times(m["cost"], clause.source.counter(m["kind"].lower()))


def _player_counters(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    raise clause.refuse(f"how many {m['kind'].lower()} counters its controller has (the board holds no "
                        "counters on players)")


def _targeting(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    mine = clause.controller == cast.player
    who = (m["who"] or "").strip().lower()
    if (who == "you cast" and not mine) or (who == "your opponents cast" and mine):
        return []
    if not may_target(cast.spell):
        return []
    raise clause.refuse("the spell's targets, which the query does not give")


def _granted(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """Jubilant Skybonder: its creatures have "Spells your opponents cast that target this
    creature cost {2} more to cast."; read as the creatures' own clause (their controller is
    the source's)."""
    rule = _rule_of(m["inner"])
    if rule is None or rule[1] is not _targeting:
        raise clause.refuse("an ability it grants that the engine does not read")
    return _targeting(rule[0], clause, cast)


def _board_count_with_counter(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    return count_with_counter(m, clause, cast)


def _granted_alternative(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return []  # an alternative cost is paid only when the query asks for it (CR 118.9)


def _chosen_colors(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
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
    return times(m["cost"], 1) if cast.spell.colors & type_bit(color) else []


def _from_zone(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"] or "", f"you cast cost {m['cost']} {m['dir']} to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    zone = cast_from(cast)
    if zone is None:
        raise clause.refuse("the zone the spell is cast from, which the query does not say (the card is not "
                            "in its caster's hand)")
    wanted = m["zone"].lower()
    hit = zone != "hand" if wanted == "anywhere other than your hand" else zone == wanted.split()[-1]
    return [(effect.kind, ManaCost.parse(m["cost"]))] if hit else []


def _until_effect(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = base(f"{m['filter']} spells cost {m['cost']} {m['dir']} to cast")
    if effect is not None and not spell_matches(effect, cast.spell):
        return []
    raise clause.refuse("whether the ability that makes this effect was activated, and for which player (the "
                        "board does not say)")


def _during_turns(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """Geyser Drake: "During turns other than yours, spells you cast cost {1} less"; "During your
    turn, …": nothing on the other turns, the rest of the clause read on the ones named."""
    theirs = m["whose"].lower() == "turns other than yours"
    if (cast.state.turn.active == clause.controller) == theirs:
        return []
    rest = m["rest"][0].upper() + m["rest"][1:]
    rule = _rule_of(rest)
    if rule is not None and rule[1] is not _board_filter_only:
        return rule[1](rule[0], Clause(clause.card, rest, clause.source, clause.where), cast)
    effect = base(rest)
    if effect is None or effect.cost is None or effect.per:
        raise Unsupported(f"{clause.card.name}: the engine does not understand the cost modifier \"{clause.text}\"",
                          clause.where)
    return [(effect.kind, effect.cost)] if touches(effect, clause, cast) else []


def _commander(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
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


def _eminence(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return _eminence_for(m, clause, cast, mine=clause.controller == cast.player)


def _eminence_for(m: re.Match[str], clause: Clause, cast: Cast, mine: bool) -> Found:
    """An eminence clause whose card is its caster's (``mine``) or another player's."""
    rest = re.sub(r"^other ", "", m["rest"], flags=re.IGNORECASE)
    effect = base(rest[0].upper() + rest[1:])
    if effect is None or effect.cost is None:
        raise clause.refuse("a spell filter the engine does not read")
    return [(effect.kind, effect.cost)] if touches(effect, clause, cast, mine) else []


def _second_each_turn(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    if clause.controller != cast.player:
        return []
    return times(m["cost"], 1) if cast.state.player(cast.player).spells_cast_this_turn == 1 else []


def _board_count_tokens(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    word = singular(m["what"])
    if not touches(effect, clause, cast):
        return []
    if word not in CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    return times(m["cost"], controlled(cast.state, [cast.player], lambda p: p.token and word in p.types))


def _board_count_you_control(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """Sokka, Swordmaster: "Equipment spells you cast cost {1} less to cast for each Ally you control"."""
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    word, state = singular(m["what"]), cast.state
    if word in CARD_TYPES:
        return times(m["cost"], controlled(state, [cast.player], is_type(word)))
    if word in NOT_SUBTYPES or not m["what"][0].isupper():
        raise clause.refuse("a count the engine does not read")
    return times(m["cost"], controlled(state, [cast.player], lambda p: has_subtype(p, word, state)))


def _board_source_power(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    from manasolver.models.rules.amounts import power_of
    effect = filtered(m["filter"], "you cast cost {1} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    assert clause.source is not None
    return times("{1}", max(0, power_of(clause.source)))


def _board_life_gained(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], "you cast cost {1} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    return life_gained(m, clause, cast)


def _board_graveyard_subtype(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    effect = filtered(m["filter"], f"you cast cost {m['cost']} less to cast", clause, cast)
    if not touches(effect, clause, cast):
        return []
    word = singular(m["what"])
    found = sum(1 for c in cast.state.player(cast.player).graveyard if word in c.type_line.subtypes)
    return times(m["cost"], 1) if found >= number(m["n"]) else []


def _board_filter_only(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """A board clause whose amount the engine does not read: exact as nothing when its spell
    filter or its "you"/"your opponents" leaves this spell out, refused otherwise."""
    words = m["filter"] or ""
    effect = base(f"{words} spells {m['who']}cost {{1}} less to cast" if words.strip()
                   else f"Spells {m['who']}cost {{1}} less to cast")
    if effect is not None and not touches(effect, clause, cast):
        return []
    raise Unsupported(f"{clause.card.name}: the engine does not understand the cost modifier \"{clause.text}\"",
                      clause.where)


#: Clauses of a permanent on the battlefield: (pattern, reader).
_BOARD_RULES: tuple[tuple[str, Reader], ...] = (
    (r"\bface-down\b.*\bspells?\b.*\bcosts? \{\d+\} (?:more|less) to cast$", _face_down),
    (rf"^the first (?P<filter>[\w ,\-]+?) spell you cast each turn costs {COST} less to cast$", _first_each_turn),
    (rf"^(?P<filter>[\w ]*?)\s*spells (?P<who>you cast |your opponents cast |)of the chosen type cost {COST} "
     rf"{DIR} to cast$", _chosen_type),
    (rf"^(?P<filter>[\w ]+?) spells with (?P<keyword>[a-z]+) you cast cost {COST} {DIR} to cast$", _with_keyword),
    (rf"{FILTER}with power (?P<n>\d+) or greater cost {COST} less to cast$", _with_power),
    (rf"{FILTER}cost {COST} less to cast for each (?P<kind>\S+) counter on ~$", _per_counter_on_self),
    (rf"{FILTER}cost {COST} less to cast for each (?P<kind>\w+) counter you have$", _player_counters),
    (r"^spells (?P<who>you cast |your opponents cast )?that target .+? costs? \{\d+\} (?:more|less) to cast$",
     _targeting),
    (r"^creatures you control(?: with [\w ]+)? have \"(?P<inner>[^\"]+?)\.?\"$", _granted),
    (rf"{FILTER}cost {COST} less to cast for each (?P<what>\w+) you control with an? (?P<kind>\S+) counter "
     r"on it$", _board_count_with_counter),
    (r"^you may pay .+? rather than pay the mana cost for [\w ]*spells you cast$", _granted_alternative),
    (rf"^each spell you cast costs {COST} less to cast for each of the chosen colors it is$", _chosen_colors),
    (rf"^(?P<filter>[\w ]*?)\s*spells you cast from (?P<zone>anywhere other than your hand|your graveyard|exile|"
     rf"your hand) cost {COST} {DIR} to cast$", _from_zone),
    (rf"^until (?:your next turn|end of turn), (?P<filter>[\w ,]+?) spells (?:that player casts |you cast |"
     rf"your opponents cast |)cost {COST} {DIR} to cast$", _until_effect),
    (r"^during (?P<whose>turns other than yours|your turn), (?P<rest>.+)$", _during_turns),
    (r"^your commander costs .+$", _commander),
    (r"^eminence — as long as ~ is in the command zone or on the battlefield, (?P<rest>.+)$", _eminence),
    (rf"^the second spell you cast each turn costs {COST} less to cast$", _second_each_turn),
    (rf"{FILTER}cost {COST} less to cast for each (?P<what>\w+) token you control$", _board_count_tokens),
    (rf"{FILTER}cost {COST} less to cast for each (?P<what>\w+) you control$", _board_count_you_control),
    (rf"{FILTER}cost \{{x\}} less to cast, where x is ~'s power$", _board_source_power),
    (rf"{FILTER}cost \{{x\}} less to cast, where x is the amount of life you gained this turn$",
     _board_life_gained),
    (rf"{FILTER}cost {COST} less to cast as long as there are (?P<n>\w+) or more (?P<what>\w+) cards in your "
     r"graveyard$", _board_graveyard_subtype),
    (r"^(?P<filter>[\w ,]*?)\s*spells (?P<who>you cast |your opponents cast |)costs? (?:\{[^}]+\})+ (?:more|less) "
     r"to cast\b.*$", _board_filter_only),
)


#: Every rule, compiled: (pattern, reader, the clause is the spell's own).  A spell's own clause
#: works only while it is cast, a permanent's only on the battlefield.
_RULES: tuple[tuple[re.Pattern[str], Reader, bool], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), reader, own)
    for rules, own in ((_BOARD_RULES, False), (OWN_RULES, True)) for pattern, reader in rules)


_OWN = re.compile(r"\bthis spell\b|^affinity\b|^~ costs?\b", re.IGNORECASE)


_LEAD = re.compile(r"^(?:•\s*)?(?:[A-Z][\w' ]+ — )?(?=[A-Z])")


def _normal(text: str) -> str:
    """The clause without a mode's bullet and its ability word or mode name ("• Dragons — ")."""
    if text.lower().startswith("eminence — "):
        return text
    return _LEAD.sub("", text, count=1)


@lru_cache(maxsize=1024)
def _rule_of(text: str) -> tuple[re.Match[str], Reader, bool] | None:
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
        for kind, cost in reader(m, Clause(card, text, source, where), cast):
            out.append((Modifier("increase" if kind == "increase" else "reduce", cost=cost), text))
    return out


def command_zone_modifiers(cast: Cast) -> list[tuple[Modifier, str, str]]:
    """The modifiers of the caster's commanders in the command zone that work there (eminence:
    The Ur-Dragon's "As long as ~ is in the command zone or on the battlefield, other Dragon
    spells you cast cost {1} less"), each with its clause and its card's name; a commander
    being cast is on the stack, not in the command zone."""
    eminent = [(card, text, rule[0]) for card in cast.state.player(cast.player).commander
               for text in cost_clauses(card)[1] if (rule := _rule_of(text)) is not None and rule[1] is _eminence]
    if not eminent:
        return []
    out: list[tuple[Modifier, str, str]] = []
    spell = cast.spell.card
    there = {c.name for c in in_command_zone(cast.state, cast.player)}
    for card, text, m in eminent:
        if card.name not in there or (spell is not None and card.name == spell.name):
            continue
        for kind, cost in _eminence_for(m, Clause(card, text, None, "state.players.commander"), cast, mine=True):
            out.append((Modifier("increase" if kind == "increase" else "reduce", cost=cost), text, card.name))
    return out


def cost_clauses(card: Card) -> tuple[tuple[CostEffect, ...], tuple[str, ...]]:
    """``card``'s cost effects and the cost-modifying clauses the card-text reader left unread: the
    reading stored on the card when it was built; a card built by hand is read by
    :func:`~manasolver.models.text.cost_modifiers.cost_effects_of`, whose module is loaded only
    then (a cast reads this for every card with cost clauses, and an import statement run on
    each cast costs more than the reading)."""
    text = card.text
    if text is not None:
        return text.cost_effects, text.cost_unknown
    from manasolver.models.text.cost_modifiers import cost_effects_of
    return cost_effects_of(card)


def reading_of(effects: tuple[CostEffect, ...], unknown: tuple[str, ...]
               ) -> tuple[tuple[CostEffect, ...], tuple[str, ...]]:
    """The card-text reader's effects and unread clauses, with an effect it misread moved to the
    unread ones: a "subtype" not capitalized in its text ("During turns other than yours, spells
    you cast cost {1} less" read as spells of the subtypes "turns", "other", "yours").  Only an
    effect of subtypes is searched (most have none)."""
    misread = [e for e in effects if e.subtypes and any(
        re.search(rf"\b{re.escape(sub.capitalize())}\b", e.text) is None for sub in e.subtypes)]
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
    given = [s for s in spells if s is not None]
    for i, perm in enumerate(state.battlefield):
        if perm.controller != player:
            continue
        for text in cost_effects_of(perm.card)[1]:
            rule = _rule_of(text)
            if rule is None or rule[1] not in (_first_each_turn, _second_each_turn):
                continue
            effect = base(f"{rule[0]['filter']} spells you cast cost {{1}} less to cast") \
                if rule[1] is _first_each_turn else None
            if rule[1] is _second_each_turn or effect is None or sum(1 for s in given if spell_matches(effect, s)) > 1:
                return _plan_refusal(perm.card, text, f"battlefield[{i}]")
    for card in [s.card for s in given[1:] if s.card is not None]:
        for text in cost_effects_of(card)[1]:
            rule = _rule_of(text)
            if rule is not None and rule[1] in (cast_another, spells_cast_of_kind):
                return _plan_refusal(card, text, "spell.card")
    return None


def _plan_refusal(card: Card, text: str, where: str) -> Unsupported:
    return Unsupported(f"{card.name}: \"{text}\" counts the spells cast before it this turn, and a plan of "
                       "several costs is announced on one board: ask pay for each cost with "
                       "spells_cast_this_turn", where)
