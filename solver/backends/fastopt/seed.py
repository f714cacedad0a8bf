"""The seed of a forward search: a good payment found first, so that the bounds prune at once.

The forward search's own first dive follows the greedy plan of the tables
(:func:`~manasolver.solver.backends.fastopt.tables.greedy_plan`), which takes the cheapest
units per mana: Gaea's Cradle's ten {G} for a cost of three, a payment that wastes seven.
Its answer among payments of equal vectors is the first it meets in its order, so that
order is kept; instead, before it, :func:`find_seed` runs a short forward search (at most
:data:`SEED_NODES` nodes) whose first dive follows :func:`seed_plan`, a plan that pays
each demand from activations that waste nothing where they can.  The best vector that
short search reaches becomes the incumbent's seed (:class:`~manasolver.solver.backends.
fastopt.incumbent.Incumbent`): the real search prunes what is strictly worse, and still
reaches, in its own order, the payment it answers.
"""

from __future__ import annotations

from manasolver.solver.backends.fastopt.forward import FormSearch
from manasolver.solver.backends.fastopt.incumbent import Incumbent
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.linear import LinearCosts
from manasolver.solver.backends.fastopt.modes import Mode
from manasolver.solver.backends.fastopt.tables import Tables
from manasolver.solver.casting.announce import Form

__all__ = ["SEED_NODES", "find_seed", "first_in_order", "seed_plan"]

#: The most nodes the short search of :func:`find_seed` explores (besides the node budget).
SEED_NODES = 40


def seed_plan(modes: list[Mode], class_cap: list[int], form: Form, x: int, tab: Tables) -> list[int]:
    """Activations per mode of a cover that wastes little: the pool first, then each demand
    kind of the spell (fewest able units first), then its generic part, each unit from the
    activation that adds least beyond the units still owed, then cheapest (its packed
    linear cost over the units it pays here).  Modes with mana costs are left out.  Only an
    order for the first dive: never assumed feasible."""
    nm = len(modes)
    kinds, base, contrib, size, act_cost = tab.kinds, tab.base, tab.contrib, tab.size, tab.act_cost
    plan = [0] * nm
    left = list(class_cap)
    pool_left = {i: tab.caps[i] for i in range(nm) if modes[i].k < 0}
    spare: dict[int, int] = {}  # units made but not yet assigned, per mode
    owed = form.mana_total(x)

    def take(i: int) -> None:
        nonlocal owed
        if modes[i].k < 0:
            pool_left[i] -= 1
        else:
            left[modes[i].k] -= 1
        plan[i] += 1
        owed -= size[i]

    classes = [md.k for md in modes]

    def pick(cands: list[int], per: list[int], want: int) -> int:
        best = -1
        best_key: tuple[bool, int, float] | None = None
        short = max(owed, 0)
        for i in cands:
            k = classes[i]
            if (pool_left[i] if k < 0 else left[k]) <= 0:  # none of it left
                continue
            key = (k >= 0, max(0, size[i] - short), act_cost[i] / min(per[i], want))
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    free = [i for i in range(nm) if not modes[i].costs and size[i]]
    spell_kinds = [j for j in range(len(kinds)) if not kinds[j][1] and base[j] > 0]
    spell_kinds.sort(key=lambda j: sum(tab.caps[i] * contrib[i][1 << j] for i in free))
    for j in spell_kinds:
        bit = 1 << j
        want = base[j]
        for i in list(spare):
            if want and contrib[i][bit]:
                use = min(want, spare[i])
                spare[i] -= use
                want -= use
        cands = [i for i in free if contrib[i][bit]]
        per = [contrib[i][bit] for i in range(nm)]
        while want > 0:
            i = pick(cands, per, want)
            if i < 0:
                break
            take(i)
            got = min(want, per[i])
            want -= got
            spare[i] = spare.get(i, 0) + size[i] - got
    want = form.generic(x) - sum(spare.values())
    while want > 0:
        i = pick(free, size, want)
        if i < 0:
            break
        take(i)
        want -= size[i]
    return plan


def find_seed(fi: int, form: Form, x: int, modes: list[Mode], tab: Tables, inc: Incumbent,
              keep: KeepTerms, lin: LinearCosts, criteria: tuple[str, ...], sup_life: int,
              pool_total: int, skip_free_only: bool) -> tuple[bool, tuple[int, ...] | None, list[int] | None]:
    """Run the short search of the module docstring over ``form``; keep the best vector it
    reaches as ``inc``'s seed (when better than what ``inc`` holds) and the covers it met
    whose activations would pay one another's costs.

    Returns ``(searched, least, plan)``.  When the short search ended within its nodes it
    has searched the whole tree of this form (the same tree as the real search, in another
    order): ``searched`` is True and ``least`` is the least vector of the tree, or ``None``
    when nothing in it beats what ``inc`` holds (the real search can then be skipped); the
    real search of this form may stop at the first payment it reaches with ``least``
    (:attr:`FormSearch.stop_at`).  Without activations that cost mana the short search also
    meets every payment of vector ``least`` (it prunes only what is strictly worse), and
    ``plan`` is the one the real search would reach first (:func:`first_in_order`): the
    real search's answer, without running it."""
    bar = inc.bar()[0]
    trial = Incumbent(SEED_NODES)
    trial.seed = bar
    every = not tab.costly and not skip_free_only
    if every:
        trial.ties = []
    search = FormSearch(fi, form, x, modes, tab, trial, keep, lin, criteria, sup_life, pool_total,
                        skip_free_only, seed_plan(modes, keep.class_cap, form, x, tab))
    searched = search.run()
    # Its nodes are not counted in ``inc``'s budget: with the seed the real search meets no
    # node it would not meet without, so it ends within its budget whenever it did without
    # (the short search's own work is at most SEED_NODES a form).
    if trial.uncertain is not None and (inc.uncertain is None or trial.uncertain < inc.uncertain):
        inc.uncertain = trial.uncertain
    found = trial.best
    if found is not None and inc.best is not None and found >= inc.best:
        found = None  # nothing of this tree replaces the answer found
    if found is not None and (inc.seed is None or found < inc.seed):
        inc.seed = found
    plan = None
    if searched and every and found is not None and trial.ties:
        # One plan of that vector is the one reached first (no greedy plan to build).
        plan = trial.ties[0] if len(trial.ties) == 1 else first_in_order(trial.ties, modes, tab.first_plan())
    return searched, found, plan


def first_in_order(plans: list[list[int]], modes: list[Mode], plan: list[int]) -> list[int]:
    """Of ``plans`` (activations per mode, none a prefix of another), the one the forward
    search with first-dive plan ``plan`` reaches first: at each level it tries ``plan``'s
    count first, then the others from most to fewest (from fewest for a mode whose
    activation costs mana), so the first level where two plans differ decides."""
    def order(counts: list[int]) -> tuple[tuple[bool, int], ...]:
        return tuple((c != plan[i], c if modes[i].costs else -c) for i, c in enumerate(counts))
    return min(plans, key=order)
