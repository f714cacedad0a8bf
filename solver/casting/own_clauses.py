"""A spell's own cost clauses read against the board (CR 601.2f, 118.7; affinity 702.41).

"This spell costs {1} less to cast for each creature your opponents control", "… for each land
card in your graveyard", "… if you've cast another spell this turn", the party (700.8), devotion
(700.5), delirium: each counted from the board, read as nothing when it can't apply (no creature
attacks outside combat, Fireball's one target), or refused naming the card, the clause and what
the board does not hold (the energy paid this turn, the damage dealt this turn).  The rules are in
:data:`OWN_RULES`; :mod:`~manasolver.solver.casting.modifier_clauses` reads the clauses with them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from manasolver.models.errors import Unsupported

if TYPE_CHECKING:
    pass

from manasolver.solver.casting.clause_reading import (
    CARD_TYPES,
    COLOR_WORDS,
    COMBAT,
    COST,
    THIS,
    THIS_X,
    Cast,
    Clause,
    Found,
    Reader,
    card_has,
    controlled,
    graveyard_types,
    has_subtype,
    historic,
    is_type,
    modified,
    number,
    permanents_named,
    singular,
    times,
)

__all__ = ["cast_another", "count_with_counter", "life_gained", "OWN_RULES", "spells_cast_of_kind"]

def _attacking(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    if cast.state.turn.step not in COMBAT:
        return []  # no creature is attacking outside the combat steps (CR 506.4, 508.1)
    raise clause.refuse("which creatures are attacking, which the board does not hold")


def _count_opponents(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    word = singular(m["what"])
    if word not in CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    return times(m["cost"], controlled(cast.state, cast.state.opponents_of(cast.player), is_type(word)))


def count_with_counter(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    word, kind = singular(m["what"]), m["kind"].lower()
    if word not in CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    return times(m["cost"], controlled(cast.state, [cast.player],
                                         lambda p: word in p.types and p.counter(kind) > 0))


def _count_modified(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    state = cast.state
    return times(m["cost"], controlled(state, [cast.player], lambda p: p.is_creature and modified(p, state)))


def _graveyard_count(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    types = graveyard_types(m["what"])
    if not types:
        raise clause.refuse("a count the engine does not read")
    graveyard = cast.state.player(cast.player).graveyard
    return times(m["cost"], sum(1 for c in graveyard if card_has(c, types)))


def _graveyard_mana_values(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    graveyard = cast.state.player(cast.player).graveyard
    return times(m["cost"], len({c.mana_value for c in graveyard}))


def _graveyards_at_least(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    types, n = graveyard_types(m["what"]), number(m["n"])
    if not types or not n:
        raise clause.refuse("a count the engine does not read")
    players = cast.state.players if m["whose"].lower().endswith("all graveyards") else \
        (cast.state.player(cast.player),)
    total = sum(1 for p in players for c in p.graveyard if card_has(c, types))
    return times(m["cost"], 1) if total >= n else []


def life_gained(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    gained = cast.state.player(cast.player).life_gained_this_turn
    if gained is None:
        raise Unsupported(f"{clause.card.name}: the cost modifier \"{clause.text}\" needs the life its caster "
                          "gained this turn (life_gained_this_turn)", "state.players.life_gained_this_turn")
    return times(m.groupdict().get("cost") or "{1}", gained)


def _opponent_no_basics(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    state = cast.state
    for name in state.opponents_of(cast.player):
        if not controlled(state, [name], lambda p: p.is_land and "basic" in p.card.type_line.supertypes):
            return times(m["cost"], 1)
    return []


def _control_with_keyword(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    word, keyword = singular(m["what"]), m["keyword"].lower()
    if word not in CARD_TYPES:
        raise clause.refuse("a count the engine does not read")
    mine = cast.state.controlled_by(cast.player)
    if any(word in p.types and keyword in p.card.keywords for p in mine):
        return times(m["cost"], 1)
    if any(keyword in p.card.oracle_text.lower() and re.search(rf"\b(?:have|has|gains?) [\w, ]*{keyword}",
                                                              p.card.oracle_text.lower())
           for p in cast.state.battlefield):
        raise clause.refuse(f"which creatures have {keyword}: a permanent grants it by an effect the engine "
                            "does not read")
    return []


def _affinity(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """Affinity for [text] (702.41a): "This spell costs {1} less to cast for each [text] you control"."""
    what = m["what"].lower()
    test = historic if what == "historic permanents" else permanents_named(what.removesuffix(" permanents"),
                                                                              cast.state)
    if test is None:
        raise clause.refuse("a count the engine does not read")
    return times("{1}", controlled(cast.state, [cast.player], test))


def _energy_paid(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    raise clause.refuse("the energy paid or lost this turn, which the board does not hold (only the energy "
                        "its player has)")


def _damage_dealt(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    raise clause.refuse("the damage dealt this turn, which the board does not hold")


def _exiled_this_way(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    raise clause.refuse("how many cards are exiled as its additional cost, which the query can't say")


def _permanents_at_least(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    words = m["what"].lower().split()
    wanted = {w for w in words if w in CARD_TYPES}
    unwanted = {w[3:].strip("-") for w in words if w.startswith("non") and w[3:].strip("-") in CARD_TYPES}
    n = number(m["n"])
    if not n or len(wanted) + len(unwanted) != len(words):
        raise clause.refuse("a count the engine does not read")
    total = sum(1 for p in cast.state.battlefield
                if (not wanted or wanted & set(p.types)) and not unwanted & set(p.types))
    return times(m["cost"], 1) if total >= n else []


def _greatest_power(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    from manasolver.models.rules.amounts import power_of
    powers = [power_of(p) for p in cast.state.controlled_by(cast.player) if p.is_creature]
    return times("{1}", max([0, *powers]))


def _party(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """CR 700.8: a party is up to one each of Cleric, Rogue, Warrior and Wizard among the
    creatures you control; its size is the largest such choice."""
    state = cast.state
    roles = [frozenset(r for r in _PARTY if has_subtype(p, r, state))
             for p in state.controlled_by(cast.player) if p.is_creature]
    return times(m["cost"], _largest_party([r for r in roles if r], frozenset(_PARTY)))


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


def _attacking_you(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    if cast.state.turn.step not in COMBAT:
        return []  # no creature is attacking outside the combat steps (CR 506.4, 508.1)
    raise clause.refuse("which creatures are attacking, which the board does not hold")


def cast_another(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return times(m["cost"], 1) if cast.state.player(cast.player).spells_cast_this_turn else []


def spells_cast_of_kind(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    if cast.state.player(cast.player).spells_cast_this_turn == 0:
        return []
    raise clause.refuse("which kinds of spells were cast this turn (the board gives only spells_cast_this_turn)")


def _drawn(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return times(m["cost"], cast.state.player(cast.player).cards_drawn_this_turn)


def _devotion(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    from manasolver.models.rules.amounts import devotion
    from manasolver.models.symbols import type_bit
    color = COLOR_WORDS[m["color"].lower()]
    return times("{1}", devotion(cast.state, cast.player, type_bit(color)))


def _graveyard_card_types(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    from manasolver.models.rules.counts import card_types_of
    found = {t for c in cast.state.player(cast.player).graveyard for t in card_types_of(c)}
    if not m["n"]:
        return times(m["cost"], len(found))
    return times(m["cost"], 1) if len(found) >= number(m["n"]) else []


def _colors_among(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    from manasolver.models.rules.counts import colors_among_permanents
    return times(m["cost"], len(colors_among_permanents(cast.state, cast.player)))


def _control_at_least(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """"if you control two or more legendary creatures", "if you control a Wizard"."""
    n = 1 if m["n"].lower() in ("a", "an") else number(m["n"])
    test = permanents_named(m["what"], cast.state)
    if test is None or not n:
        raise clause.refuse("a count the engine does not read")
    return times(m["cost"], 1) if controlled(cast.state, [cast.player], test) >= n else []


def _control_power(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    from manasolver.models.rules.amounts import power_of
    mine = cast.state.controlled_by(cast.player)
    return times(m["cost"], 1) if any(p.is_creature and power_of(p) >= int(m["n"]) for p in mine) else []


def _opponents(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return times(m["cost"], len(cast.state.opponents_of(cast.player)))


def _graveyard_size(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    size = len(cast.state.player(cast.player).graveyard)
    return times(m["cost"], 1) if size >= number(m["n"]) else []


def _opponents_spells(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    state = cast.state
    return times(m["cost"], sum(state.player(o).spells_cast_this_turn for o in state.opponents_of(cast.player)))


def _an_opponent_did(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    """"if an opponent cast two or more spells this turn", "has drawn four or more cards"."""
    state = cast.state
    field = "spells_cast_this_turn" if m["what"].lower().startswith("cast") else "cards_drawn_this_turn"
    n = number(m["n"])
    if not n:
        raise clause.refuse("a count the engine does not read")
    hit = any(getattr(state.player(o), field) >= n for o in state.opponents_of(cast.player))
    return times(m["cost"], 1) if hit else []


def _end_step(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    turn = cast.state.turn
    return times(m["cost"], 1) if turn.active == cast.player and turn.step == "end" else []


def _per_target(m: re.Match[str], clause: Clause, cast: Cast) -> Found:
    return []  # read for one target: the query gives none, and one adds nothing


#: A spell's own clauses: (pattern, reader); most begin "This spell costs {N} less to cast".
OWN_RULES: tuple[tuple[str, Reader], ...] = (
    (rf"{THIS}for each attacking creature(?: you control)?$", _attacking),
    (rf"{THIS}if a creature is attacking you$", _attacking_you),
    (rf"{THIS_X}the greatest power among creatures you control$", _greatest_power),
    (rf"{THIS}for each creature in your party$", _party),
    (rf"{THIS}if you've cast another spell this turn$", cast_another),
    (r"^this spell costs (?:\{[^}]+\})+ less to cast for each (?:[\w ]+) spell you've cast this turn$",
     spells_cast_of_kind),
    (rf"{THIS}for each card you've drawn this turn$", _drawn),
    (rf"{THIS_X}your devotion to (?P<color>white|blue|black|red|green)$", _devotion),
    (rf"{THIS}(?:if|as long as) there are (?P<n>\w+) or more card types among cards in your graveyard$",
     _graveyard_card_types),
    (rf"{THIS}for each card type among cards in your graveyard(?P<n>)$", _graveyard_card_types),
    (rf"{THIS}for each color among permanents you control$", _colors_among),
    (rf"{THIS}if you control (?P<n>\w+) or more (?P<what>[\w ]+?)$", _control_at_least),
    (rf"{THIS}if you control (?P<n>an?) (?P<what>\w+)$", _control_at_least),
    (rf"{THIS}if you control a creature with power (?P<n>\d+) or greater$", _control_power),
    (rf"{THIS}for each opponent you have$", _opponents),
    (rf"{THIS}if you have (?P<n>\w+) or more cards in your graveyard$", _graveyard_size),
    (rf"{THIS}for each spell your opponents have cast this turn$", _opponents_spells),
    (r"^this spell costs (?P<cost>(?:\{[^}]+\})+) less to cast if an opponent (?P<what>cast|has drawn) "
     r"(?P<n>\w+) or more (?:spells|cards) this turn$", _an_opponent_did),
    (rf"{THIS}during your end step$", _end_step),
    (rf"{THIS}for each (?P<what>\w+) your opponents control$", _count_opponents),
    (rf"{THIS}for each (?P<what>\w+) you control with an? (?P<kind>\S+) counter on it$", count_with_counter),
    (rf"{THIS}for each modified creature you control$", _count_modified),
    (rf"{THIS}for each (?P<what>[\w /]+?) card in your graveyard$", _graveyard_count),
    (rf"{THIS}for each different mana value among cards in your graveyard$", _graveyard_mana_values),
    (rf"^if there are (?P<n>\w+) or more (?P<what>[\w /]+?) cards (?P<whose>total in all graveyards|in your "
     rf"graveyard), this spell costs {COST} less to cast$", _graveyards_at_least),
    (rf"{THIS}if you have (?P<n>\w+) or more (?P<what>[\w /]+?) cards (?P<whose>in your graveyard)$",
     _graveyards_at_least),
    (rf"{THIS}for each 1 life you gained this turn$", life_gained),
    (rf"{THIS}if an opponent controls no basic lands$", _opponent_no_basics),
    (rf"{THIS}if you control an? (?P<what>\w+) with (?P<keyword>\w+)$", _control_with_keyword),
    (r"^affinity for (?P<what>[\w ]+)$", _affinity),
    (rf"{THIS}for each \{{e\}}\s*you've paid or lost this turn$", _energy_paid),
    (r"^this spell costs \{x\} less to cast, where x is the total amount of noncombat damage", _damage_dealt),
    (rf"\bthis spell costs {COST} less to cast for each card exiled this way$", _exiled_this_way),
    (r"^this spell costs (?:\{[^}]+\})+ more to cast for each target beyond the first$", _per_target),
    (rf"{THIS}if there are (?P<n>\w+) or more (?P<what>[\w ]+?) permanents on the battlefield$",
     _permanents_at_least),
)
