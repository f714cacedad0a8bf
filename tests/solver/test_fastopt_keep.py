"""keep_castable's term in the fast optimiser (``fastopt/keep.py``): what the members left untapped
can still pay, read as Hall's condition with its sums linear in the members used, agrees with
Hall's condition over the units left (``backends.matching.hall_ok``) on real boards."""

from __future__ import annotations

import random

import pytest

from manasolver.benchmarks import boards
from manasolver.benchmarks.client import varied_board
from manasolver.solver import queries
from manasolver.solver.service import protocol
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.matching import UnitKind, hall_ok
from manasolver.solver.request import DEFAULT_POLICY


def _lost_by_hall(keep: KeepTerms, used: list[int]) -> int:
    """The kept costs the members left can't pay, by :func:`hall_ok` over their units."""
    units: list[UnitKind] = []
    for k, per in enumerate(keep.keep_units):
        left = keep.class_cap[k] - used[k]
        if left > 0:
            units.extend((m, snow, left * mult, k, ()) for m, snow, mult in per)
    return sum(times for forms, times in zip(keep.keep_forms, keep.keep_weight)
               if not any(hall_ok(units, f, f.generic(0)) for f in forms))


@pytest.mark.parametrize("seed", range(6))
def test_keep_castable_lost_costs_agree_with_halls_condition(seed: int) -> None:
    state = (varied_board if seed % 2 else boards.commander_board)(7000 + seed)
    state["players"][0]["hand"] = ["Counterspell", "Cultivate", "Swords to Plowshares", "Kodama's Reach",
                                   "Lightning Helix", "Cryptic Command", "Birds of Paradise"]
    req = protocol.build_request({"query": "pay", "state": state, "cost": "{1}{G}"})
    problem = queries.prepare(req, "optimal", 0)
    keep = KeepTerms(problem, DEFAULT_POLICY)
    assert keep.keep_forms  # the hand's costs
    rng = random.Random(seed)
    caps = keep.class_cap
    vectors = [[0] * len(caps), list(caps)]
    vectors += [[rng.randint(0, c) for c in caps] for _ in range(60)]
    vectors += [[c if rng.random() < 0.2 else 0 for c in caps] for _ in range(60)]
    # Nearly everything used: a few members left, so the whole cost's count binds too.
    vectors += [[c - (rng.randint(0, 2) if rng.random() < 0.3 else 0) for c in caps] for _ in range(60)]
    lost = {keep.keep_lost(v) for v in vectors}
    assert len(lost) > 1  # some used members cost a kept card, some don't
    for used in vectors:
        assert keep.keep_lost(used) == _lost_by_hall(keep, used), used


@pytest.mark.parametrize("seed", range(3))
def test_pay_scores_keep_castable_with_the_search_s_own_terms(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh board's ``pay``: the payment's score counts keep_castable and keep_colors with the
    keep terms the optimiser's search built for the same problem (built once, not again for the
    score), and the score is what fresh terms count."""
    from manasolver.solver.backends.fastopt import keep as keep_module
    state = boards.commander_board(7100 + seed)
    state["players"][0]["hand"] = ["Counterspell", "Cultivate", "Lightning Helix", "Birds of Paradise"]
    built: list[KeepTerms] = []
    original = keep_module.KeepTerms.__init__

    def counted(self: KeepTerms, *args: object) -> None:
        built.append(self)
        original(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(keep_module.KeepTerms, "__init__", counted)
    got = protocol.answer({"query": "pay", "state": state, "cost": "{2}{G}"})
    assert got["payable"] is True and len(built) == 1
    monkeypatch.setattr(keep_module.KeepTerms, "__init__", original)
    req = protocol.build_request({"query": "pay", "state": state, "cost": "{2}{G}"})
    problem = queries.prepare(req, "optimal", 0)
    fresh = KeepTerms(problem, problem.policy.criteria)
    score = dict(got["payment"]["score"])
    ids = {a["permanent"] for a in got["payment"]["activations"]}
    used = [sum(1 for m in cls.members if m in ids) for cls in problem.supply.classes]
    assert score["keep_castable"] == fresh.keep_lost(used)
    assert score["keep_colors"] == fresh.colors_lost(used)
