"""The fast optimiser's search of one problem: its passes, and the searches kept per board.

:class:`Search` holds what depends only on the board and the policy (the modes, the keep
terms, the packed linear costs, the relaxation, the demand tables per form, the complement
search) and runs one query over it:

* a first pass over every form without the modes whose activation costs mana (small
  demand tables, and usually the answer), forms searched best bound first and skipped
  when their relaxation can't beat the answer found; each form by the forward search
  (:mod:`~manasolver.solver.backends.fastopt.forward`) or, when it needs most of the
  board, by the complement search;
* a second pass with the activations that cost mana (filter lands, Signets): the
  relaxation drops every such mode that can't beat the answer of the first pass, the
  survivors are searched with the free modes — each survivor's class alone when the
  relaxation also rules out every pair — skipping the part already searched.

:func:`search_for` keeps one search per supply object, so the queries on one board reuse
it (a board sent again is the same state when the board cache or a session keeps it).  No
search is found by what a board holds: a class's members are permanent ids, which change
from one game to the next.  A search holds the state of the query it runs, so the kept
searches are per thread: a thread never sees another's search.
"""

from __future__ import annotations

import threading

from manasolver.models._memo import KeyMemo
from manasolver.models.state import GameState
from manasolver.solver.backends.fastopt.bounds import Relaxation
from manasolver.solver.backends.fastopt.complement import ComplementSearch
from manasolver.solver.backends.fastopt.forward import FormSearch
from manasolver.solver.backends.fastopt.incumbent import Incumbent
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.linear import LinearCosts
from manasolver.solver.backends.fastopt.modes import Mode, build_modes, mode_cap
from manasolver.solver.backends.fastopt.seed import find_seed
from manasolver.solver.backends.fastopt.tables import Tables, build_tables
from manasolver.solver.backends.problem import Problem
from manasolver.solver.casting.announce import Form
from manasolver.solver.supply.model import Supply

__all__ = ["COSTLY_NODE_BUDGET", "MAX_COSTLY_KINDS", "NODE_BUDGET", "Search", "clear_searches", "search_for"]

#: Nodes explored before the search gives the problem to CP-SAT.
NODE_BUDGET = 1500
#: The same with activations that cost mana (Signets, filter lands): such boards are
#: usually answered faster by CP-SAT than by a long search here.
COSTLY_NODE_BUDGET = 600
#: With activations that cost mana, the most demand kinds (the cost's and the activation
#: costs') the search takes on.
MAX_COSTLY_KINDS = 6


