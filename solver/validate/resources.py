"""What a payment spends besides produced mana, checked against the board.

* Permanents (:func:`check_permanents`): convoked creatures and improvised artifacts the
  player controls (702.51, 702.126); every permanent tapped and untapped consistently over
  the whole payment (107.5, 107.6: an untapped permanent taps once, a tapped one untaps
  first); sacrificed at most once, whether by its own ability, by a named "sacrifice a
  creature", or by the ability being paid for (701.21a, 602.2b); the named permanents of
  an activation's cost of the type it names; counters there to remove (118.3); costs that
  name no permanent matched to distinct ones (118.10) by
  :func:`manasolver.solver.validate.matching.unplaced`.  An activation that sacrifices a
  permanent comes after that permanent's own activations: those orders must not be
  circular, and they join the order the mana cover checks.
* Cards (:func:`check_delve`, :func:`check_pool`): delved cards in the graveyard, pool mana
  in the pool; cards of the hand and graveyard that costs discard or exile (named
  ``"hand:<i>"``/``"graveyard:<i>"`` in ``sacrificed``): each there, used once, never the card
  being cast (601.2a) nor one delved (702.66a); "discard your hand" after every use of the
  hand, and never for a card cast from it (an "as an instant" ability, 602.5d); "Activate only
  as a sorcery" (Grinning Ignus) only at sorcery speed.
* Life, energy and damage (:func:`check_life_and_energy`; 119.4, 107.14, 118.3), the
  payment's life including the activated ability's own "Pay N life"
  (:func:`ability_life_problem`, 602.2b).
"""

from __future__ import annotations

from collections import Counter

from manasolver.models.abilities import GRAVEYARD_CARD, HAND_CARD, ZONE_CARDS
from manasolver.models.state import GameState, Permanent, Player, fits_cost
from manasolver.models.text.tap_costs import RETURN_SELF
from manasolver.models.symbols import ANY_COLOR, C, mask_letters
from manasolver.solver.payment import Payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.validate.activations import Ledger, who
from manasolver.solver.validate.cover import Unit
from manasolver.solver.validate.matching import unplaced
from manasolver.solver.validate.totals import mana_units, single_type

__all__ = ["ability_life_problem", "check_delve", "check_life_and_energy", "check_permanents", "check_pool"]


