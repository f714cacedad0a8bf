"""The benchmark plan and its cases: what ``manasolver bench`` measures, and the record of one case.

A :class:`Plan` says how many boards of each size, costs per board and repeats per query a run
takes (:data:`QUICK` for CI, :data:`FULL` for the published figures); :func:`make_cases` turns it
into :class:`Case` records of real boards and costs (:mod:`manasolver.benchmarks.boards`), each of
which the measuring code fills in.  :func:`percentile` is the nearest-rank percentile of the
figures, and :func:`hit_time_bound` reads whether an answer says it stopped at a time bound.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Literal

from manasolver.benchmarks import boards as bd

__all__ = ["FULL", "QUICK", "SLOW_MS", "Case", "CaseKind", "Plan", "hit_time_bound", "make_cases", "ms", "percentile"]

#: What a case's cost is: a real card's cost, or one sized to a large board (all generic, all but
#: two lands' worth, one past Hall's condition), or a payable cost phase.rs refuses.
CaseKind = Literal["real", "generic", "tight", "over", "refusal"]

SLOW_MS = 50.0  # performance target: no query over 50 ms without saying it hit its time bound
_TIME_BOUND_KEYS = ("bounded", "time_bound", "hit_time_bound", "timed_out", "timeout", "time_limit_hit")


@dataclass(frozen=True, slots=True)
class Plan:
    """How much to measure: boards per size, costs per board, repeats per query."""

    boards: dict[int, int]
    costs_per_board: dict[int, int]
    repeats: dict[int, int]
    phase_cases: dict[int, int]
    batch_lines: int
    startup_runs: int
    options: bool
    budget_s: float  # per board size: cases left when it runs out are skipped and counted


QUICK = Plan(boards={10: 2, 40: 2, 300: 1}, costs_per_board={10: 3, 40: 4, 300: 2},
             repeats={10: 3, 40: 3, 300: 1}, phase_cases={10: 1, 40: 1}, batch_lines=40,
             startup_runs=1, options=False, budget_s=3.0)
FULL = Plan(boards={10: 5, 40: 10, 300: 4, 1000: 3}, costs_per_board={10: 10, 40: 20, 300: 5, 1000: 3},
            repeats={10: 5, 40: 5, 300: 5, 1000: 3}, phase_cases={10: 20, 40: 40, 300: 6, 1000: 2},
            batch_lines=2000, startup_runs=7, options=True, budget_s=400.0)


@dataclass(slots=True)
class Case:
    """One board and one cost, and everything measured on it."""

    size: int
    label: str
    board: dict[str, Any]
    cost: str
    kind: CaseKind
    payable: bool | None = None
    error: str | None = None
    valid: bool | None = None
    problems: list[str] = field(default_factory=list)
    time_bound: bool = False
    skipped: bool = False
    tapped: int | None = None  # permanents our payment activates
    floating: int | None = None  # mana our payment produces and leaves unspent
    can_pay_s: list[float] = field(default_factory=list)
    pay_s: list[float] = field(default_factory=list)
    can_pay_cpu: list[float] = field(default_factory=list)  # CPU seconds of the same calls
    pay_cpu: list[float] = field(default_factory=list)
    phase: dict[str, Any] | None = None

    def summary(self) -> dict[str, Any]:
        """A JSON-ready record (times in ms, the board by label only)."""
        out: dict[str, Any] = {"size": self.size, "board": self.label, "cost": self.cost, "kind": self.kind,
                               "payable": self.payable, "error": self.error, "valid": self.valid,
                               "problems": self.problems, "time_bound": self.time_bound,
                               "skipped": self.skipped, "tapped": self.tapped,
                               "floating": self.floating}
        if self.can_pay_s:
            out["can_pay_ms"] = ms(statistics.median(self.can_pay_s))
        if self.pay_s:
            out["pay_ms"] = ms(statistics.median(self.pay_s))
        if self.phase is not None:
            out["phase"] = self.phase
        return out


def ms(seconds: float) -> float:
    """Seconds as milliseconds, rounded to 0.1 µs."""
    return round(seconds * 1000.0, 4)


def percentile(samples: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by nearest rank; 0.0 for no samples."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, math.ceil(q / 100.0 * len(ordered)) - 1))
    return ordered[rank]


def make_cases(plan: Plan) -> list[Case]:
    """The benchmark cases of ``plan``: real costs on 10- and 40-permanent boards, tight and
    impossible costs plus real ones on the large lands boards, and phase.rs's refusals."""
    cases: list[Case] = []
    for size, nboards in plan.boards.items():
        per = plan.costs_per_board.get(size, 1)
        for seed in range(nboards):
            if size == 10:
                board, label = bd.small_board(seed), f"small-{seed}"
            elif size == 40:
                board, label = bd.commander_board(seed), f"commander-{seed}"
            else:
                board, label = bd.lands_board(size, seed), f"lands{size}-{seed}"
            costs: list[tuple[str, CaseKind]]
            if size <= 40:
                costs = [(c, "real") for c in bd.costs_for(1000 * size + seed, per)]
            else:
                sized: list[tuple[str, CaseKind]] = [(bd.generic_cost(board), "generic"),
                                                     (bd.tight_cost(board, seed), "tight"),
                                                     (bd.over_cost(board, seed), "over")]
                costs = sized[:per]
                costs += [(c, "real") for c in bd.costs_for(1000 * size + seed, max(0, per - 3))]
            cases += [Case(size, label, board, cost, kind) for cost, kind in costs]
    for i, (cards, cost) in enumerate(bd.PEER_REFUSALS):
        board = {"players": [{"name": "you"}, {"name": "opponent"}],
                 "battlefield": [bd.permanent(f"r{j}", n) for j, n in enumerate(cards)]}
        cases.append(Case(len(cards), f"refusal-{i}", board, cost, "refusal"))
    return cases


def hit_time_bound(answer: dict[str, Any]) -> bool:
    """True when an answer says it stopped at a time bound: a flag with one of the usual
    field names, or an error answer whose message says so (CP-SAT's "hit its time bound")."""
    if any(answer.get(k) for k in _TIME_BOUND_KEYS):
        return True
    for key in ("reason", "error"):
        inner = answer.get(key)
        if isinstance(inner, dict) and (any(inner.get(k) for k in _TIME_BOUND_KEYS)
                                        or "time bound" in str(inner.get("message", ""))):
            return True
    return False


