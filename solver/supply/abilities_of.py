"""Permanents that have "all activated abilities of" other objects (layer 6, CR 613.1f): Necrotic
Ooze, Experiment Kraj, Manascape Refractor, Myr Welder and their kin.  The supply gives them those
mana abilities (:mod:`manasolver.models.rules.granted`, through the effective abilities); this
guard asks for them before a payment question is answered, so that where the engine can't apply
one (the top card of a library, cards exiled with it when ``imprinted`` is missing, an ability that
mirrors what lands could produce) the question is refused naming the source and its clause,
whichever path answers it."""

from __future__ import annotations

from manasolver.models.rules.board_effects import active_effects, effective_mana_abilities
from manasolver.models.rules.granted import given_abilities_of, holders
from manasolver.solver.request import PaymentRequest

__all__ = ["guard_abilities_of"]


def guard_abilities_of(req: PaymentRequest) -> None:
    """Refuse when one of the player's permanents has "all activated abilities of" objects the
    engine can't give it (it raises the refusal of
    :func:`manasolver.models.rules.granted.held_abilities`); otherwise nothing."""
    state = req.state
    active = active_effects(state)
    if not active:
        return  # (no effect in force: no permanent holds or is given others' abilities)
    found = holders(state, active)
    given = bool(given_abilities_of(state, active))  # "Creatures you control have …": any of them may hold them
    if not found and not given:
        return
    for perm in state.battlefield:
        if (given or perm.id in found) and perm.controller == req.player:
            effective_mana_abilities(state, perm)