def check_permanents(req: PaymentRequest, pay: Payment, me: str, led: Ledger,
                     problems: list[str]) -> dict[int, set[int]]:
    """Convoke, improvise, tapping, sacrifices and counters over the whole payment.  Adds the
    convoked and improvised units to ``led.units``; returns, per sacrificing activation, the
    mana-costing activations it must follow (and orders it for the mana check)."""
    state = req.state
    by_id, units, sac_self, first_use = led.by_id, led.units, led.sac_self, led.first_use
    taps, untaps = led.taps, led.untaps
    convoked = list(pay.convoked)
    improvised = list(pay.improvised)
    if convoked and not req.convoke:
        problems.append("convoked: the request does not allow convoke")
    if improvised and not req.improvise:
        problems.append("improvised: the request does not allow improvise")
    if pay.delved and not req.delve:
        problems.append("delved: the request does not allow delve")
    extra_taps: Counter[str] = Counter()
    for label, ids, need in (("convoked", convoked, "creature"), ("improvised", improvised, "artifact")):
        for j, pid in enumerate(ids):
            perm = _mine(by_id, me, pid, f"{label}[{j}]", "", problems)
            if perm is None:
                continue
            if need not in perm.types:
                problems.append(f"{label}[{j}]: {who(perm)} is not an {need}" if need[0] == "a"
                                else f"{label}[{j}]: {who(perm)} is not a {need}")
                continue
            extra_taps[pid] += 1
            if sac_self[pid]:
                problems.append(f"{label}[{j}]: {who(perm)} was sacrificed for mana (CR 601.2g)")
            unit_mask = perm.card.colors & ANY_COLOR if label == "convoked" else 0
            units[Unit("convoke" if label == "convoked" else "improvise", unit_mask)] += 1
    cost_taps = _check_named_taps(by_id, me, led.named_taps, problems)
    for pid in set(taps) | set(untaps) | set(extra_taps) | set(cost_taps):
        perm = by_id[pid]
        t, q = taps[pid] + extra_taps[pid] + cost_taps[pid], untaps[pid]
        i = first_use.get(pid, -1)
        where = f"activations[{i}]" if i >= 0 else "convoked/improvised"
        if perm.tapped:
            if t > q:
                problems.append(f"{where}: {who(perm)} is tapped (CR 107.5)" if q == 0 else
                                f"{where}: {who(perm)} would be tapped {t} times but untapped only {q}")
            elif q > t + 1:
                problems.append(f"{where}: {who(perm)} would be untapped {q} times but tapped only {t} "
                                f"(CR 107.6)")
        else:
            if q > t:
                problems.append(f"{where}: {who(perm)} is untapped, so it cannot pay {{Q}} (CR 107.6)"
                                if t == 0 else f"{where}: {who(perm)} would be untapped more often "
                                f"than tapped")
            elif t > q + 1:
                problems.append(f"{where}: {who(perm)} would be tapped {t} times (CR 107.5)")
    for pid, k in sac_self.items():
        if k > 1:
            problems.append(f"activations[{first_use[pid]}]: {who(by_id[pid])} is sacrificed {k} times")
    for (pid, kind), k in led.counters.items():
        have = by_id[pid].counter(kind)
        if have < k:
            problems.append(f"activations[{first_use[pid]}]: {who(by_id[pid])} has {have} {kind} "
                            f"counter{'s' if have != 1 else ''}, {k} removed (CR 118.3)")
    # The source of the ability being paid for, when its cost sacrifices it (Mind Stone), is
    # sacrificed in 601.2h: no mana ability's cost may sacrifice it first.
    act_src = req.activation.permanent if req.activation is not None else None
    act_cost = req.activation.ability.cost if req.activation is not None else None
    if act_src is not None and act_cost is not None and act_cost.sacrifice_self:
        sac_self[act_src.id] += 1
        if sac_self[act_src.id] > 1:
            problems.append(f"activations[{first_use[act_src.id]}]: {who(act_src)} is sacrificed for "
                            f"mana and for the ability being paid for")
        for i, _what, pid in led.named_sac:
            if pid == act_src.id:
                problems.append(f"activations[{i}]: {who(act_src)} is sacrificed for the ability being "
                                f"paid for (CR 602.2b, 601.2h), so no other cost can sacrifice it")
    _check_hand_discards(req, pay, me, problems)
    _check_sorcery_timing(req, pay, me, problems)
    named_sac = [t for t in led.named_sac if t[1] not in ZONE_CARDS]
    _check_zone_cards(req, pay, me, [t for t in led.named_sac if t[1] in ZONE_CARDS],
                      [t for t in led.sac_other if t[1] in ZONE_CARDS], problems)
    sacrificed = _check_named_sacrifices(by_id, me, named_sac, sac_self, extra_taps, problems)
    after = _sacrifice_order(pay, named_sac, led.costly, problems)
    for i in after:  # its mana comes after the sacrificed permanent's mana-costing activations
        for u in [u for u in units if u.kind == "made" and u.maker == -1 and u.source == i]:
            units[Unit("made", u.mask, u.snow, u.restriction, i, i)] += units.pop(u)
        led.costly.append(i)
        led.sources.setdefault(i, by_id[pay.activations[i].permanent])
    _check_other_costs(state, me, [t for t in led.sac_other if t[1] not in ZONE_CARDS], led.anon_taps,
                       sac_self + sacrificed, taps,
                       extra_taps + cost_taps, problems)
    return after


