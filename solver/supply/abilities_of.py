"""Permanents that have "all activated abilities of" other objects (layer 6, CR 613.1f): Necrotic
Ooze, Experiment Kraj, Manascape Refractor, Myr Welder and their kin, and what the engine does
with them where the supply does not give the source those abilities (it refuses, naming the
source and its clause)."""

from __future__ import annotations

from manasolver.models.errors import Unsupported
from manasolver.solver.request import PaymentRequest

__all__ = ["guard_abilities_of"]


def guard_abilities_of(req: PaymentRequest) -> None:
    """Refuse when one of the player's permanents has "all activated abilities of" objects one of
    which has a mana ability (Necrotic Ooze and an Elf card in a graveyard, Experiment Kraj and an
    Elf with a +1/+1 counter, Manascape Refractor and any land), or of objects the board does not
    give (cards exiled with Myr Welder, the top card of a library): the supply does not give the
    permanent those abilities."""
    from manasolver.models.effects import AbilitiesOf
    from manasolver.models.rules.production import active_effects
    state = req.state
    for source, effect in active_effects(state):
        if not isinstance(effect, AbilitiesOf) or source.controller != req.player:
            continue
        if effect.of == "graveyard_creatures":
            hit = any("creature" in c.type_line.types and c.mana_abilities for p in state.players for c in p.graveyard)
        elif effect.of == "countered_creatures":
            hit = any(p is not source and p.is_creature and p.counter("+1/+1") > 0 and p.card.mana_abilities
                      for p in state.battlefield)
        elif effect.of == "lands":
            hit = any(p.is_land for p in state.battlefield)
        else:
            hit = True
        if hit:
            index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
            what = "" if effect.of != "unknown" else "; what it refers to is not on the board"
            raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} may give it mana abilities, "
                              f"which this engine does not apply yet{what}", f"battlefield[{index}]")
