"""Payment backends behind one interface, with a registry and a documented default per query.

As networkx's ``maximum_flow(flow_func=None)``: one way to ask, a pluggable algorithm, and a
default that may change.  A backend answers :meth:`Backend.solve` with an :data:`Outcome`:

* a :class:`~manasolver.solver.backends.problem.Solution` (written as a PAYMENT by
  :func:`~manasolver.solver.backends.problem.to_payment`);
* :class:`Infeasible`: it proved that no payment exists (and says how);
* :class:`Declined`: it does not model this problem exactly, and says why (the next backend of
  the chain is asked; a backend named by the query makes that an ``Unsupported`` error).

Extra powers are separate protocols, declared per backend in the registry, never probed:
:class:`Decides` (payability without writing a payment), :class:`Explains` (the least missing
mana of an unpayable plain problem), :class:`Relaxes` (the slack model behind the same figure on
any board) and :class:`Enumerates` (every payment of a request).

The registry (:data:`DESCRIPTIONS`) names four backends, each imported only when first asked for
(:func:`backend`, :func:`enumerator`, :func:`explainer`, :func:`relaxer`); the backends keep their
own native interfaces (``Solution``, ``False`` or ``None``), which the registry's adapters turn
into outcomes.  :data:`DEFAULT_CHAINS` is the documented default of each query, run by
:func:`solve`, :func:`decide` and :func:`payable`: each backend in turn until one does not
decline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from manasolver.models.errors import BadQuery, Unsupported
from manasolver.models.slots import slot_setters
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.supply.model import generic_barred

if TYPE_CHECKING:
    from manasolver.solver.backends.cpsat.variables import Model
    from manasolver.solver.backends.fastopt.keep import KeepTerms
    from manasolver.solver.payment import Payment
    from manasolver.solver.request import PaymentRequest
    from manasolver.solver.supply.model import Supply

__all__ = [
    "DEFAULT_CHAINS",
    "DESCRIPTIONS",
    "NAMES",
    "PAYABLE",
    "Backend",
    "BackendName",
    "Decides",
    "Declined",
    "Enumerates",
    "Explains",
    "Infeasible",
    "Outcome",
    "Payable",
    "QueryName",
    "Relaxes",
    "Shortfall",
    "Solver",
    "TimeBound",
    "Verdict",
    "backend",
    "cpsat_model",
    "keep_terms",
    "solve_cpsat_model",
    "decide",
    "enumerator",
    "explainer",
    "hall_check",
    "payable",
    "relaxer",
    "solve",
]

BackendName = Literal["flow", "fastopt", "cpsat", "csp"]
QueryName = Literal["can_pay", "pay", "max_x", "payments"]
#: A demand of the total: ``("spell", mask)``, ``("generic",)`` or ``("snow",)``.
DemandKey = tuple[object, ...]


# -- outcomes ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, init=False)
class Infeasible:
    """The backend proved that the problem has no payment; ``proof`` says how.  ``missing``: the
    least missing mana per demand when the proof found it (the flow's Hall check over units that
    leave nothing out, or its converter search: what the flow's :meth:`Explains.shortfall` answers
    there, without life or energy lacking)."""

    proof: str = ""
    missing: Mapping[DemandKey, int] | None = None

    def __init__(self, proof: str = "", missing: Mapping[DemandKey, int] | None = None) -> None:
        # Each field set through its slot (see slot_setters): one per unpayable query.
        s0, s1 = _INFEASIBLE_SLOTS
        s0(self, proof)
        s1(self, missing)


_INFEASIBLE_SLOTS = slot_setters(Infeasible)


@dataclass(frozen=True, slots=True)
class Declined:
    """The backend does not model the problem exactly; ``why`` is the message a query shows
    when this backend was named."""

    why: str


@dataclass(frozen=True, slots=True)
class TimeBound:
    """The query's time bound (:mod:`~manasolver.solver.budget`) came before the backend could
    tell anything; ``what`` says which search was cut short."""

    what: str


@dataclass(frozen=True, slots=True)
class Payable:
    """Payability proved without a payment written (:meth:`Decides.decide`)."""


#: The one :class:`Payable`.
PAYABLE = Payable()

Outcome = Solution | Infeasible | Declined
Verdict = Payable | Infeasible | Declined


@dataclass(frozen=True, slots=True, init=False)
class Shortfall:
    """What an unpayable problem lacks: the least missing mana per demand (keys as in
    :attr:`Solution.spend`), and the life and energy still lacking; ``proven`` false when the
    time bound stopped the minimisation (a shortfall that would suffice, perhaps not the least)."""

    missing: Mapping[DemandKey, int]
    life: int = 0
    energy: int = 0
    proven: bool = True

    def __init__(self, missing: Mapping[DemandKey, int], life: int = 0, energy: int = 0,
                 proven: bool = True) -> None:
        # Each field set through its slot (see slot_setters): one per unpayable query's reason.
        s0, s1, s2, s3 = _SHORTFALL_SLOTS
        s0(self, missing)
        s1(self, life)
        s2(self, energy)
        s3(self, proven)


_SHORTFALL_SLOTS = slot_setters(Shortfall)


# -- protocols --------------------------------------------------------------------------------

class Backend(Protocol):
    """What every solving backend provides."""

    name: BackendName

    def solve(self, problem: Problem) -> Outcome:
        """A payment of ``problem`` (optimal in ``optimal`` and ``max_x`` modes), or a proof
        that there is none, or why the backend declines."""
        ...


class Decides(Protocol):
    """Payability alone, which may be cheaper than writing a payment."""

    def decide(self, problem: Problem, why: bool = True) -> Verdict:
        """:data:`PAYABLE`, :class:`Infeasible` or :class:`Declined`; ``why``: an :class:`Infeasible`
        carries the least missing mana where the backend finds it on the way (a reason reads it),
        which a caller asking payability alone (``why`` false) does not pay for."""
        ...


class Solver(Backend, Decides, Protocol):
    """A backend in a chain: it solves and decides (deciding may simply solve)."""


class Explains(Protocol):
    """The least missing mana of an unpayable problem, without a solver."""

    def shortfall(self, problem: Problem) -> Shortfall | Declined:
        """Over the forms the player's life and energy allow: the least missing mana (smallest
        total, then most of it generic), and the life and energy a form with no missing mana
        would still lack."""
        ...


class Relaxes(Protocol):
    """The slack model: every demand may go unpaid at a price, life and energy on request."""

    def relaxed(self, problem: Problem, relax_life: bool = False, relax_energy: bool = False,
                mana_first: bool = False) -> Shortfall | Infeasible | TimeBound:
        """The least slack per demand and the life and energy short (``mana_first``: missing
        mana minimised before missing life and energy, else after); :class:`Infeasible` when
        even the relaxed model has no solution; :class:`TimeBound` when the query's time bound
        came before any was found."""
        ...


class Enumerates(Protocol):
    """Every distinct payment of a request."""

    def payments(self, req: PaymentRequest, limit: int = ..., time_limit: float = ...,
                 supply: Supply | None = None) -> tuple[list[Payment], bool]:
        """At most ``limit`` payments and whether the list is complete."""
        ...


# -- the registry -----------------------------------------------------------------------------

#: Every backend's name, as the protocol lists them.
NAMES: tuple[BackendName, ...] = ("flow", "fastopt", "cpsat", "csp")

#: What each backend is and which powers it has.
DESCRIPTIONS: Mapping[BackendName, str] = MappingProxyType({
    "flow": "exact feasibility of plain problems by Hall's condition over grouped units and of "
            "boards of converters (Signets, filter lands) by a search over their activations, a "
            "payment by an augmenting-path max-flow (not optimised), and the least missing mana "
            "(solves, decides, explains; declines optimisation, resource-costing supplies, "
            "and writes no payment with mana-costing sources or convoke/improvise/delve)",
    "fastopt": "the plain-Python exact optimiser: a bounded search over activation counts "
               "(solves; declines unknown supply shapes, weights, spend_color, max_x, assists and "
               "costs that sacrifice or tap other permanents)",
    "cpsat": "OR-Tools CP-SAT: exact optimum under any policy, max X, every resource cost "
             "(solves, decides, relaxes; never declines)",
    "csp": "python-constraint2: every distinct irredundant payment (enumerates)",
})

#: The documented default of each query, which may change: each backend in turn until one does
#: not decline.  ``can_pay``: the flow fast path (Hall's condition, then its search over the
#: converters' activations), then the fast optimiser (its search decides boards of mana-costing
#: sources by counts, where CP-SAT's model grows with the pairs of them), then CP-SAT; ``pay``:
#: the fast optimiser, then CP-SAT; ``max_x``: CP-SAT maximising X (the query first bisects X
#: with the flow's Hall check, :func:`hall_check`, on plain boards); ``payments``: the enumeration.
DEFAULT_CHAINS: Mapping[QueryName, tuple[BackendName, ...]] = MappingProxyType({
    "can_pay": ("flow", "fastopt", "cpsat"),
    "pay": ("fastopt", "cpsat"),
    "max_x": ("cpsat",),
    "payments": ("csp",),
})


#: Mana that pays colored symbols only (Jegantha's): CP-SAT's model alone keeps it from generic costs.
_BARRED = Declined("mana that can't be spent to pay generic mana costs is modelled by CP-SAT alone; "
                   "use the default backend")


def _cannot(name: str) -> Declined:
    return Declined(f"the {name} backend cannot answer this problem exactly; use the default backend")


def _outcome(found: Solution | bool | None, declined: Declined, infeasible: Infeasible) -> Outcome:
    """A native backend's answer as an :class:`Outcome`: the solution, ``declined`` for
    ``None`` (not answered exactly), ``infeasible`` otherwise."""
    if isinstance(found, Solution):
        return found
    return declined if found is None else infeasible


class _Flow:
    """The flow fast path (:mod:`~manasolver.solver.backends.flow`) as a :class:`Solver` and
    :class:`Explains`."""

    name: BackendName = "flow"
    _declined = _cannot("flow")
    _infeasible = Infeasible("Hall's condition fails for every form within the player's life and energy")
    _missing = ("Hall's condition over units that leave nothing out, or the converter search over every "
                "choice of activations, found mana missing for every form")

    def __init__(self) -> None:
        from manasolver.solver.backends.flow import FlowBackend
        self._native = FlowBackend()

    def solve(self, problem: Problem) -> Outcome:
        if generic_barred(problem.supply):
            return _BARRED
        return _outcome(self._native.solve(problem), self._declined, self._infeasible)

    def decide(self, problem: Problem, why: bool = True) -> Verdict:
        verdict = self._native.decide(problem, generic_barred(problem.supply), why)
        if verdict is None:
            return self._declined
        payable, missing = verdict
        if payable:
            return PAYABLE
        return Infeasible(self._missing, missing) if missing else self._infeasible

    def hall(self, problem: Problem) -> Verdict:
        """Hall's condition over the plain and wider units alone (:func:`hall_check`)."""
        if generic_barred(problem.supply):
            return _BARRED
        verdict = self._native.feasible(problem)
        if verdict is None:
            return self._declined
        return PAYABLE if verdict[1] else self._infeasible

    def shortfall(self, problem: Problem) -> Shortfall | Declined:
        if generic_barred(problem.supply):
            return _BARRED
        found = self._native.shortfall(problem)
        if found is None:
            return self._declined
        return Shortfall(found[0], found[1], found[2])