def _check_zone_cards(req: PaymentRequest, pay: Payment, me: str, named: list[tuple[int, str, str]],
                      unnamed: list[tuple[int, str]], problems: list[str]) -> None:
    """Cards of the hand and graveyard that costs discard or exile ("Discard a card", "Exile a
    card from your graveyard"; CR 701.9a, 118.3), named ``"hand:<i>"`` / ``"graveyard:<i>"``
    among an activation's ``sacrificed``: each a card there, used once in the whole payment;
    never the card being cast (it is on the stack, 601.2a: one card of its name fewer in the
    hand), nor a card of the hand exiled for its own mana (Simian Spirit Guide); a graveyard
    card also not one of the ``delved`` (702.66a: each card of a name delved takes one of that
    name).  Costs that name no card need that many cards left."""
    player = req.state.player(me)
    kinds = {"hand": (HAND_CARD, player.hand), "graveyard": (GRAVEYARD_CARD, player.graveyard)}
    used: dict[str, Counter[int]] = {"hand": Counter(), "graveyard": Counter()}
    for act in pay.activations:
        if act.hand is not None:
            used["hand"][act.hand] += 1
    cast = (req.spell.card.name.lower() if req.spell is not None and req.spell.card is not None
            and not req.spell.ability else "")
    # With no card of its name in the hand, the spell is cast from elsewhere: nothing to keep.
    cast_in_hand = bool(cast) and any(c.name.lower() == cast for c in player.hand)
    delved = Counter(n.lower() for n in pay.delved)
    for i, what, pid in named:
        where = f"activations[{i}]"
        zone, _, num = pid.partition(":")
        want = "hand" if what == HAND_CARD else "graveyard"
        if zone != want or not num.isdigit() or int(num) >= len(kinds[want][1]):
            problems.append(f"{where}: {pid!r} is not a card in the {want} of {me} (give \"{want}:<index>\"), so it "
                            f"cannot pay \"{_zone_words(what)}\"")
            continue
        k = int(num)
        used[want][k] += 1
        if used[want][k] > 1:
            problems.append(f"{where}: {want} card {k} ({kinds[want][1][k].name}) is used more than once "
                            f"(CR 118.3)")
    for want in ("hand", "graveyard"):
        cards = kinds[want][1]
        if want == "hand" and cast_in_hand:
            # The card being cast is one of the cards of its name: they may not all be spent.
            same = [k for k in range(len(cards)) if cards[k].name.lower() == cast]
            if sum(1 for k in same if used["hand"][k]) > len(same) - 1:
                problems.append(f"hand: every {cards[same[0]].name} in the hand of {me} is spent, but one is the "
                                f"card being cast (on the stack, CR 601.2a)")
        if want == "graveyard" and delved:
            left = Counter(c.name.lower() for c in cards)
            for k, n in used["graveyard"].items():
                left[cards[k].name.lower()] -= n
            for name, n in delved.items():
                if left[name] < n:
                    problems.append(f"delved: the graveyard has no (other) card named {name!r} besides those "
                                    f"exiled for mana (CR 702.66a)")
        need = sum(1 for _, w in unnamed if w == kinds[want][0])
        spare = len(cards) - sum(1 for k in used[want] if used[want][k]) - (
            1 if want == "hand" and cast_in_hand else 0) - (
            sum(delved.values()) if want == "graveyard" else 0)
        if need and need > spare:
            i = next(i for i, w in unnamed if w == kinds[want][0])
            problems.append(f"activations[{i}]: the {want} of {me} has {max(spare, 0)} card"
                            f"{'s' if spare != 1 else ''} left to pay {need} such cost"
                            f"{'s' if need != 1 else ''} (CR 118.3)")


