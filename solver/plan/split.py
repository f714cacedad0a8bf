"""The combined solution split by cost, in an order a player can follow.

Each unit of mana that paid a part of the total goes to one cost (in casting order), each
activation to the first cost that uses its mana (directly or through the activations it pays
for); mana an activation makes for a later cost floats in the pool (CR 106.4) and is that cost's
``pool_used``.  Each cost's payment is then written by the backends' writer against its own
problem, as a plan (order, allocation, warnings, score).
"""

from __future__ import annotations

import dataclasses

from manasolver.models.errors import Unsupported
from manasolver.solver.backends.problem import Solution, mana_string, to_payment
from manasolver.solver.payment import Payment
from manasolver.solver.payment_order import mana_bits
from manasolver.solver.payment_writer import finish_payment
from manasolver.solver.plan.combined import Combined, needs
from manasolver.solver.plan.solve import Shares

__all__ = ["split"]


class Stuck(Exception):
    """No order of the activations found for the split (the answer is then refused)."""


def split(combined: Combined, sol: Solution, shares: Shares | None = None) -> list[Payment]:
    """Each cost's payment: its share of the total, the activations it uses first, the mana
    earlier activations left floating (see the module docstring, step 3)."""
    if sol.assists or sol.delved or sol.sacrifices or sol.taps or sol.roles:
        raise Unsupported("the plan's best payment taps or sacrifices other permanents for the costs of "
                          "its mana abilities (Springleaf Drum, Ashnod's Altar), which a plan does not "
                          "split between its costs yet", "costs")
    try:
        return Splitter(combined, sol, shares).payments()
    except Stuck:
        raise Unsupported("the plan's activations could not be ordered between its costs", "costs") from None


