"""Mana whose amount depends on chance or on another player's choice (Rhystic Cave's "unless any
player pays {1}", CR 118.12): it is counted as the least it can give, so no payment relies on it,
and the answers name each such source a player could activate now, with why.
"""

from __future__ import annotations

from manasolver.models.rules.amounts import condition_holds
from manasolver.models.rules.board_effects import effective_mana_abilities
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.state import GameState

__all__ = ["uncertain_sources"]


def uncertain_sources(state: GameState, player: str) -> tuple[tuple[str, str], ...]:
    """``(permanent id, why)`` for each of ``player``'s permanents with a mana ability whose mana
    is uncertain that could be activated now: its condition holds and its ``{T}``/``{Q}`` cost can
    be paid (untapped or tapped as needed, not summoning sick, CR 302.6)."""
    out: list[tuple[str, str]] = []
    for perm in state.battlefield:
        facts = perm.card.facts
        printed = facts.uncertain
        if printed is None:
            printed = facts.uncertain = any(ab.production.uncertain for ab in perm.card.mana_abilities)
        if not printed or perm.controller != player:
            continue  # only printed abilities are uncertain: no grant of one is printed
        for ab in effective_mana_abilities(state, perm):
            why = ab.production.uncertain
            if not why or not condition_holds(ab.condition, state, perm):
                continue
            if ab.production.chosen and perm.chosen_color:
                continue  # Gem Bazaar with the color last chosen given: nothing uncertain
            if (ab.cost.tap and perm.tapped) or (ab.cost.untap and not perm.tapped):
                continue
            if (ab.cost.tap or ab.cost.untap) and summoning_sick(state, perm):
                continue
            out.append((perm.id, f"{perm.card.name}: {why}; counted as adding nothing ({ab.text})"))
            break
    return tuple(out)
