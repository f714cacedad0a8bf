"""Cost modifiers that come from the board and from the spell itself (CR 601.2f).

When the spell is a known card, the cost effects of permanents on the
battlefield (Thalia, Goblin Electromancer, Sphere of Resistance, Trinisphere,
Heartless Summoning, Ugin the Ineffable, …) and the spell's own reductions
(affinity, "for each artifact you control", Ghalta) become
:class:`~manasolver.solver.request.Modifier` values, ordered as 601.2f wants:
increases, then reductions, then minimums.  Counts are read while the total is
determined, before any mana ability is activated (Stoic Rebuttal ruling).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from manasolver.models.rules.amounts import power_of
from manasolver.models.rules.marks import COSTS, marked, marks
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.solver.casting.modifier_clauses import (
    Cast,
    clause_modifiers,
    command_zone_modifiers,
    cost_clauses,
    reading_of,
    spell_matches,
)
from manasolver.solver.request import Modifier, ModifierKind, SpellInfo

if TYPE_CHECKING:
    from manasolver.models.text.cost_modifiers import CostEffect

__all__ = ["AppliedModifier", "board_modifiers", "order_modifiers", "spell_matches"]

_ORDER = {"increase": 0, "reduce": 1, "minimum": 2}


@dataclass(frozen=True, slots=True)
class AppliedModifier:
    """A modifier and where it came from (a permanent id, ``spell``, ``query`` or ``command zone:
    NAME`` for a commander's eminence)."""

    modifier: Modifier
    source: str
    text: str

    def to_json(self) -> dict[str, object]:
        m = self.modifier
        value: object = m.amount if m.kind == "minimum" else (m.cost.format() if m.cost else "{0}")
        return {"source": self.source, m.kind: value, "text": self.text}


def order_modifiers(mods: Sequence[Modifier]) -> tuple[Modifier, ...]:
    """Increases first, then reductions, then minimums; stable within each (601.2f)."""
    if len(mods) < 2:
        return tuple(mods)  # (most casts have none)
    return tuple(sorted(mods, key=lambda m: _ORDER.get(m.kind, 3)))


def _times(cost: ManaCost, n: int) -> ManaCost | None:
    """``n`` copies of ``cost`` (numerals merge), or ``None`` for none."""
    return ManaCost.of(list(cost.symbols) * n) if n > 0 else None


def _count(effect: CostEffect, state: GameState, player: str) -> int:
    mine = state.controlled_by(player)
    if effect.per == "count_you":
        return sum(1 for p in mine if effect.per_types & set(p.types))
    if effect.per == "if_count_you":
        have = sum(1 for p in mine if effect.per_types & set(p.types))
        return 1 if have >= effect.threshold else 0
    if effect.per == "count_all":
        return sum(1 for p in state.battlefield if effect.per_types & set(p.types))
    if effect.per == "total_power":
        return sum(max(0, power_of(p)) for p in mine if p.is_creature)
    if effect.per == "spells_cast":  # "each other spell that player has cast this turn"
        return state.player(player).spells_cast_this_turn
    if effect.per == "domain":
        from manasolver.models.rules.counts import domain
        return domain(state, player)  # land types after Blood Moon, Urborg (CR 305.7)
    return 1


def board_modifiers(state: GameState, player: str, spell: SpellInfo,
                    alternative: str | None = None) -> list[AppliedModifier]:
    """Every modifier the board and the spell's own text put on casting ``spell`` (for the
    ``alternative`` cost named, or its mana cost): the clauses the card-text reader reads, and
    those it leaves to be read against this board and this spell
    (:mod:`~manasolver.solver.casting.modifier_clauses`), which refuse what neither holds.

    Only cards with cost clauses are read (their ``COSTS`` mark, read once per card): the marked
    permanents, the caster's commanders, the spell's card; most casts have none of them."""
    board = marked(state, COSTS)
    commanders = False
    for card in state.player(player).commander:  # (a loop: a generator costs more than its one or two cards)
        if COSTS in marks(card):
            commanders = True
    own = spell.card is not None and COSTS in marks(spell.card)
    if not board and not commanders and not own:
        return []
    out: list[AppliedModifier] = []
    casting = Cast(state, player, spell, alternative)
    for i, perm in board:
        effects, unknown = reading_of(*cost_clauses(perm.card))
        if unknown:
            for modifier, text in clause_modifiers(perm.card, unknown, perm, f"battlefield[{i}]", casting):
                out.append(AppliedModifier(modifier, perm.id, text))
        for effect in effects:
            if effect.scope != "board" or effect.kind == "alternative" or not spell_matches(effect, spell):
                continue
            if effect.who == "you" and perm.controller != player:
                continue
            if effect.who == "opponents" and perm.controller == player:
                continue
            if effect.while_untapped and perm.tapped:
                continue
            if effect.kind == "minimum":
                out.append(AppliedModifier(Modifier("minimum", amount=effect.minimum), perm.id, effect.text))
            elif effect.cost is not None:
                cost = _times(effect.cost, _count(effect, state, player)) if effect.per else effect.cost
                if cost is not None:
                    out.append(AppliedModifier(Modifier(cast(ModifierKind, effect.kind), cost=cost), perm.id,
                                               effect.text))
    if commanders:
        for modifier, text, name in command_zone_modifiers(casting):
            out.append(AppliedModifier(modifier, f"command zone: {name}", text))
    if own:
        assert spell.card is not None  # (what own says)
        effects, unknown = reading_of(*cost_clauses(spell.card))
        if unknown:
            for modifier, text in clause_modifiers(spell.card, unknown, None, "spell.card", casting):
                out.append(AppliedModifier(modifier, "spell", text))
        for effect in effects:
            if effect.scope != "self" or effect.cost is None:
                continue
            cost = _times(effect.cost, _count(effect, state, player))
            if cost is not None:
                out.append(AppliedModifier(Modifier(cast(ModifierKind, effect.kind), cost=cost), "spell", effect.text))
    return out