class _FastOpt:
    """The fast optimiser (:mod:`~manasolver.solver.backends.fastopt`) as a :class:`Solver`."""

    name: BackendName = "fastopt"
    _declined = _cannot("fastopt")
    _resources = Declined("the fastopt backend does not model costs that sacrifice or tap other "
                          "permanents, cards in the hand or nonsnow triggered mana on snow lands; "
                          "use the default backend")
    _infeasible = Infeasible("the search over activation counts found no payment")

    def __init__(self) -> None:
        from manasolver.solver.backends.fastopt import FastOptBackend
        self._native = FastOptBackend()

    def solve(self, problem: Problem) -> Outcome:
        if generic_barred(problem.supply):
            return _BARRED
        if problem.supply.resource_costs:
            # Costs that sacrifice other permanents (Altars), tap others, exile cards from the
            # hand: modelled by CP-SAT and the enumeration only, the fast optimiser is never asked.
            return self._resources
        return _outcome(self._native.solve(problem), self._declined, self._infeasible)

    def decide(self, problem: Problem, why: bool = True) -> Verdict:
        found = self.solve(problem)
        return PAYABLE if isinstance(found, Solution) else found


class _CpSat:
    """CP-SAT (:mod:`~manasolver.solver.backends.cpsat`) as a :class:`Solver` and
    :class:`Relaxes`."""

    name: BackendName = "cpsat"
    _infeasible = Infeasible("the CP-SAT model is infeasible")
    _no_slack = Infeasible("the CP-SAT slack model has no solution")
    _cut = TimeBound("the CP-SAT slack model found no solution within the time bound")

    def __init__(self) -> None:
        from manasolver.solver.backends.cpsat import CpSatBackend
        self._native = CpSatBackend()

    def solve(self, problem: Problem) -> Outcome:
        found = self._native.solve(problem)
        return found if isinstance(found, Solution) else self._infeasible

    def decide(self, problem: Problem, why: bool = True) -> Verdict:
        return PAYABLE if self._native.solve(problem) is not False else self._infeasible

    def relaxed(self, problem: Problem, relax_life: bool = False, relax_energy: bool = False,
                mana_first: bool = False) -> Shortfall | Infeasible | TimeBound:
        found = self._native.relaxed(problem, relax_life, relax_energy, mana_first)
        if isinstance(found, bool):
            return self._cut if found else self._no_slack
        return Shortfall(found[0], found[1], found[2], found[3])


