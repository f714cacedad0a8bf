"""``can_pay`` with convoke, improvise and delve (CR 702.51a, 702.126a, 702.66a) decided by the flow's
assisted units against the CP-SAT model on the same boards: the same payability, and for an unpayable
cost the same reason code, amount missing and colored part of it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from manasolver.solver.backends.flow import backend
from manasolver.solver.service.protocol import answer

_PERMANENTS = ("Forest", "Plains", "Island", "Llanowar Elves", "Birds of Paradise", "Grizzly Bears",
               "Serra Angel", "Ornithopter", "Sol Ring", "Mind Stone", "Elvish Mystic", "Savannah",
               "Memnite", "Tundra")
_SPELLS = (("Conclave Tribunal", "{3}{W}"), ("Stoke the Flames", "{2}{R}{R}"), ("Chief Engineer", "{1}{U}"),
           ("Treasure Cruise", "{7}{U}"), ("Siege Wurm", "{5}{G}{G}"), ("Metalwork Colossus", "{11}"))


def _query(rng: random.Random) -> dict[str, Any]:
    names = [rng.choice(_PERMANENTS) for _ in range(rng.randint(1, 7))]
    perms = [{"id": f"p{i}", "card": n, "tapped": rng.random() < 0.15, "sick": rng.random() < 0.3}
             for i, n in enumerate(names)]
    spell, cost = rng.choice(_SPELLS)
    you = {"name": "you", "graveyard": ["Island"] * rng.randint(0, 4)}
    q: dict[str, Any] = {"query": "can_pay", "state": {"players": [you], "battlefield": perms}, "cost": cost,
                         "spell": {"card": spell}}
    if rng.random() < 0.3:
        q[rng.choice(("convoke", "improvise", "delve"))] = True
    return q


def _size(missing: str) -> tuple[int, int]:
    generic = sum(int(n) for n in re.findall(r"\{(\d+)\}", missing))
    colored = len(re.findall(r"\{[^0-9}][^}]*\}", missing))
    return generic + colored, colored


@pytest.mark.parametrize("seed", range(5))
def test_assisted_units_decide_as_the_cpsat_model(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    queries = [_query(rng) for _ in range(60)]
    fast = [answer(q) for q in queries]
    monkeypatch.setattr(backend, "assisted_units", lambda problem: None)
    for q, got in zip(queries, fast):
        want = answer(q)
        assert got.get("payable") == want.get("payable"), (q, got, want)
        if "reason" in want:
            assert got["reason"]["code"] == want["reason"]["code"], (q, got, want)
            if "missing" in want["reason"]:
                assert _size(got["reason"]["missing"]) == _size(want["reason"]["missing"]), (q, got, want)


def test_siege_wurm_convoked_by_a_summoning_sick_elf() -> None:
    """A summoning-sick Llanowar Elves can't tap for mana (CR 302.6) but may convoke (Siege Wurm's
    ruling): six Forests and the Elves pay {5}{G}{G}."""
    perms = [{"id": f"f{i}", "card": "Forest"} for i in range(6)] + [{"id": "e", "card": "Llanowar Elves",
                                                                     "sick": True}]
    got = answer({"query": "can_pay", "state": {"players": [{"name": "you"}], "battlefield": perms},
                  "cost": "{5}{G}{G}", "spell": {"card": "Siege Wurm"}})
    assert got == {"payable": True}


@pytest.mark.parametrize("seed", range(3))
def test_max_x_with_convoke_and_delve_as_the_cpsat_model(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chord of Calling ({X}{G}{G}{G}, convoke) and an {X}{U} cost with delve: the largest X by the
    flow's bisection over assisted units is CP-SAT's (CR 601.2f, 702.51a, 702.66a)."""
    rng = random.Random(100 + seed)
    queries = []
    for _ in range(25):
        q = _query(rng)
        if rng.random() < 0.5:
            q.update(cost="{X}{G}{G}{G}", spell={"card": "Chord of Calling"})
        else:
            q.update(cost="{X}{U}", delve=True)
            del q["spell"]
        q["query"] = "max_x"
        queries.append(q)
    fast = [answer(q).get("max_x") for q in queries]
    monkeypatch.setattr(backend, "assisted_units", lambda problem: None)
    assert fast == [answer(q).get("max_x") for q in queries]
