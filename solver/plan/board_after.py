"""Each payment of a plan against the board the earlier ones left.

A plan's payments are checked one after another by :mod:`~manasolver.solver.validate`, each on
the board after the payments before it (:func:`left_by`: permanents tapped and sacrificed,
counters, life, energy, the hand, the graveyard and the pool, CR 106.4), so that a split no player
could follow is refused rather than answered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.solver.backends.problem import Problem, mana_string
from manasolver.solver.payment import Payment
from manasolver.solver.payment_order import mana_bits
from manasolver.solver.request import PaymentRequest

__all__ = ["hand_places", "left_by", "validated"]


def validated(problems: Sequence[Problem], payments: Sequence[Payment]) -> None:
    """Validate each payment in turn against the board the ones before it left (its hand cards
    named by :func:`hand_places`); a failure is an ``unsupported`` answer naming the cost (the
    split is then not one a player can follow)."""
    from manasolver.solver.validate import validate
    state = problems[0].req.state
    reqs = [p.req for p in problems]
    for i, (p, pay) in enumerate(zip(problems, hand_places(reqs, payments))):
        req = dataclasses.replace(p.req, state=state, alternative=None)
        verdict = validate(req, pay)
        if not verdict.legal:
            raise Unsupported("the plan's payment of this cost does not check on the board the earlier "
                              "ones leave: " + "; ".join(verdict.problems), f"costs[{i}]")
        state = left_by(state, p.req.player, pay, cast_card=_cast_card(p.req))
        act = p.req.activation
        if act is not None and act.permanent is not None:  # its own cost: tapped, sacrificed (602.2)
            pid = act.permanent.id
            mine = [q for q in act.state.battlefield if q.id == pid]
            state = dataclasses.replace(state, battlefield=tuple(
                mine[0] if q.id == pid else q for q in state.battlefield if q.id != pid or mine))
        if i + 1 < len(payments) and state.player(p.req.player).life <= 0:
            raise Unsupported("the plan's payments take the player's life to 0 before the next cost, "
                              "and a player at 0 life has lost (CR 704.5a)", f"costs[{i}]")


def _cast_card(req: PaymentRequest) -> str | None:
    """The name of the card ``req`` casts from the hand (CR 601.2a), or ``None`` (an ability)."""
    spell = req.spell
    return spell.card.name if spell is not None and spell.card is not None and not spell.ability else None


def hand_places(reqs: Sequence[PaymentRequest], payments: Sequence[Payment]) -> tuple[Payment, ...]:
    """The plan's ``payments`` (one per request of ``reqs``, written against the board's hand) with
    each card activated from the hand named by its place in the hand as the earlier payments left
    it, as a player carrying the plan out in order finds it: a Simian Spirit Guide exiled by the
    first payment, or the first cost's card cast, moves the cards after it one place up (the hand
    :func:`left_by` leaves).  A card an earlier payment already took is an ``unsupported``
    answer naming the cost."""
    if not any(a.hand is not None for pay in payments[1:] for a in pay.activations):
        return tuple(payments)
    hand = reqs[0].state.player(reqs[0].player).hand
    held = list(range(len(hand)))  # the board's index of each card in the hand, in the hand's order
    out: list[Payment] = []
    for i, (req, pay) in enumerate(zip(reqs, payments)):
        taken = {a.hand for a in pay.activations if a.hand is not None}
        if taken:
            if not taken <= set(held):
                raise Unsupported("the plan's payment of this cost activates a card of the hand an earlier "
                                  "cost of the plan already took", f"costs[{i}]")
            pay = dataclasses.replace(pay, activations=tuple(
                a if a.hand is None else dataclasses.replace(a, hand=held.index(a.hand)) for a in pay.activations))
        out.append(pay)
        held = [j for j in held if j not in taken]
        cast = _cast_card(req)
        if cast is not None:
            at = next((n for n, j in enumerate(held) if hand[j].name.lower() == cast.lower()), None)
            if at is not None:
                del held[at]
    return tuple(out)


def left_by(state: GameState, player: str, pay: Payment, cast_card: str | None = None) -> GameState:
    """The board after ``pay``: permanents tapped, untapped ({Q}) and sacrificed, counters
    removed and put, convoking and improvising permanents tapped, delved cards exiled, cards
    exiled from the hand, life, energy and the pool (less what was spent, plus what floats:
    CR 106.4, the pool empties only between steps); ``cast_card``: the card cast from the hand, which
    leaves it (CR 601.2a)."""
    tap: set[str] = set(pay.convoked) | set(pay.improvised)
    untap: set[str] = set()
    gone: set[str] = set()
    counters: dict[str, dict[str, int]] = {}
    hand_out: set[int] = set()
    for i, act in enumerate(pay.activations):
        if act.hand is not None:
            hand_out.add(act.hand)
            continue
        pid = act.permanent
        for part in act.costs:
            if part == "{T}":
                tap.add(pid)
            elif part == "{Q}":
                untap.add(pid)
            elif part == "sacrifice":
                gone.add(pid)
            elif part.startswith(("remove ", "put ")) and part.split()[1].isdigit() and "counter" in part:
                words = part.split()
                sign = -1 if words[0] == "remove" else 1
                kind = words[2]
                mine = counters.setdefault(pid, {})
                mine[kind] = mine.get(kind, 0) + sign * int(words[1]) * act.times
            elif not (part.startswith("{") or part.startswith("pay ") or part.startswith("sacrifice ")
                      or part.startswith("tap ")):
                raise Unsupported(f"a plan does not follow the cost part {part!r} of an activation "
                                  "between its costs", f"payments[{i}]")
        tap.update(act.tapped)
        gone.update(act.sacrificed)
    battlefield: list[Permanent] = []
    for perm in state.battlefield:
        if perm.id in gone:
            continue
        changes: dict[str, Any] = {}
        if perm.id in tap:
            changes["tapped"] = True
        if perm.id in untap:
            changes["tapped"] = False
        if perm.id in counters:
            have = dict(perm.counters)
            for kind, delta in counters[perm.id].items():
                have[kind] = max(0, have.get(kind, 0) + delta)
            changes["counters"] = tuple(sorted((k, n) for k, n in have.items() if n))
        battlefield.append(perm._replace(**changes) if changes else perm)
    players = []
    for pl in state.players:
        if pl.name != player:
            players.append(pl)
            continue
        hand = [c for j, c in enumerate(pl.hand) if j not in hand_out]
        if cast_card is not None:
            j = next((j for j, c in enumerate(hand) if c.name.lower() == cast_card.lower()), None)
            if j is not None:
                del hand[j]
        graveyard = list(pl.graveyard)
        for name in pay.delved:
            j = next((j for j, c in enumerate(graveyard) if c.name == name), None)
            if j is not None:
                del graveyard[j]
        pool = list(mana_bits(pl.pool.format())) if pl.pool else []
        for bit in mana_bits(pay.pool_used):
            if bit in pool:
                pool.remove(bit)
        pool += list(mana_bits(pay.floating))
        players.append(pl._replace(
            life=pl.life - pay.life - pay.damage, energy=pl.energy - pay.energy,
            pool=ManaCost.parse(mana_string(pool), "pool", allow_empty=True) if pool else ManaCost(),
            hand=tuple(hand), graveyard=tuple(graveyard)))
    return dataclasses.replace(state, players=tuple(players), battlefield=tuple(battlefield))