class Search:
    """The branch and bound for one board and policy, ready for one query at a time
    (:meth:`reset`, then :meth:`run`); the answer is in :attr:`inc` and :attr:`best_modes`."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...], keep: KeepTerms,
                 modes: list[Mode]) -> None:
        self.p = problem
        self.sup = problem.supply
        self.criteria = criteria
        self.keep = keep
        #: The problem the search (and :attr:`keep`) was built for: a solution of that problem
        #: carries :attr:`keep` to its payment's score (:attr:`Solution.keep`).
        self.origin = problem
        self.class_cap = keep.class_cap
        self.lin = LinearCosts(criteria)
        self.inc = Incumbent(NODE_BUDGET)
        self.modes_all = modes
        self.modes = list(modes)
        self.best_modes: list[Mode] = []
        self.skip_free_only = False
        self.relax = Relaxation(modes, self.class_cap, self.sup.pool_total, criteria, self.lin, keep)
        self.complement = ComplementSearch(self.sup, criteria, keep, self.inc)
        self._tables: KeyMemo[tuple[object, ...], Tables] = KeyMemo(limit=64)

    @classmethod
    def build(cls, problem: Problem, criteria: tuple[str, ...]) -> Search | None:
        """A search for ``problem``'s board; ``None`` when its supply is outside the
        modelled shape (the modes, or the units keep_castable reads)."""
        keep = KeepTerms(problem, criteria)
        built = build_modes(problem)
        if built is None or not keep.shape_ok:
            return None
        return cls(problem, criteria, keep, built[0])

    @property
    def first_plan(self) -> bool:
        """Does the query ask only whether the cost can be paid (``feasible`` mode: can_pay, the
        X probes of max_x)?  Then the first payment found answers it, not the fewest sources."""
        return self.p.mode == "feasible"

    def reset(self, problem: Problem) -> None:
        """Ready this search for a new query on the same board (see :func:`search_for`)."""
        self.p = problem
        self.inc.reset(NODE_BUDGET)
        self.best_modes = []
        self.modes = list(self.modes_all)
        self.skip_free_only = False

    def run(self) -> bool:
        """Search every form; False when the node budget ran out (see the module docstring)."""
        sup = self.sup
        x = self.p.x
        assert x is not None
        inc = self.inc
        relax = self.relax
        every = self.modes
        forms = [(fi, f) for fi, f in enumerate(self.p.forms)
                 if f.life <= sup.life and f.energy <= sup.energy]
        self.modes = [md for md in every if not md.costs]
        self.skip_free_only = False
        if not self._pass(forms, x):
            return False
        costly = [md for md in every if md.costs]
        if costly and not (self.first_plan and inc.plan is not None):
            keep = [md for md in costly
                    if any(relax.costly_may_win(form, x, md, inc) for _, form in forms)] \
                if relax.any_may_win(forms, x, costly, inc) else []
            if keep:
                inc.budget = inc.nodes + COSTLY_NODE_BUDGET
                self.skip_free_only = True
                groups = [keep]
                if len({md.k for md in keep}) > 1 and not relax.pairs_may_win(forms, x, keep, inc):
                    groups = [[md for md in keep if md.k == k] for k in sorted({md.k for md in keep})]
                width = max(len(f.demands) + (1 if f.snow else 0) for _, f in forms)
                for group in groups:
                    if len({m for md in group for m, _ in md.costs}) + width > MAX_COSTLY_KINDS:
                        return False  # 2^kinds demand sets per node: CP-SAT is faster here
                for group in groups:
                    self.modes = [md for md in every if not md.costs or any(md is c for c in group)]
                    if not self._pass(forms, x):
                        return False
        self.modes = every
        return inc.seed_kept()  # never False: the seed is a payment of the same search

    def _pass(self, forms: list[tuple[int, Form]], x: int) -> bool:
        """One search of every form over :attr:`modes`."""
        inc = self.inc
        before = inc.plan
        lows: dict[int, tuple[int, ...] | None] = {}
        if len(forms) > 1:
            # Most promising forms first (Reaper King has 32); a form whose relaxation
            # can't beat the answer found is not searched.
            lows = {fi: self.relax.lower_vector(form, x) for fi, form in forms}
            forms = sorted((ff for ff in forms if lows[ff[0]] is not None),
                           key=lambda ff: (lows[ff[0]], ff[0]))
        for fi, form in forms:
            if self.first_plan and inc.plan is not None:
                break  # a feasibility question: one payment answers it
            low = lows.get(fi)
            if low is not None and inc.prunes(low):
                continue
            if low is not None and inc.bar()[0] is not None and inc.prunes(self.relax.floor(form, x)):
                continue  # the bound with min_waste: skipped, the order of forms kept
            if not self.skip_free_only and self.complement.fits(self.modes, form, x):
                if not self.complement.search(fi, form, x, self.modes):
                    return False
            elif not self._search_form(fi, form, x):
                return False
        if inc.plan is not before:
            self.best_modes = list(self.modes)
        return True

    def _search_form(self, fi: int, form: Form, x: int) -> bool:
        """The forward search of one form over :attr:`modes`, after a short one for a seed
        (:mod:`~manasolver.solver.backends.fastopt.seed`)."""
        tab = self.tables(form, x)
        args = (fi, form, x, self.modes, tab, self.inc, self.keep, self.lin, self.criteria,
                self.sup.life, self.sup.pool_total, self.skip_free_only)
        searched, least, plan = find_seed(*args)
        if searched and least is None:
            return True  # the short search met every payment of this form: none is better
        if plan is not None:  # and the one the search below would answer
            self.inc.best = least
            self.inc.plan = (fi, plan)
            return True
        search = FormSearch(*args)
        if searched:
            search.stop_at = least
        search.first_plan = self.first_plan
        return search.run()

    def tables(self, form: Form, x: int) -> Tables:
        """The demand tables of ``form`` over :attr:`modes`, kept per (modes, form, X): the
        search object lives as long as its supply (:func:`search_for`)."""
        modes = self.modes
        key = (tuple(id(md) for md in modes), id(form), x)
        tab = self._tables.get(key, form)
        if tab is None:
            caps = [mode_cap(md, self.sup) for md in modes]
            act_cost = [0 if md.k < 0 else self.lin.act_cost(md) for md in modes]
            tab = self._tables.put(key, form, build_tables(modes, form, x, caps, self.class_cap,
                                                            act_cost))
        return tab


class _Kept(threading.local):
    """The searches one thread keeps.  A :class:`Search` carries the state of the query it
    runs (its incumbent, its modes, its problem), so a search is never shared between
    threads: two threads asking about one board each build and keep their own."""

    def __init__(self) -> None:
        #: Searches by supply and state object (the queries on one board).
        self.searches: KeyMemo[tuple[object, ...], tuple[GameState, Search | None]] = KeyMemo(limit=256)


_KEPT = _Kept()


def clear_searches() -> None:
    """Forget the searches this thread keeps (a fresh process's answers, for tests)."""
    _KEPT.searches.clear()


def search_for(problem: Problem, criteria: tuple[str, ...]) -> Search | None:
    """A search for ``problem``, ready to run; ``None`` when its supply is outside the
    modelled shape.  What depends only on the supply, the spell's restrictions, the
    criteria and the kept costs (modes, keep terms and their caches, the search tables)
    is reused across queries on one board: supplies are cached per state."""
    sup: Supply = problem.supply
    state = problem.req.state
    kept = _KEPT
    key = (id(sup), id(state), problem.spell_ok, criteria, problem.policy.keep_castable, problem.req.sources.idle)
    hit = kept.searches.get(key, sup)
    if hit is not None and hit[0] is state:
        search = hit[1]
    else:
        search = Search.build(problem, criteria)
        kept.searches.put(key, sup, (state, search))
    if search is not None:
        search.reset(problem)
    return search
