"""A problem made again at another mode or X (`Problem.at`) or without its restrictions keeps
every other field as `dataclasses.replace` would."""

from __future__ import annotations

import dataclasses

from manasolver.models.cost import ManaCost
from manasolver.solver.backends.problem import Problem


def test_a_problem_at_another_mode_or_x_keeps_the_rest() -> None:
    from manasolver.models.carddb import default_db
    from manasolver.models.board.load import load_state
    from manasolver.solver.queries import prepare
    from manasolver.solver.request import PaymentRequest
    state = load_state({"players": [{"name": "you"}],
                        "battlefield": [{"id": "f", "card": "Forest"}, {"id": "g", "card": "Gilded Lotus"}]},
                       default_db())
    problem = prepare(PaymentRequest(state, ManaCost.parse("{X}{G}"), "you", x=1), "optimal", 1)
    moved = problem.at("feasible", 3)
    assert (moved.mode, moved.x) == ("feasible", 3)
    assert moved == dataclasses.replace(problem, mode="feasible", x=3)
    assert (moved.forms, moved.has_assists) == (problem.forms, problem.has_assists)
    lifted = problem.without_restrictions()
    assert lifted == dataclasses.replace(problem, spell_ok=problem.supply.all_ok) and isinstance(lifted, Problem)