def _check_hand_discards(req: PaymentRequest, pay: Payment, me: str, problems: list[str]) -> None:
    """"Discard your hand" (Lion's Eye Diamond, Diamond Lion): no activation after it uses a card
    of the hand (they are gone, CR 701.9a), and, its ability being "Activate only as an
    instant" (CR 602.5d: not while a spell is being cast), its mana is made before the spell is
    cast, so the card cast can't be in the hand (it would be discarded too)."""
    acts = pay.activations
    first = next((i for i, a in enumerate(acts) if "discard your hand" in a.costs), None)
    if first is None:
        return
    for j in range(first + 1, len(acts)):
        a = acts[j]
        if a.hand is not None or any(pid.startswith("hand:") for pid in a.sacrificed):
            problems.append(f"activations[{j}]: it uses a card of the hand, which activations[{first}] "
                            f"discarded (CR 701.9a)")
    spell = req.spell
    if spell is None or spell.ability or spell.card is None:
        return
    name = spell.card.name.lower()
    if not any(c.name.lower() == name for c in req.state.player(me).hand):
        return
    by_id = {p.id: p for p in req.state.battlefield}
    for i, a in enumerate(acts):
        perm = by_id.get(a.permanent)
        if "discard your hand" in a.costs and perm is not None and "Activate only as an instant" in (
                perm.card.oracle_text):
            problems.append(f"activations[{i}]: {who(perm)} can be activated only as an instant, before "
                            f"{spell.card.name} is cast (CR 602.5d), and discarding the hand then discards "
                            f"it (CR 601.2a)")


def _check_sorcery_timing(req: PaymentRequest, pay: Payment, me: str, problems: list[str]) -> None:
    """Grinning Ignus's "Return ~ to its owner's hand … Activate only as a sorcery": only in the
    player's own main phase with the stack empty (CR 602.5d, 307.1)."""
    turn = req.state.turn
    if turn.active == me and turn.step in ("main1", "main2") and turn.stack_empty:
        return
    for i, a in enumerate(pay.activations):
        if RETURN_SELF in a.costs:
            problems.append(f"activations[{i}]: {a.permanent} can be activated only as a sorcery: in {me}'s "
                            f"main phase with the stack empty (CR 602.5d, 307.1)")


def _zone_words(what: str) -> str:
    return "discard or exile a card from your hand" if what == HAND_CARD else "exile a card from your graveyard"


def _mine(by_id: dict[str, Permanent], me: str, pid: str, where: str, why: str,
          problems: list[str]) -> Permanent | None:
    """The permanent ``pid`` when ``me`` controls it; else None and a problem at ``where``
    (ending ", so ``why``" when given)."""
    perm = by_id.get(pid)
    if perm is None or perm.controller != me:
        problems.append(f"{where}: {pid!r} is not a permanent {me} controls" + (f", so {why}" if why else ""))
        return None
    return perm


def _unmatched(cands: list[list[str]]) -> list[int]:
    """The costs (indices into ``cands``, each a list of the permanent ids that could pay it)
    left without a distinct permanent by a maximum matching, costs taken in order (CR 118.10:
    one permanent pays one cost)."""
    index: dict[str, int] = {}
    edges = [[index.setdefault(pid, len(index)) for pid in pids] for pids in cands]
    left = unplaced([1] * len(cands), [1] * len(index), edges)
    return [k for k, n in enumerate(left) if n]


def _check_named_sacrifices(by_id: dict[str, Permanent], me: str, named: list[tuple[int, str, str]],
                            sac_self: Counter[str], extra_taps: Counter[str],
                            problems: list[str]) -> Counter[str]:
    """The permanents an activation says it sacrificed ("sacrificed": [...]): each one the
    player controls, of the type the cost names, sacrificed once in the whole payment (by an
    Altar or by its own ability), and not convoked or improvised (601.2h comes after the mana
    abilities of 601.2g, when it is gone).  Returns how often each was named."""
    seen: Counter[str] = Counter()
    for i, what, pid in named:
        where = f"activations[{i}]"
        perm = _mine(by_id, me, pid, where, "it cannot be sacrificed (CR 701.21a)", problems)
        if perm is None:
            continue
        if not fits_cost(perm, what):
            problems.append(f"{where}: {who(perm)} is not a {what}, so it cannot pay "
                            f"\"sacrifice a {what}\"")
        seen[pid] += 1
        if seen[pid] == 2 or (seen[pid] == 1 and sac_self[pid]):
            problems.append(f"{where}: {who(perm)} is sacrificed more than once (CR 701.21a)")
        if seen[pid] == 1 and extra_taps[pid]:
            problems.append(f"{where}: {who(perm)} was sacrificed for mana, so it cannot convoke or "
                            f"improvise afterwards (CR 601.2g-h)")
    return seen


