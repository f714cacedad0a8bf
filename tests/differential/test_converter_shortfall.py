"""The least missing mana of an unpayable cost on boards with converters (Signets, filter lands,
Crypt of the Eternals: abilities whose cost is mana, CR 601.2g, 605.3), found by the flow's
converter search, against the CP-SAT slack model on the same boards: the same reason code, the same
amount missing and the same colored part of it (which colors, among equally small answers, may differ)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from manasolver.solver.backends.flow import backend, converters
from manasolver.solver.service.protocol import answer

_LANDS = ("Plains", "Island", "Swamp", "Mountain", "Forest", "Tundra", "Badlands", "Bayou", "Wastes")
_CONVERTERS = ("Azorius Signet", "Golgari Signet", "Izzet Signet", "Mystic Gate", "Graven Cairns",
               "Fire-Lit Thicket", "Crypt of the Eternals", "Skycloud Expanse")
_OTHERS = ("Sol Ring", "Llanowar Elves", "Talisman of Progress", "Command Tower")
_COSTS = ("{W}{W}{U}", "{3}{U}{U}", "{B}{B}{R}", "{2}{G}{G}", "{W}{U}{B}{R}{G}", "{6}", "{1}{W/U}{W/U}",
          "{4}{B}{B}{B}", "{X}{R}{R}", "{C}{C}{U}")


def _board(rng: random.Random) -> dict[str, Any]:
    names = [rng.choice(_LANDS) for _ in range(rng.randint(0, 4))]
    names += [rng.choice(_CONVERTERS) for _ in range(rng.randint(1, 3))]
    names += [rng.choice(_OTHERS) for _ in range(rng.randint(0, 1))]
    perms = [{"id": f"p{i}", "card": n, "tapped": rng.random() < 0.1} for i, n in enumerate(names)]
    return {"players": [{"name": "you", "commander": ["Kenrith, the Returned King"]}], "battlefield": perms}


def _size(missing: str) -> tuple[int, int]:
    """(total, colored) of a ``missing`` cost text."""
    generic = sum(int(n) for n in re.findall(r"\{(\d+)\}", missing))
    colored = len(re.findall(r"\{[^0-9}][^}]*\}", missing))
    return generic + colored, colored


@pytest.mark.parametrize("seed", range(6))
def test_converter_search_finds_as_little_missing_as_the_cpsat_slack_model(seed: int,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    queries = []
    for _ in range(60):
        q = {"query": "can_pay", "state": _board(rng), "cost": rng.choice(_COSTS)}
        if "X" in q["cost"]:
            q["x"] = rng.randint(0, 2)
        queries.append(q)
    searched = [answer(q) for q in queries]
    monkeypatch.setattr(backend, "converter_shortfall", lambda problem: None)
    compared = 0
    for q, got in zip(queries, searched):
        want = answer(q)
        assert got.get("payable") == want.get("payable"), (q, got, want)
        if want.get("payable") or "reason" not in want:
            continue
        assert got["reason"]["code"] == want["reason"]["code"], (q, got, want)
        if "missing" in want["reason"]:
            assert _size(got["reason"]["missing"]) == _size(want["reason"]["missing"]), (q, got, want)
            compared += 1
    assert compared >= 10


def test_signet_paid_by_a_land_is_counted_once_its_cost_paid() -> None:
    """Azorius Signet: {1}, {T}: add {W}{U}.  With one Plains, {W}{W}{U} lacks one {W}: the Plains
    pays the Signet, which adds {W}{U}."""
    board = {"players": [{"name": "you"}], "battlefield": [{"id": "a", "card": "Plains"},
                                                             {"id": "b", "card": "Azorius Signet"}]}
    got = answer({"query": "can_pay", "state": board, "cost": "{W}{W}{U}"})
    assert got["reason"]["missing"] == "{W}", got


def test_two_signets_paying_each_other_are_decided_over_their_orders(monkeypatch: pytest.MonkeyPatch) -> None:
    """One Forest and two Golgari Signets: the Forest pays one Signet, whose mana pays the other
    (CR 605.3, never its own): three mana in all.  The bounds of the search disagree there (a chain
    of converters), so the search tries both orders of the two activations; {B}{B}{G}{G} lacks one
    mana, {B} or {G} (equally small), as the CP-SAT slack model finds."""
    board = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"},
                                                             {"id": "s1", "card": "Golgari Signet"},
                                                             {"id": "s2", "card": "Golgari Signet"}]}
    query = {"query": "can_pay", "state": board, "cost": "{B}{B}{G}{G}"}
    got = answer(query)
    assert got["payable"] is False and got["reason"]["missing"] in ("{B}", "{G}"), got
    monkeypatch.setattr(backend, "converter_shortfall", lambda problem: None)
    want = answer(query)
    assert got["reason"]["code"] == want["reason"]["code"] and _size(got["reason"]["missing"]) == (1, 1), want


def test_a_member_of_hundreds_of_modes_is_declined_by_counting_its_choices() -> None:
    """Selvala, Heart of the Wilds adds X mana in any combination of colors, X the greatest power
    among the player's creatures (Kenrith's 5), and each Kinnan one more of a type it made: 700
    options, each a mode of the search.  Its choices are counted (stars and bars) before any is
    listed, so the search declines at once instead of recursing once per mode (past Python's
    recursion limit)."""
    from manasolver.solver.budget import query_budget
    from manasolver.solver.queries import prepare
    from manasolver.solver.service.handlers import build_request
    names = ("Forest", "Command Tower", "Kinnan, Bonder Prodigy", "Kinnan, Bonder Prodigy",
             "Selvala, Heart of the Wilds", "Kenrith, the Returned King")
    board = {"players": [{"name": "you"}],
             "battlefield": [{"id": f"p{i}", "card": n} for i, n in enumerate(names)]}
    req = build_request({"query": "can_pay", "state": board, "cost": "{4}{B}{B}{B}"})
    with query_budget():
        problem = prepare(req, "feasible", 0)
        assert max(len(cls.options) for cls in problem.supply.classes) > converters.CONVERTER_CHOICES
        assert converters.converter_shortfall(problem) is None


#: Boards on which choices of activations differ a lot in what they make: several Signets and filter
#: lands beside a few lands, so the search's pruning (:func:`converters._beaten`) has choices to drop.
_PRUNED_BOARDS = ("Azorius Signet", "Golgari Signet", "Izzet Signet", "Orzhov Signet", "Mystic Gate",
                  "Graven Cairns", "Fire-Lit Thicket", "Skycloud Expanse", "Crypt of the Eternals",
                  "Coveted Jewel")
_PRUNED_COSTS = ("{W}{W}{U}", "{3}{U}{U}", "{B}{B}{R}", "{2}{G}{G}", "{W}{U}{B}{R}{G}", "{6}", "{8}",
                 "{1}{W/U}{W/U}", "{4}{B}{B}{B}", "{C}{C}{U}", "{2}{W}{W}{B}{B}", "{U}{U}{U}{R}{R}")


def _converter_problems(seed: int, count: int) -> list[Any]:
    """``count`` random unpayable-or-not ``can_pay`` problems of boards of converters."""
    from manasolver.solver.queries import prepare
    from manasolver.solver.service.handlers import build_request
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        names = [rng.choice(_LANDS) for _ in range(rng.randint(0, 3))]
        names += [rng.choice(_PRUNED_BOARDS) for _ in range(rng.randint(2, 4))]
        board = {"players": [{"name": "you"}],
                 "battlefield": [{"id": f"p{i}", "card": n} for i, n in enumerate(names)]}
        req = build_request({"query": "can_pay", "state": board, "cost": rng.choice(_PRUNED_COSTS)})
        out.append(prepare(req, "feasible", 0))
    return out


@pytest.mark.parametrize("seed", range(3))
def test_the_converter_search_prunes_no_choice_that_could_win(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The converter search skips a choice of activations whose least possible shortfall (a form's
    whole cost less the most mana the choice leaves for the spell, :func:`converters._net`) can't rank
    below the best found (:func:`converters._beaten`: a larger total, or an equal one where the best has
    no colored part).  The same search with nothing pruned finds the same least missing mana, the
    same demand by demand (the first of equally small ones, as the search meets them), on boards
    where the pruning drops choices; where that search declines (its bound on orders reached by the
    choices the pruning drops), the pruned one may still answer."""
    from manasolver.solver.budget import query_budget
    with query_budget():
        problems = _converter_problems(seed, 80)
        pruned_calls = []
        beaten = converters._beaten

        def counting(best: converters.Ranked, least: int) -> bool:
            found = beaten(best, least)
            pruned_calls.append(found)
            return found

        monkeypatch.setattr(converters, "_beaten", counting)
        pruned = [converters.converter_shortfall(p) for p in problems]
        monkeypatch.setattr(converters, "_beaten", lambda best, least: False)
        whole = [converters.converter_shortfall(p) for p in problems]
    compared = 0
    for problem, got, want in zip(problems, pruned, whole):
        if want is None:
            continue
        assert got == want, (problem.req.cost.format(), [c.name for c in problem.supply.classes], got, want)
        compared += 1
    assert compared >= 40
    assert sum(pruned_calls) >= 10  # the pruning dropped choices on these boards