def _csp() -> Enumerates:
    from manasolver.solver.backends.csp import CspBackend
    return CspBackend()


_SOLVERS: Mapping[str, Callable[[], Solver]] = MappingProxyType(
    {"flow": _Flow, "fastopt": _FastOpt, "cpsat": _CpSat})
_ENUMERATORS: Mapping[str, Callable[[], Enumerates]] = MappingProxyType({"csp": _csp})
_EXPLAINERS: Mapping[str, Callable[[], Explains]] = MappingProxyType({"flow": _Flow})
_RELAXERS: Mapping[str, Callable[[], Relaxes]] = MappingProxyType({"cpsat": _CpSat})

_solvers: dict[str, Solver] = {}
_enumerators: dict[str, Enumerates] = {}
_explainers: dict[str, Explains] = {}
_relaxers: dict[str, Relaxes] = {}

T = TypeVar("T")


def _load(name: str, table: Mapping[str, Callable[[], T]], loaded: dict[str, T]) -> T:
    """The backend ``name`` as the power ``table`` lists, made once; ``BadQuery`` for an unknown
    name, ``Unsupported`` for a backend without that power."""
    make = table.get(name)
    if make is None:
        if name not in NAMES:
            raise BadQuery(f"unknown backend {name!r}; known: {', '.join(NAMES)}", "backend")
        raise Unsupported(f"the {name} backend does not answer this query", "backend")
    found = loaded[name] = make()
    return found


