"""A spell's own spending rule (CR 106.6 on the spell itself): "Spend only mana produced by
creatures to cast this spell." (Myr Superion), "… produced by basic lands …" (Imperiosaur).

Mana that a source of another kind produces may still pay the costs of mana abilities, never the
spell: :func:`own_spending_supply` gives every option of such a source a restriction saying so, so
that every backend reads it as it reads any restriction (``validate`` reads the same rule through
:mod:`manasolver.models.text.own_spending`).  What the rule can't be read against is refused:
floating mana (who produced it is not known) and mana triggered by another permanent (Utopia
Sprawl's mana is the aura's, CR 106.3).
"""

from __future__ import annotations

import dataclasses

from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState
from manasolver.models.text.own_spending import (
    OWN_SPENDING,
    PRODUCERS,
    not_for_spells,
    own_rule,
    produced_ok,
    rule_text,
)
from manasolver.solver.request import SpellInfo
from manasolver.solver.supply.model import Options, Supply

__all__ = ["guard_own_spending", "own_spending_supply", "spell_rule"]


def spell_rule(spell: SpellInfo | None) -> str | None:
    """:func:`own_rule` of a spell being cast (an ability has none)."""
    if spell is None or spell.ability:
        return None
    return own_rule(spell.card)


def guard_own_spending(state: GameState, player: str, spell: SpellInfo | None, where: str = "spell") -> None:
    """Refuse a payment of a spell whose own spending rule this engine can't read against the
    board: producers it does not know, floating mana, mana triggered by another permanent."""
    rule = spell_rule(spell)
    if rule is None:
        return
    assert spell is not None and spell.card is not None
    text = OWN_SPENDING.search(spell.card.oracle_text)
    said = text.group(0) if text else rule
    if rule not in PRODUCERS:
        raise Unsupported(f"{spell.card.name}: {said!r} names producers this engine does not read", where)
    if state.player(player).pool:
        raise Unsupported(f"{spell.card.name}: {said!r}: which source produced the floating mana is not "
                          "known to the board", "players.pool")
    from manasolver.models.effects import TriggeredMana
    from manasolver.models.rules.board_effects import active_effects
    for source, effect in active_effects(state):
        if isinstance(effect, TriggeredMana) and not effect.unspendable:
            at = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
            raise Unsupported(f"{spell.card.name}: {said!r}: {source.card.name} ({source.id}) adds mana of its "
                              "own when a permanent is tapped, which this engine does not tell apart from the "
                              "permanent's", f"battlefield[{at}]")


def own_spending_supply(supply: Supply, state: GameState, spell: SpellInfo | None) -> Supply:
    """``supply`` with every option of a source the spell's own rule does not name restricted to
    mana abilities' costs (it can't pay the spell, CR 106.6); unchanged without such a rule."""
    rule = spell_rule(spell)
    if rule is None or rule not in PRODUCERS:
        return supply
    text = rule_text(spell.card if spell is not None else None, rule)
    classes = []
    changed = False
    for cls in supply.classes:
        perm = None if cls.hand else state.permanent(cls.members[0])
        if produced_ok(rule, perm):
            classes.append(cls)
            continue
        options = Options(dataclasses.replace(o, restriction=not_for_spells(o.restriction, text))
                          for o in cls.options)
        classes.append(dataclasses.replace(cls, options=options))
        changed = True
    return dataclasses.replace(supply, classes=tuple(classes)) if changed else supply