def _sacrifice_order(pay: Payment, named: list[tuple[int, str, str]], costly: list[int],
                     problems: list[str]) -> dict[int, set[int]]:
    """An activation that sacrifices a permanent comes after that permanent's own activations
    (it is gone afterwards): such orders must not be circular.  Returns, per sacrificing
    activation, the mana-costing activations it must follow (the mana check orders them)."""
    if not named:
        return {}
    acts = pay.activations
    by_perm: dict[str, list[int]] = {}
    for j, a in enumerate(acts):
        by_perm.setdefault(a.permanent, []).append(j)
    before: dict[int, set[int]] = {}
    for i, _what, pid in named:
        before.setdefault(i, set()).update(j for j in by_perm.get(pid, []) if j != i)
    # Kahn's algorithm over the activations involved.
    nodes = set(before) | {j for js in before.values() for j in js}
    done: set[int] = set()
    while True:
        ready = [v for v in nodes - done if before.get(v, set()) <= done]
        if not ready:
            break
        done.update(ready)
    if done != nodes:
        stuck = sorted(nodes - done)
        problems.append(f"activations[{stuck[0]}]: the sacrifices are circular: each of activations "
                        f"{stuck} sacrifices a permanent whose activation must come first")
        return {}
    costly_set = set(costly)
    out: dict[int, set[int]] = {}
    for i in before:
        need = _closure(i, before) & costly_set
        if need and i not in costly_set:
            out[i] = need
    for i in out:  # and after the sacrificing activations it follows that are ordered too
        out[i] |= _closure(i, before) & set(out)
    return out


def _closure(i: int, before: dict[int, set[int]]) -> set[int]:
    """Every activation that must come before ``i`` (transitively)."""
    out: set[int] = set()
    stack = list(before.get(i, ()))
    while stack:
        j = stack.pop()
        if j not in out:
            out.add(j)
            stack.extend(before.get(j, ()))
    return out


def _check_named_taps(by_id: dict[str, Permanent], me: str, named: list[tuple[int, tuple[str, ...], str]],
                      problems: list[str]) -> Counter[str]:
    """The permanents an activation says its cost tapped ("tapped": [...]; Springleaf Drum,
    Heritage Druid): each one the player controls with one of the types the cost names.
    Returns how often each was tapped, for the tapped/untapped consistency check (an
    untapped permanent taps once; summoning sickness does not matter, CR 302.6)."""
    out: Counter[str] = Counter()
    for i, types, pid in named:
        where = f"activations[{i}]"
        perm = _mine(by_id, me, pid, where, "its cost cannot tap it", problems)
        if perm is None:
            continue
        if not any(fits_cost(perm, t) for t in types):
            problems.append(f"{where}: {who(perm)} is not {' or '.join(types)}, so its cost cannot "
                            f"tap it")
            continue
        out[pid] += 1
    return out


