"""A spell's own spending rule (CR 106.6 on the spell itself): "Spend only mana produced by
creatures to cast this spell." (Myr Superion), "… produced by basic lands …" (Imperiosaur).

Mana that a source of another kind produces may still pay the costs of mana abilities, never the
spell: :func:`own_spending_supply` gives every option of such a source a restriction saying so, so
that every backend reads it as it reads any restriction, and :func:`produced_ok` is the same test
for ``validate``.  What the rule can't be read against is refused: floating mana (who produced it is
not known) and mana triggered by another permanent (Utopia Sprawl's mana is the aura's, CR 106.3).
"""

from __future__ import annotations

import dataclasses
import re

from manasolver.models.abilities import Restriction
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.solver.request import SpellInfo
from manasolver.solver.supply.model import Supply

__all__ = ["OWN_SPENDING", "PRODUCERS", "guard_own_spending", "not_for_spells", "own_rule", "own_spending_supply",
           "produced_ok", "rule_text"]

#: The rule, with what must produce the mana.
OWN_SPENDING = re.compile(r"Spend only mana produced by (?P<what>[^.]*?) to cast this spell\.")

#: The producers this engine reads: the card types (and supertype) the source must have.
PRODUCERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "creatures": (frozenset({"creature"}), frozenset()),
    "basic lands": (frozenset({"land"}), frozenset({"basic"})),
}


def own_rule(spell: SpellInfo | None) -> str | None:
    """The producers ``spell``'s own spending rule names ("creatures", "basic lands"), or
    ``None`` when it has none (an ability, an unnamed spell).  A rule naming other producers is
    returned as written (:func:`guard_own_spending` refuses it)."""
    if spell is None or spell.ability or spell.card is None:
        return None
    m = OWN_SPENDING.search(spell.card.oracle_text)
    return m.group("what") if m else None


def produced_ok(rule: str, perm: Permanent | None) -> bool:
    """May mana that ``perm`` produced (``None``: a card of the hand, or the pool) be spent on
    a spell whose own rule names ``rule``?"""
    if perm is None:
        return False
    types, supertypes = PRODUCERS[rule]
    return bool(types & set(perm.types)) and supertypes <= set(perm.card.type_line.supertypes)


def guard_own_spending(state: GameState, player: str, spell: SpellInfo | None, where: str = "spell") -> None:
    """Refuse a payment of a spell whose own spending rule this engine can't read against the
    board: producers it does not know, floating mana, mana triggered by another permanent."""
    rule = own_rule(spell)
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
    rule = own_rule(spell)
    if rule is None or rule not in PRODUCERS:
        return supply
    text = rule_text(spell, rule)
    classes = []
    changed = False
    for cls in supply.classes:
        perm = None if cls.hand else state.permanent(cls.members[0])
        if produced_ok(rule, perm):
            classes.append(cls)
            continue
        options = tuple(dataclasses.replace(o, restriction=not_for_spells(o.restriction, text))
                        for o in cls.options)
        classes.append(dataclasses.replace(cls, options=options))
        changed = True
    return dataclasses.replace(supply, classes=tuple(classes)) if changed else supply


def rule_text(spell: SpellInfo | None, rule: str) -> str:
    """The restriction's text shown for a source the rule does not name."""
    name = spell.card.name if spell is not None and spell.card is not None else "the spell"
    return f"{name}: spend only mana produced by {rule} to cast it"


def not_for_spells(r: Restriction | None, text: str) -> Restriction:
    """``r`` (``None``: no restriction) that may pay no spell; abilities as before."""
    if r is None:
        return Restriction(text, abilities=True, spells=False, any_ability=True)
    return dataclasses.replace(r, spells=False)
