"""Paying by hand: which activations keep a cost payable, and the best way to finish it.

A player paying by hand activates mana abilities one at a time.  :func:`guide` takes the
activations made so far (``partial``) and answers exactly which activations, made next, still
leave the cost payable (``next``, what a client lights up) and the best payment that extends the
partial one (``completion``, a PAYMENT of the whole cost on the original board).  The same
machinery pays with ``sources.require``: the required permanents are activated first, in every
way they can be, and the best completion over those ways is the payment.

The partial payment is carried out step by step (:mod:`~manasolver.solver.carry`): each step a
mana ability the permanent can activate now (CR 605.3a), its mana cost paid from the pool (every
way of paying it is kept: which mana paid a filter land's ``{U/R}`` matters later), its mana
added to the pool.  The cost is then payable after the partial payment when the pool and the
permanents left can pay it (the ``can_pay`` question on the board after).

A step whose ability's cost takes other permanents names them as a PAYMENT's activation does
(``sacrificed``: what Ashnod's Altar sacrificed; ``tapped``: what Springleaf Drum tapped), and each
such activation in ``next`` names its choice (one entry per choice that keeps the cost payable,
choices among interchangeable permanents checked once).  A card's mana ability from the hand
(Simian Spirit Guide, CR 602.2a) is the step ``"permanent": "hand:<i>"``, ``i`` the card's index
in the hand the query was asked about (indices do not move as cards leave).  Not modelled as a
step, and refused naming the card: snow mana made partly by a nonsnow trigger (Wild Growth on a
snow land: the pool after a step keeps no snow); the completion may still use it.

``next`` is found with one payability check per source class, not per activation: members of a
class are interchangeable, and if the cost is payable without one member of a class, activating
that member in any way keeps it payable (its mana floats).  Only when a class is needed are its
ways (each option, each mana it can make) checked one by one.  Activations with a mana cost are
checked on the board after them.  On boards whose supply has costs that use other permanents
(an Altar's sacrifice, Springleaf Drum) or assists, every candidate is checked on the board after
it.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from manasolver.models.errors import BadQuery, ManasolverError, Unsupported
from manasolver.models.state import GameState
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, TYPE_BITS, C
from manasolver.solver import backends
from manasolver.solver.backends import DEFAULT_CHAINS, PAYABLE, Declined
from manasolver.solver.backends.problem import Solution
from manasolver.solver.carry import (ANY_COUNTERS, Effects, any_counters_kind, carried, excluded_board, pool_text,
                                     removed_for)
from manasolver.solver.request import PaymentRequest
from manasolver.solver.supply.model import Option, SourceClass, Supply
from manasolver.solver.unspent import spend, spends_pool, unspent_boards

if TYPE_CHECKING:
    from manasolver.solver.payment_writer import Finisher

__all__ = ["Guide", "Step", "guide", "read_partial"]


@dataclass(frozen=True, slots=True)
class Step:
    """One activation of a manual payment: ``permanent``, ``ability`` (index among its mana
    abilities), ``mana`` (what it adds, as text; empty: the only thing it can add);
    ``sacrificed``, ``tapped``: the other permanents its cost sacrifices (Ashnod's Altar) or
    taps (Springleaf Drum), as a PAYMENT's activation names them."""

    permanent: str
    ability: int
    mana: str = ""
    sacrificed: tuple[str, ...] = ()
    tapped: tuple[str, ...] = ()


@dataclass(frozen=True)
class Guide:
    """``completable``; ``next``: the activations that keep the cost payable, as
    ``{"permanent", "ability", "mana"}``; ``completion``: the best payment extending the partial
    one (PAYMENT), or ``reason`` (REASON) when there is none or the partial payment is illegal
    (``where`` naming its first bad step)."""

    completable: bool
    next: tuple[dict[str, Any], ...] = ()
    completion: dict[str, Any] | None = None
    reason: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"completable": self.completable, "next": list(self.next)}
        if self.completion is not None:
            out["completion"] = self.completion
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def read_partial(raw: object) -> list[Step]:
    """The ``partial`` field: a list of ``{"permanent": ID, "ability": N, "mana"?: TEXT,
    "sacrificed"?: [ID], "tapped"?: [ID]}``."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > 1000:
        raise BadQuery("partial must be a list of at most 1,000 activations", "partial")
    out: list[Step] = []
    for i, item in enumerate(raw):
        where = f"partial[{i}]"
        if not isinstance(item, dict):
            raise BadQuery("an activation must be an object {\"permanent\": ID, \"ability\": N}", where)
        unknown = set(item) - {"permanent", "ability", "mana", "sacrificed", "tapped"}
        if unknown:
            raise BadQuery(f"unknown field {min(unknown)!r} of an activation", where)
        pid, ability, mana = item.get("permanent"), item.get("ability", 0), item.get("mana", "")
        if not isinstance(pid, str):
            raise BadQuery("permanent must be the id of a permanent", where + ".permanent")
        if isinstance(ability, bool) or not isinstance(ability, int) or ability < 0:
            raise BadQuery("ability must be the index of a mana ability", where + ".ability")
        if not isinstance(mana, str):
            raise BadQuery("mana must be mana text such as {G}", where + ".mana")
        others: dict[str, tuple[str, ...]] = {}
        for key in ("sacrificed", "tapped"):
            ids = item.get(key, [])
            if not isinstance(ids, list) or len(ids) > 100 or not all(isinstance(i, str) for i in ids):
                raise BadQuery(f"{key} must be a list of permanent ids", f"{where}.{key}")
            others[key] = tuple(ids)
        out.append(Step(pid, ability, mana, others["sacrificed"], others["tapped"]))
    return out


# -- the board after a step ---------------------------------------------------------------------

#: Each type bit's mana symbol.
_SYMBOL = {b: "{" + "WUBRGC"[i] + "}" for i, b in enumerate(TYPE_BITS)}


def _text(bits: Sequence[int]) -> str:
    """Mana as text in WUBRGC order (``pool_text`` of the units, without counting them)."""
    return "".join(_SYMBOL[b] for b in sorted(bits, key=TYPE_BITS.index))


def realizations(opt: Option) -> list[tuple[int, ...]]:
    """Every distinct multiset of mana one activation of ``opt`` can add (each slot one type of
    its mask), sorted in WUBRGC order."""
    choices = [[b for b in TYPE_BITS if b & mask] for mask in opt.slots]
    seen: dict[tuple[int, ...], None] = {}
    for combo in itertools.product(*choices):
        seen.setdefault(tuple(sorted(combo, key=TYPE_BITS.index)), None)
    return list(seen)


def _cost_masks(opt: Option) -> list[int]:
    out: list[int] = []
    for sym in opt.mana_cost.symbols:
        if sym.special or sym.variable:
            continue
        if sym.is_numeral:
            out.extend([ANY_TYPE] * sym.generic)
        else:
            out.append((sym.colors & ANY_COLOR) | (C if sym.colorless else 0) or ANY_TYPE)
    return out


def _pool_ways(pool: Counter[int], masks: list[int]) -> list[Counter[int]]:
    """Every distinct multiset of pool mana that pays the symbols ``masks``."""
    found: dict[tuple[int, ...], Counter[int]] = {}

    def rec(i: int, left: Counter[int], took: list[int]) -> None:
        if i == len(masks):
            key = tuple(sorted(took))
            found.setdefault(key, Counter(took))
            return
        for b in TYPE_BITS:
            if left[b] and b & masks[i]:
                left[b] -= 1
                took.append(b)
                rec(i + 1, left, took)
                took.pop()
                left[b] += 1

    rec(0, Counter(pool), [])
    return list(found.values())


@dataclass(frozen=True)
class _Branch:
    """The board after some activations (``state``) and its supply, with the PAYMENT
    activations made and what they cost."""

    state: GameState
    supply: Supply
    acts: tuple[dict[str, Any], ...] = ()
    life: int = 0
    energy: int = 0
    damage: int = 0
    #: For each card now in the player's hand, its index in the original hand (None: unchanged).
    hand: tuple[int, ...] | None = None
    #: The part of the pool read as made by the activations, the rest the board's own
    #: (:func:`~manasolver.solver.unspent.spend`), as ``(type bit, count)`` pairs.
    made: tuple[tuple[int, int], ...] = ()

    def original(self, j: int) -> int:
        """The original hand index of the card now at index ``j``."""
        return j if self.hand is None else self.hand[j]

    def current(self, i: int) -> int | None:
        """The index now of the card at original index ``i`` (None: it has left the hand)."""
        if self.hand is None:
            return i
        return self.hand.index(i) if i in self.hand else None

    def public(self, pid: str) -> str:
        """A member id as the client names it: a hand card by its original index."""
        return f"hand:{self.original(int(pid[5:]))}" if pid.startswith("hand:") else pid


def _pool(supply: Supply) -> Counter[int]:
    return Counter(dict(supply.pool))


def _by_supply(opt: Option) -> bool:
    """Is the supply after activating ``opt`` the supply before it less the member (an option
    that taps or sacrifices it) or as it was, with the pool changed?  Not when its cost removes
    counters (the member's later mana depends on them)."""
    return not opt.removes_counters


def _after(req: PaymentRequest, branch: _Branch, k: int, m: int, opt: Option, made: tuple[int, ...],
           paid: Counter[int], plain: bool, sacrificed: tuple[str, ...] = (), tapped: tuple[str, ...] = ()
           ) -> _Branch:
    """The branch after member ``m`` of class ``k`` activates ``opt``, paying ``paid`` from the
    pool and adding ``made``; its cost sacrificing ``sacrificed`` and tapping ``tapped``."""
    cls = branch.supply.classes[k]
    pid = cls.members[m]
    pool = _pool(branch.supply)
    pool.subtract(paid)
    pool.update(made)
    before = Counter(dict(branch.made))
    _own, ours = spend(_pool(branch.supply) - before, before, paid, req.policy)
    ours.update(made)
    eff = Effects(req.player, life=opt.life + opt.damage, energy=opt.energy, pool=pool_text(+pool))
    if opt.tap or "{T}" in opt.costs:
        eff.tapped.append(pid)
    if "{Q}" in opt.costs:
        eff.untapped.append(pid)
    if opt.sacrifice:
        eff.gone.append(pid)
    for cost in opt.costs:
        if cost.startswith("remove "):
            parts = cost.split(" ")
            if parts[1].isdigit():
                eff.counters[(pid, " ".join(parts[2:-1]))] += int(parts[1])
            elif opt.removes_any and cost.startswith(ANY_COUNTERS):  # as validation counts them
                removed = removed_for(branch.state, pid, opt.ability, Counter(made), 1)
                eff.counters[(pid, any_counters_kind(cost))] += removed
    act: dict[str, Any] = {"permanent": pid, "ability": opt.ability, "costs": list(opt.costs), "mana": _text(made)}
    hand = branch.hand
    if cls.hand:  # exiled or discarded from the hand as its cost (602.2a): the later indices move
        j = int(pid[5:])
        eff.hand_gone.append(j)
        now = list(range(len(branch.state.player(req.player).hand))) if hand is None else list(hand)
        act = {"hand": now[j], "card": branch.state.player(req.player).hand[j].name, "ability": opt.ability,
               "costs": list(opt.costs), "mana": _text(made)}
        hand = tuple(now[:j] + now[j + 1:])
    if sacrificed:
        eff.gone.extend(sacrificed)
        act["sacrificed"] = list(sacrificed)
    if tapped:
        eff.tapped.extend(tapped)
        act["tapped"] = list(tapped)
    state = carried(branch.state, eff)
    if plain and _by_supply(opt):
        supply = _minus(branch.supply, k, m if opt.exclusive else None, opt, made, paid)
    else:
        supply = _supply(req, state)
    return _Branch(state, supply, (*branch.acts, act), branch.life + opt.life,
                   branch.energy + opt.energy, branch.damage + opt.damage, hand, tuple(sorted(ours.items())))


def _usable(opt: Option, cls: SourceClass) -> bool:
    """Can a manual payment step take this option?  Not mana a snow permanent makes through a
    nonsnow trigger (the pool after a step keeps no snow)."""
    return not opt.nonsnow_tail


def _refusal(opt: Option, cls: SourceClass) -> str:
    """What a manual payment step can't yet be, named (see :func:`_usable`)."""
    return (f"{cls.name}: snow mana made partly by a nonsnow trigger as a manual payment step is not "
            "modelled")


#: Ways of choosing what one activation's cost sacrifices or taps, tried at most.
MAX_CHOICES = 256


def _eligible(supply: Supply, groups: Sequence[Any], types: Sequence[str], exclude: str | None) -> dict[str, int]:
    """The permanents (by id, with their group's index) of ``groups`` having any of ``types``."""
    out: dict[str, int] = {}
    for g, group in enumerate(groups):
        if group.matches & set(types):
            for pid in group.members:
                if ":" not in pid and pid != exclude:
                    out.setdefault(pid, g)
    return out


def choices(supply: Supply, opt: Option, pid: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every way of choosing what ``opt``'s cost sacrifices (one permanent of each type of
    ``sacrifice_other``, distinct) and taps (``tap_creatures`` distinct untapped permanents of its
    types, not ``pid`` when it taps itself), as (sacrificed, tapped); ``[((), ())]`` when it takes
    no other permanent.  :class:`Unsupported` past :data:`MAX_CHOICES`."""
    sac_ways: list[tuple[str, ...]] = [()]
    for t in opt.sacrifice_other:
        ok = _eligible(supply, supply.fodder, (t,), None)
        sac_ways = [w + (q,) for w in sac_ways for q in ok if q not in w]
    tap_ways: list[tuple[str, ...]] = [()]
    if opt.tap_creatures:
        ok = _eligible(supply, supply.tappable, opt.tap_types or ("creature",), pid if opt.tap else None)
        tap_ways = list(itertools.islice(itertools.combinations(ok, opt.tap_creatures), MAX_CHOICES + 1))
    out = [(a, b) for a in sac_ways for b in tap_ways if not set(a) & set(b)]
    if len(out) > MAX_CHOICES:
        raise Unsupported(f"more than {MAX_CHOICES} ways to choose what the cost of {pid}'s mana ability "
                          f"{opt.ability} sacrifices or taps; this engine does not list them all", "partial")
    return out


def _supply(req: PaymentRequest, state: GameState) -> Supply:
    from manasolver.solver.queries import prepare
    return prepare(dataclasses.replace(req, state=state), "feasible", req.x or 0).supply


def _find(supply: Supply, pid: str, ability: int) -> list[tuple[int, int, Option]]:
    """Class, member and option of each option of mana ability ``ability`` of ``pid`` in
    ``supply`` (an ability with several productions may be several options)."""
    for k, cls in enumerate(supply.classes):
        if pid in cls.members:
            m = cls.members.index(pid)
            return [(k, m, opt) for opt in cls.options if opt.ability == ability]
    return []


def _find_all(req: PaymentRequest, state: GameState, pid: str) -> list[Option]:
    """The options permanent ``pid`` can take as a manual payment step now."""
    for cls in _supply(req, state).classes:
        if pid in cls.members:
            return [opt for opt in cls.options if _usable(opt, cls)]
    return []


def _plain(req: PaymentRequest, supply: Supply) -> bool:
    """May the steps be carried out on the supply alone (no costs that use other permanents or
    cards, no assists)?"""
    return not supply.resource_costs and not (req.convoke or req.improvise or req.delve)


def carry_partial(req: PaymentRequest, steps: Sequence[Step]) -> list[_Branch] | dict[str, Any]:
    """The boards after the partial payment (one per way of paying its mana costs from the pool
    that leaves a different pool), or the REASON naming its first bad step."""
    from manasolver.solver.carry import _units
    first = _supply(req, req.state)
    plain = _plain(req, first)
    branches = [_Branch(req.state, first)]
    for i, step in enumerate(steps):
        where = f"partial[{i}]"
        nxt: dict[tuple[tuple[tuple[int, int], ...], ...], _Branch] = {}
        for branch in branches:
            member = step.permanent
            if member.startswith("hand:"):  # a card of the hand, by its index in the original hand
                j = branch.current(int(member[5:])) if member[5:].isdigit() else None
                if j is None:
                    return _bad(where, f"{member} is not a card in the hand now")
                member = f"hand:{j}"
            found = _find(branch.supply, member, step.ability)
            if not found:
                try:
                    if not member.startswith("hand:"):
                        branch.state.permanent(step.permanent)
                except KeyError:
                    return _bad(where, f"there is no permanent {step.permanent!r}")
                return _bad(where, f"{step.permanent} can't activate mana ability {step.ability} now "
                                   f"(tapped, summoning sick, no such ability, or its cost can't be paid)")
            k, m, opt = found[0]
            cls = branch.supply.classes[k]
            if not _usable(opt, cls):
                raise Unsupported(_refusal(opt, cls), where)
            others = (step.sacrificed, step.tapped)
            takes = [(kk, mm, o) for kk, mm, o in found if _fits(choices(branch.supply, o, step.permanent), *others)]
            if not takes:
                return _bad(where, _others_wrong(branch.supply, opt, step))
            found = takes
            k, m, opt = found[0]
            pays = _pool_ways(_pool(branch.supply), _cost_masks(opt))
            if not pays:
                return _bad(where, f"the mana cost {opt.mana_cost.format()} of {cls.name} {step.permanent} "
                                   f"can't be paid from the mana in the pool (CR 605.3a)")
            ways = [w for _k, _m, o in found for w in realizations(o)]
            if step.mana:
                try:
                    want = tuple(sorted(_units(step.mana).elements(), key=TYPE_BITS.index))
                except ManasolverError:
                    return _bad(where + ".mana", f"{step.mana!r} is not mana text")
                chosen = next(((kk, mm, o) for kk, mm, o in found if want in realizations(o)), None)
                if chosen is None:
                    return _bad(where + ".mana", f"{cls.name} can't add {step.mana} with ability {step.ability}")
                k, m, opt = chosen
                ways = [want]
            elif len(ways) > 1:
                return _bad(where + ".mana", f"{cls.name} can add {', '.join(_text(w) for w in ways)}: "
                                             f"say which under mana")
            if opt.life and branch.supply.life < opt.life:
                return _bad(where, f"{cls.name} needs {opt.life} life (CR 119.4)")
            if opt.energy and branch.supply.energy < opt.energy:
                return _bad(where, f"{cls.name} needs {opt.energy} energy (CR 107.14)")
            for paid in pays:
                after = _after(req, branch, k, m, opt, ways[0], paid, plain, step.sacrificed, step.tapped)
                nxt.setdefault((after.supply.pool, after.made), after)
        branches = list(nxt.values())
    return branches


def _fits(ways: list[tuple[tuple[str, ...], tuple[str, ...]]], sacrificed: tuple[str, ...],
          tapped: tuple[str, ...]) -> bool:
    """Is (``sacrificed``, ``tapped``) one of ``ways`` (the tapped permanents in any order)?"""
    return any(a == sacrificed and sorted(b) == sorted(tapped) for a, b in ways)


def _others_wrong(supply: Supply, opt: Option, step: Step) -> str:
    """Why a step's ``sacrificed``/``tapped`` don't fit its ability's cost."""
    if opt.sacrifice_other and len(step.sacrificed) != len(opt.sacrifice_other):
        return (f"the cost of {step.permanent}'s ability {step.ability} sacrifices "
                f"{' and '.join('a ' + t for t in opt.sacrifice_other)}: name it under sacrificed")
    if opt.tap_creatures and len(step.tapped) != opt.tap_creatures:
        return (f"the cost of {step.permanent}'s ability {step.ability} taps {opt.tap_creatures} untapped "
                f"{' or '.join(opt.tap_types or ('creature',))} permanent(s): name them under tapped")
    if not opt.sacrifice_other and step.sacrificed or not opt.tap_creatures and step.tapped:
        return f"the cost of {step.permanent}'s ability {step.ability} sacrifices and taps no other permanent"
    return (f"{', '.join(step.sacrificed + step.tapped)} can't be sacrificed or tapped for the cost of "
            f"{step.permanent}'s ability {step.ability} now (its type, tapped, or already used)")


def _bad(where: str, message: str) -> dict[str, Any]:
    return {"code": "illegal_partial", "message": f"{where}: {message}", "where": where}


# -- which activations keep it payable ----------------------------------------------------------

def _payable_with(req: PaymentRequest, supply: Supply) -> bool:
    from manasolver.solver.queries import problem_for
    problem = problem_for(req, supply, "feasible", req.x or 0)
    return backends.decide(problem, DEFAULT_CHAINS["can_pay"], why=False) is PAYABLE


def _minus(supply: Supply, k: int, m: int | None, opt: Option, made: tuple[int, ...],
           paid: Counter[int] | None = None) -> Supply:
    """``supply`` after member ``m`` of class ``k`` activated ``opt`` (``m`` None: it stays,
    an ability that neither taps nor sacrifices it), paying ``paid`` from the pool and adding
    ``made`` to it."""
    classes = list(supply.classes)
    cls = classes[k]
    if m is not None:
        classes[k] = SourceClass(cls.members[:m] + cls.members[m + 1:], cls.positions[:m] + cls.positions[m + 1:],
                                 cls.options, cls.snow, cls.kind, cls.name, cls.creature, cls.hand)
    pool = Counter(dict(supply.pool))
    if paid:
        pool.subtract(paid)
    pool.update(made)
    return Supply(supply.player, tuple(sorted((+pool).items())), tuple(c for c in classes if c.members),
                  supply.excluded, supply.life - opt.life, supply.energy - opt.energy, supply.creatures,
                  supply.fodder, supply.tappable)


def _candidates(supply: Supply) -> Iterator[tuple[int, SourceClass, Option, tuple[int, ...]]]:
    for k, cls in enumerate(supply.classes):
        for opt in cls.options:
            if _usable(opt, cls):
                for made in realizations(opt):
                    yield k, cls, opt, made


def _rest(req: PaymentRequest, branch: _Branch) -> dict[str, Any] | None:
    """The best payment of the cost on the branch's board (its supply), or None."""
    from manasolver.solver.backends.problem import to_payment
    from manasolver.solver.payment_writer import direct_json
    from manasolver.solver.queries import problem_for
    sub = dataclasses.replace(req, state=branch.state, sources=dataclasses.replace(req.sources, require=()))
    problem = problem_for(sub, branch.supply, "optimal", req.x or 0)
    found = backends.solve(problem, DEFAULT_CHAINS["pay"])
    if isinstance(found, Declined):
        raise Unsupported(found.why, "backend")
    if not isinstance(found, Solution):
        return None
    return direct_json(problem, found) or to_payment(problem, found).to_json()


def next_steps(req: PaymentRequest, branch: _Branch, rest: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The activations that, made next on ``branch``'s board, leave the cost payable (``rest``:
    a payment of it there, None when there is none)."""
    if rest is None:
        return []
    supply = branch.supply
    sub = dataclasses.replace(req, state=branch.state)
    plain = _plain(req, supply)
    pool = _pool(supply)
    used = {a.get("permanent") for a in rest["activations"]} | set(rest.get("convoked", ())) | set(
        rest.get("improvised", ())) | {pid for a in rest["activations"]
                                       for pid in [*a.get("sacrificed", ()), *a.get("tapped", ())]}
    out: list[dict[str, Any]] = []
    spare: dict[int, bool] = {}
    for k, cls, opt, made in _candidates(supply):
        if opt.sacrifice_other or opt.tap_creatures:
            out.extend(_next_taking_others(req, branch, k, cls, opt, made))
            continue
        ok = False
        if plain and _by_supply(opt) and opt.mana_cost:
            ok = any(_payable_with(sub, _minus(supply, k, 0 if opt.exclusive else None, opt, made, paid))
                     for paid in _pool_ways(pool, _cost_masks(opt)))
        elif opt.mana_cost or not plain or not _by_supply(opt):
            for paid in _pool_ways(pool, _cost_masks(opt)):
                after = _after(req, branch, k, 0, opt, made, paid, plain)
                if _payable_with(dataclasses.replace(req, state=after.state), after.supply):
                    ok = True
                    break
        elif not opt.exclusive and not (opt.life or opt.energy):
            ok = True  # it stays untapped, and its mana may float
        elif opt.life or opt.energy:
            ok = _payable_with(sub, _minus(supply, k, 0 if opt.exclusive else None, opt, made))
        else:
            if k not in spare:  # some member the payment leaves alone: activating any of them keeps it
                spare[k] = any(pid not in used for pid in cls.members)
            ok = spare[k] or _payable_with(sub, _minus(supply, k, 0, opt, made))
        if ok:
            text = _text(made)
            out.extend({"permanent": branch.public(pid), "ability": opt.ability, "mana": text} for pid in cls.members)
    return out


def _group_of(groups: Sequence[Any]) -> dict[str, int]:
    return {pid: g for g, group in enumerate(groups) for pid in group.members}


def _next_taking_others(req: PaymentRequest, branch: _Branch, k: int, cls: SourceClass, opt: Option,
                        made: tuple[int, ...]) -> list[dict[str, Any]]:
    """The activations of ``opt`` (its cost sacrificing or tapping other permanents) that keep
    the cost payable: each member and each choice of what it takes, checked on the board after
    it; choices alike (the same groups of interchangeable permanents, the member itself among
    them or not) are checked once."""
    supply = branch.supply
    fodder, tappable = _group_of(supply.fodder), _group_of(supply.tappable)
    pool = _pool(supply)
    seen: dict[tuple[object, ...], bool] = {}
    out: list[dict[str, Any]] = []
    for m, pid in enumerate(cls.members):
        for sac, tap in choices(supply, opt, pid):
            key = (tuple(fodder.get(q, -1) for q in sac), tuple(sorted(tappable.get(q, -1) for q in tap)),
                   pid in sac, pid in tap)
            if key not in seen:
                seen[key] = any(
                    _payable_with(dataclasses.replace(req, state=after.state), after.supply)
                    for after in (_after(req, branch, k, m, opt, made, paid, False, sac, tap)
                                  for paid in _pool_ways(pool, _cost_masks(opt))))
            if seen[key]:
                entry: dict[str, Any] = {"permanent": branch.public(pid), "ability": opt.ability, "mana": _text(made)}
                if sac:
                    entry["sacrificed"] = list(sac)
                if tap:
                    entry["tapped"] = list(tap)
                out.append(entry)
    return out


def _original_hand(branch: _Branch, act: dict[str, Any]) -> dict[str, Any]:
    """An activation of a payment made on the branch's board, its hand indices the original
    hand's."""
    if branch.hand is None:
        return act
    out = dict(act)
    if "hand" in act:
        out["hand"] = branch.original(int(act["hand"]))
    if any(str(s).startswith("hand:") for s in act.get("sacrificed", ())):
        out["sacrificed"] = [branch.public(str(s)) for s in act["sacrificed"]]
    return out


def combined(req: PaymentRequest, branch: _Branch, rest: dict[str, Any]) -> dict[str, Any]:
    """The PAYMENT of the whole cost on the original board: the partial payment's activations,
    then ``rest`` (a payment made on the board after them).  What ``rest`` spent of the pool, all
    of it there before ``rest`` began, is taken from the branch's reading of it as the policy
    ranks (:func:`~manasolver.solver.unspent.spend`): what is left of the board's own pool is
    its pool left unused, what is left of the mana made floats with ``rest``'s own."""
    from manasolver.solver.carry import _units
    pl = req.state.player(req.player)
    start = _units(pl.pool.format()) if pl.pool.symbols else Counter()
    made = Counter(dict(branch.made))
    own, made = spend(_pool(branch.supply) - made, made, _units(rest.get("pool_used", "")), req.policy)
    out = dict(rest)
    later = [_original_hand(branch, a) for a in rest.get("activations", [])]
    out["activations"] = [*branch.acts, *later]
    out["pool_used"] = pool_text(+(start - own))
    out["floating"] = pool_text(_units(rest.get("floating", "")) + made)
    out["life"] = int(rest.get("life", 0)) + branch.life
    out["energy"] = int(rest.get("energy", 0)) + branch.energy
    out["damage"] = int(rest.get("damage", 0)) + branch.damage
    for key in ("allocation", "warnings", "score"):
        out.pop(key, None)
    return out


def guide(req: PaymentRequest, steps: Sequence[Step]) -> Guide:
    """See the module docstring; ``sources.exclude`` are never lit nor used by the completion."""
    if req.sources.exclude:
        # the excluded permanents are taken as tapped, and named idle: left untapped after the
        # payment, the keep terms count them (their colors, what they feed)
        excluded = set(req.sources.exclude)
        idle = tuple(p.id for p in req.state.battlefield if not p.tapped and p.id in excluded)
        req = dataclasses.replace(req, state=excluded_board(req.state, req.sources.exclude),
                                  sources=dataclasses.replace(req.sources, idle=idle))
    from manasolver.solver.payment_writer import Finisher
    from manasolver.solver.queries import prepare
    branches = carry_partial(req, steps)
    if isinstance(branches, dict):
        return Guide(False, reason=branches)
    nexts: dict[tuple[str, int, str, tuple[str, ...], tuple[str, ...]], dict[str, Any]] = {}
    best: tuple[list[int], dict[str, Any]] | None = None
    finisher: Finisher | None = None
    for branch in branches:
        rest = _rest(req, branch)
        for entry in next_steps(req, branch, rest):
            nexts.setdefault((entry["permanent"], entry["ability"], entry["mana"],
                              tuple(entry.get("sacrificed", ())), tuple(entry.get("tapped", ()))), entry)
        if rest is not None:
            finisher = finisher or Finisher(prepare(req, "feasible", req.x or 0))
            for whole in _completed(req, branch, rest, finisher):
                key = [v for _n, v in whole["score"]]
                if best is None or key < best[0]:
                    best = (key, whole)
    if best is None:
        from manasolver.solver.queries import can_pay
        why = can_pay(dataclasses.replace(req, state=branches[0].state, sources=type(req.sources)())).reason
        reason = why.to_json() if why is not None else {"code": "insufficient_mana",
                                                        "message": "the cost can't be completed"}
        return Guide(False, tuple(nexts.values()), reason=reason)
    return Guide(True, tuple(nexts.values()), best[1])


def completions(req: PaymentRequest, branches: Sequence[_Branch]) -> Iterator[dict[str, Any]]:
    """The payments extending the branches, as plans, in branch order (:func:`_completed`)."""
    from manasolver.solver.payment_writer import Finisher
    from manasolver.solver.queries import prepare
    finisher = Finisher(prepare(req, "feasible", req.x or 0))
    for branch in branches:
        rest = _rest(req, branch)
        if rest is not None:  # none on the whole pool: none on less of it
            yield from _completed(req, branch, rest, finisher)


def _completed(req: PaymentRequest, branch: _Branch, rest: dict[str, Any], finisher: Finisher
               ) -> Iterator[dict[str, Any]]:
    """The payments extending ``branch``, as plans: ``rest`` (its best on its board) completing
    it, then, when that leaves some of the pool (the partial payment's mana floats, CR 106.4), its
    best leaving each part of the pool unspent (:mod:`~manasolver.solver.unspent`), so that the
    best whole payment, by the whole payment's score, is among them."""
    whole = finisher.plan(combined(req, branch, rest))
    yield whole
    if spends_pool(req.state, req.player, [(whole["floating"], whole["pool_used"])]):
        return
    for board, order in unspent_boards(branch.state, req.player, req.policy):
        sub = dataclasses.replace(req, state=board, policy=dataclasses.replace(req.policy, criteria=order))
        found = _rest(sub, _Branch(board, _supply(sub, board)))
        if found is not None:
            yield finisher.plan(combined(req, branch, found))