def _check_other_costs(state: GameState, me: str, sac_other: list[tuple[int, str]],
                       tap_others: list[tuple[int, tuple[str, ...]]],
                       sac_self: Counter[str], taps: Counter[str], extra_taps: Counter[str],
                       problems: list[str]) -> None:
    """"Sacrifice a creature" and "tap an untapped creature you control" costs: enough
    distinct permanents must exist (118.10: one permanent pays one cost)."""
    mine = [p for p in state.battlefield if p.controller == me]
    if sac_other:
        # A matching of sacrifice costs to distinct permanents.
        cands = [[p.id for p in mine if not sac_self[p.id] and not extra_taps[p.id]
                  and fits_cost(p, what)] for _, what in sac_other]
        for k in _unmatched(cands):
            i, what = sac_other[k]
            problems.append(f"activations[{i}]: no (other) {what} to sacrifice (CR 118.10)")
    if tap_others:
        # The same matching for "tap an untapped <type> you control" costs that name nothing.
        tap_cands = [[p.id for p in mine if not p.tapped and not taps[p.id] and not extra_taps[p.id]
                      and any(fits_cost(p, t) for t in types)] for _, types in tap_others]
        for k in _unmatched(tap_cands):
            i, types = tap_others[k]
            problems.append(f"activations[{i}]: player {me} has no (other) untapped "
                            f"{' or '.join(types)} to tap for its cost (CR 118.3)")


def check_delve(pay: Payment, player: Player, units: Counter[Unit], problems: list[str]) -> None:
    """Delve (702.66): cards from the graveyard, each paying one generic mana."""
    grave = Counter(c.name.lower() for c in player.graveyard)
    for j, name in enumerate(pay.delved):
        lname = name.lower()
        if grave[lname] <= 0:
            problems.append(f"delved[{j}]: no (other) card named {name!r} in {player.name}'s graveyard")
            continue
        grave[lname] -= 1
        units[Unit("delve", 0)] += 1


def check_pool(pay: Payment, player: Player, units: Counter[Unit], problems: list[str]) -> None:
    """Pool mana used is in the pool."""
    pool: Counter[int] = Counter()
    for s in player.pool.symbols:
        if s.is_numeral:
            pool[C] += s.generic
        elif bit := single_type(s):
            pool[bit] += 1
    used = mana_units(pay.pool_used, "pool_used", problems)
    if used is not None:
        for bit, k in used.items():
            if pool[bit] < k:
                problems.append(f"pool_used: {player.name}'s pool has {pool[bit]} {{{mask_letters(bit)}}}, "
                                f"{k} used")
            units[Unit("pool", bit)] += k


def ability_life_problem(req: PaymentRequest, pay: Payment) -> str | None:
    """Why the payment's life can't include the activated ability's own "Pay N life"
    (CR 602.2b, 119.4), checked before anything else; ``None`` when it can."""
    own = req.ability_life
    if own and pay.life < own:
        return f"the ability's cost includes paying {own} life; the payment's life is {pay.life}"
    return None


def check_life_and_energy(pay: Payment, player: Player, led: Ledger, choice_life: int, cost_energy: int,
                          ability_life: int, problems: list[str]) -> None:
    """Life (119.4: the activations' life costs need that much life; the life paid for the
    cost's symbols needs that much left after those costs and damage), energy (107.14), and
    the totals the payment states for life, energy and damage.  ``player``'s life is already
    less the activated ability's own ``ability_life`` (at least that much of ``pay.life``,
    :func:`ability_life_problem`); the life stated beyond it is checked."""
    me = player.name
    life_costs, damage = led.life_costs, led.damage
    if life_costs > player.life:
        problems.append(f"life: the activations cost {life_costs} life but player {me} has "
                        f"{player.life} (CR 119.4)")
    left = player.life - life_costs - damage
    if choice_life and left < choice_life:
        problems.append(f"life: paying {choice_life} life for the cost needs {choice_life} life, but {me} "
                        f"has {left} after the activations' costs and damage (CR 119.4)")
    stated = pay.life - ability_life  # the answer names the life beyond the ability's own
    if stated != choice_life + life_costs:
        problems.append(f"life: the payment says {stated} life, but it pays {choice_life + life_costs}")
    energy = cost_energy + led.energy_costs
    if energy > player.energy:
        problems.append(f"energy: it pays {energy} energy but player {me} has {player.energy} (CR 107.14)")
    if pay.energy != energy:
        problems.append(f"energy: the payment says {pay.energy} energy, but it pays {energy}")
    if pay.damage != damage:
        problems.append(f"damage: the payment says {pay.damage} damage, but the sources deal {damage}")