def backend(name: str) -> Solver:
    """The solving backend called ``name`` (``csp`` enumerates instead: ``Unsupported``)."""
    found = _solvers.get(name)
    return found if found is not None else _load(name, _SOLVERS, _solvers)


def enumerator(name: str = "csp") -> Enumerates:
    """The enumerating backend called ``name``."""
    found = _enumerators.get(name)
    return found if found is not None else _load(name, _ENUMERATORS, _enumerators)


def explainer(name: str = "flow") -> Explains:
    """The backend called ``name`` as an :class:`Explains`."""
    found = _explainers.get(name)
    return found if found is not None else _load(name, _EXPLAINERS, _explainers)


def relaxer(name: str = "cpsat") -> Relaxes:
    """The backend called ``name`` as a :class:`Relaxes`."""
    found = _relaxers.get(name)
    return found if found is not None else _load(name, _RELAXERS, _relaxers)


#: What :func:`solve` and :func:`decide` answer for an empty chain.
_NOT_ASKED = Declined("no backend was asked")


def solve(problem: Problem, chain: tuple[str, ...]) -> Outcome:
    """The first outcome of ``chain`` that is not :class:`Declined` (the last decline when every
    backend declines)."""
    out: Outcome = _NOT_ASKED
    for name in chain:
        out = backend(name).solve(problem)
        if not isinstance(out, Declined):
            return out
    return out