class Splitter:
    """The split of one combined solution (records: one per activation of ``sol.acts``)."""

    def __init__(self, combined: Combined, sol: Solution, shares: Shares | None) -> None:
        self.combined = combined
        self.sol = sol
        self.shares = shares
        sup = combined.problem.supply
        self.n = len(combined.costs)
        self.produces: list[dict[tuple[object, ...], int]] = []
        self.by_key: dict[tuple[object, ...], list[int]] = {}
        for r, (k, _m, o) in enumerate(sol.acts):
            cls = sup.classes[k]
            made: dict[tuple[object, ...], int] = {}
            for mask, snow, mult in cls.options[o].slot_groups(cls.snow):
                key: tuple[object, ...] = ("act", k, o, mask) + (("nonsnow",) if cls.snow and not snow else ())
                made[key] = made.get(key, 0) + mult
                self.by_key.setdefault(key, []).append(r)
            self.produces.append(made)
        # the mana costs of activations, by record: (source key, type bit, destination, count)
        self.cost_flows: dict[int, list[tuple[tuple[object, ...], int, tuple[object, ...], int]]] = {}
        # CP-SAT names the member paid for (("cost", k, j, "mask", m), ("cost", k, j, "generic"),
        # ("cost", k, j, "ability", a, ...)); the fast optimiser the option (("cost", k, o, mask), mask an
        # int), whose activations share its units equally
        member = {(k, m): r for r, (k, m, _o) in enumerate(sol.acts)}
        shared: dict[tuple[int, int], dict[object, list[tuple[tuple[object, ...], int, tuple[object, ...]]]]] = {}
        for src, bit, dst, n in sol.spend:
            if n <= 0 or dst[0] != "cost":
                continue
            k, j = int(dst[1]), int(dst[2])  # type: ignore[call-overload]
            if isinstance(dst[3], str):  # CP-SAT's member: ("cost", k, j, "mask", m), ("cost", k, j, "generic")
                self.cost_flows.setdefault(member[(k, j)], []).append((src, bit, dst, n))
            else:
                shared.setdefault((k, j), {}).setdefault(dst[3], []).extend([(src, bit, dst)] * n)
        for (k, o), by_mask in shared.items():
            records = [r for r, (kk, _m, oo) in enumerate(sol.acts) if kk == k and oo == o]
            for rows in by_mask.values():
                each, rest = divmod(len(rows), len(records))
                if rest:  # pragma: no cover - every activation of an option pays the same cost
                    raise Stuck()
                for i, r in enumerate(records):
                    for src, bit, dst in rows[i * each:(i + 1) * each]:
                        self.cost_flows.setdefault(r, []).append((src, bit, dst, 1))
        self.stage: dict[int, int] = {}
        self.cost_dst: dict[tuple[int, tuple[object, ...], int], tuple[object, ...]] = {}
        # per stage: (source key as written, bit, destination, count), and floated units per record
        self.spend: list[list[tuple[tuple[object, ...], int, tuple[object, ...], int]]] = [[] for _ in range(self.n)]
        self.floated: dict[int, list[tuple[tuple[object, ...], int, int]]] = {}

    def payments(self) -> list[Payment]:
        sol, combined = self.sol, self.combined
        parts = combined.parts[sol.form]
        # 1. an order of the activations, each paid (601.2g) from the pool or from those before it
        left: dict[int, dict[tuple[object, ...], int]] = {}
        order: list[int] = []
        paid_by: dict[int, list[tuple[int, tuple[object, ...], int, int]]] = {}  # r: (payer or -1, key, bit, n)
        todo = list(range(len(sol.acts)))
        while todo:
            for r in todo:
                taken = self._pay_cost(r, left)
                if taken is not None:
                    break
            else:
                raise Stuck()
            todo.remove(r)
            paid_by[r] = taken
            left[r] = dict(self.produces[r])
            order.append(r)
        # 2. each cost's share of the total, in casting order, from the activations in that order
        use: list[list[tuple[int, tuple[object, ...], int, tuple[object, ...]]]] = [[] for _ in range(self.n)]
        units: dict[tuple[object, ...], list[tuple[tuple[object, ...], int]]] = {}
        for src, bit, dst, n in sol.spend:
            if n > 0 and dst[0] in ("spell", "generic", "snow"):
                units.setdefault(dst, []).extend([(src, bit)] * n)
        for dst in units:  # the pool first, then each source's units together
            units[dst].sort(key=lambda u: (u[0][0] != "pool", repr(u[0]), u[1]))
        if self.shares is not None:  # restricted mana: each cost's share as the model chose it
            for s in range(self.n):
                for (src, bit, dst), counts in sorted(self.shares.items(), key=repr):
                    for _ in range(counts[s]):
                        use[s].append((self._unit(src, left, order), src, bit, dst))
            units = {}
        for s, (p, f) in enumerate(zip(combined.costs, parts)):
            if self.shares is not None:
                continue
            for dst, count in needs(p, f).items():
                taken_units, units[dst] = units.get(dst, [])[:count], units.get(dst, [])[count:]
                if len(taken_units) < count:  # pragma: no cover - the combined total is the sum
                    raise Stuck()
                for src, bit in taken_units:
                    use[s].append((self._unit(src, left, order), src, bit, dst))
        # 3. each activation with the first cost that uses its mana, directly or through the
        # activations it pays for (those come after it); mana nothing spends floats to the end
        first: dict[int, int] = {}
        for s, rows in enumerate(use):
            for r, _src, _bit, _dst in rows:
                if r >= 0:
                    first[r] = min(first.get(r, s), s)
        for r in reversed(order):
            self.stage[r] = first.get(r, self.n - 1)
            for payer, _key, _bit, _n in paid_by[r]:
                if payer >= 0:
                    first[payer] = min(first.get(payer, self.stage[r]), self.stage[r])
        # 4. what each cost spends: its own activations' mana, else the pool (mana floating since)
        for s, rows in enumerate(use):
            for r, src, bit, dst in rows:
                self._spent(r, src, bit, dst, 1, s)
        for r in order:
            for payer, key, bit, n in paid_by[r]:
                dst = self.cost_dst[(r, key, bit)]
                self._spent(payer, key, bit, dst, n, self.stage[r])
        out = []
        for s, (p, f) in enumerate(zip(combined.costs, parts)):
            acts = [a for r, a in enumerate(sol.acts) if self.stage[r] == s]
            spend = list(self.spend[s])
            extra: list[int] = []
            for r, rows2 in self.floated.items():
                if self.stage[r] == s:
                    for key, bit, n in rows2:
                        spend.append((key, bit, ("float",), n))
                        extra.extend([bit] * n)
            sub = Solution(f, p.x if p.x is not None else 0, acts, spend, optimal=sol.optimal)
            pay = to_payment(p, sub)
            if extra:
                pay = dataclasses.replace(pay, floating=mana_string([*mana_bits(pay.floating), *extra]))
            out.append(finish_payment(p, pay))
        return out

    def _pay_cost(self, r: int, left: dict[int, dict[tuple[object, ...], int]]
                  ) -> list[tuple[int, tuple[object, ...], int, int]] | None:
        """The units that pay record ``r``'s mana cost from the pool and the activations already
        made (``left``: their unspent units, taken), or ``None`` when they can't yet."""
        need: dict[tuple[tuple[object, ...], int], int] = {}
        for src, bit, dst, n in self.cost_flows.get(r, []):
            need[(src, bit)] = need.get((src, bit), 0) + n
            self.cost_dst[(r, src, bit)] = dst
        plan: list[tuple[int, tuple[object, ...], int, int]] = []
        for (src, bit), n in need.items():
            if src[0] == "pool":
                plan.append((-1, src, bit, n))
                continue
            have = sum(left[q].get(src, 0) for q in left)
            if have < n:
                return None
        for (src, bit), n in need.items():
            if src[0] == "pool":
                continue
            for q in list(left):
                t = min(n, left[q].get(src, 0))
                if t:
                    left[q][src] -= t
                    n -= t
                    plan.append((q, src, bit, t))
                if not n:
                    break
        return plan

    def _unit(self, src: tuple[object, ...], left: dict[int, dict[tuple[object, ...], int]], order: list[int]) -> int:
        """The activation a unit of ``src`` paying the total comes from (-1: the pool), taken."""
        if src[0] == "pool":
            return -1
        for r in order:
            if left[r].get(src, 0) > 0:
                left[r][src] -= 1
                return r
        raise Stuck()  # pragma: no cover - the solution's flows balance

    def _spent(self, r: int, src: tuple[object, ...], bit: int, dst: tuple[object, ...], n: int, stage: int) -> None:
        """``n`` units from activation ``r`` (-1: the pool) paying ``dst`` during cost ``stage``."""
        if r >= 0 and self.stage[r] == stage:
            self.spend[stage].append((src, bit, dst, n))
            return
        self.spend[stage].append((("pool", bit), bit, dst, n))
        if r >= 0:  # made during an earlier cost's casting: floating in the pool since
            self.floated.setdefault(r, []).append((src, bit, n))