def decide(problem: Problem, chain: tuple[str, ...], why: bool = True) -> Verdict:
    """:func:`solve` for payability alone: each backend's :meth:`Decides.decide` in turn (``why``:
    an unpayable verdict carries what a reason reads, where a backend finds it)."""
    out: Verdict = _NOT_ASKED
    for name in chain:
        out = backend(name).decide(problem, why)
        if not isinstance(out, Declined):
            return out
    return out


def hall_check(problem: Problem) -> Verdict:
    """The flow's verdict by Hall's condition over its plain and wider units, declining where
    they leave something out or it could not write the payment (the converter search only where
    the fast optimiser declines): what ``max_x`` bisects X with on plain boards, leaving boards of
    converters to CP-SAT, which optimises X and the payment at once, and what ``can_pay`` naming
    the flow backend answers (``pay`` naming it writes that payment)."""
    flow = backend("flow")
    assert isinstance(flow, _Flow)
    return flow.hall(problem)


def payable(problem: Problem, chain: tuple[str, ...]) -> bool:
    """Is ``problem`` payable by ``chain`` (:func:`decide`)?  An ``Unsupported`` error naming why
    when every backend of it declines."""
    verdict = decide(problem, chain, why=False)
    if isinstance(verdict, Declined):
        raise Unsupported(verdict.why, "backend")
    return verdict is PAYABLE


# -- backend pieces other rooms build on, reached through the registry ------------------------------

def cpsat_model(problem: Problem) -> Model:
    """CP-SAT's model of ``problem`` (ortools loaded first), for a caller that adds constraints of
    its own before :func:`solve_cpsat_model`: the plan's costs paid jointly and split by cost."""
    from manasolver.solver.backends.cpsat import build_model
    from manasolver.solver.backends.cpsat.solve import _import_cp_model
    _import_cp_model()
    return build_model(problem)


def solve_cpsat_model(problem: Problem, model: Model) -> tuple[Solution, Any] | bool:
    """A model of :func:`cpsat_model` solved stage by stage under the policy, as CP-SAT solves a
    payment: the solution and the solver, or ``False``."""
    from manasolver.solver.backends.cpsat import CpSatBackend
    return CpSatBackend()._solve_model(problem, model)


def keep_terms(problem: Problem, names: tuple[str, ...], counted: KeepTerms | None = None) -> KeepTerms:
    """The ``keep_castable`` and ``keep_colors`` terms of ``problem``'s payments, as the fast
    optimiser counts them, for writing a payment's score: ``counted`` (the terms the problem's
    solution was counted with, :attr:`~manasolver.solver.backends.problem.Solution.keep`) when
    they count what ``names`` asks, else built."""
    if counted is not None and counted.castable == ("keep_castable" in names):
        return counted
    from manasolver.solver.backends.fastopt.keep import KeepTerms
    return KeepTerms(problem, names)
