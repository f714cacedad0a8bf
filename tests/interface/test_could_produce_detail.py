"""``could_produce`` with ``"detail": true``: for each permanent and each type it could
produce, the chain of permanents the type comes from through the source graph (CR 106.7).

The chains are read from the bundled card data through the protocol: a Reflecting Pool's blue
comes from an Island, an Exotic Orchard's green from the opponent's Forest, a Fellwar Stone's
colors from the opponent's lands and never their colorless, and chains cross players (the CR
106.7 example: an Orchard mirrors an Orchard that mirrors a Forest).  Plain ``could_produce``
does not import networkx (tests/interface/test_startup.py); ``detail`` does, in a fresh process
here too.  A board of a thousand Pools answers with a chain per Pool, one edge each into and out
of the set of lands they mirror.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from manasolver.solver.service.protocol import answer


def _board(*perms: tuple[str, str, str]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": pid, "card": card, "controller": who} for pid, card, who in perms]}


def _detail(state: dict[str, Any]) -> dict[str, Any]:
    result = answer({"query": "could_produce", "state": state, "detail": True})
    assert "error" not in result, result
    plain = answer({"query": "could_produce", "state": state})
    assert result["could_produce"] == plain["could_produce"], (result, plain)
    assert set(result["why"]) == set(result["could_produce"])
    for pid, letters in result["could_produce"].items():  # a chain for each type, none for others
        assert sorted(result["why"][pid]) == sorted(letters), (pid, result["why"][pid], letters)
        for letter, chain in result["why"][pid].items():
            assert chain[0] == pid and len(set(chain)) == len(chain), chain
    why: dict[str, Any] = result["why"]
    return why


def test_rule_106_7_reflecting_pool_blue_comes_from_island() -> None:
    why = _detail(_board(("i1", "Island", "you"), ("rp", "Reflecting Pool", "you"),
                         ("f", "Forest", "opponent")))
    assert why["rp"] == {"U": ["rp", "i1"]}  # the opponent's Forest is not a land you control
    assert why["i1"] == {"U": ["i1"]}  # a basic makes its own


def test_rule_106_7_two_reflecting_pools_alone_have_no_chain() -> None:
    why = _detail(_board(("a", "Reflecting Pool", "you"), ("b", "Reflecting Pool", "you")))
    assert why == {"a": {}, "b": {}}


def test_rule_106_7_exotic_orchard_green_from_the_opponents_forest() -> None:
    why = _detail(_board(("o", "Exotic Orchard", "you"), ("f", "Forest", "opponent"),
                         ("w", "Wastes", "opponent")))
    assert why["o"] == {"G": ["o", "f"]}  # colors only: the Wastes' {C} is not mirrored


def test_rule_106_7_example_orchards_and_pool_chain_across_players() -> None:
    """CR 106.7's example: you have a Forest and an Orchard, the opponent an Orchard and a
    Reflecting Pool; all could produce {G}, each chain ending at the Forest."""
    why = _detail(_board(("f", "Forest", "you"), ("o1", "Exotic Orchard", "you"),
                         ("o2", "Exotic Orchard", "opponent"), ("rp", "Reflecting Pool", "opponent")))
    assert why["o1"] == {"G": ["o1", "o2", "f"]}
    assert why["o2"] == {"G": ["o2", "f"]}
    assert why["rp"] == {"G": ["rp", "o2", "f"]}


def test_fellwar_stone_colors_from_opponents_lands_never_colorless() -> None:
    """Fellwar Stone: any color a land an opponent controls could produce; Mystic Gate's {C}
    and the Wastes are not colors."""
    why = _detail(_board(("fs", "Fellwar Stone", "you"), ("f", "Forest", "you"),
                         ("w", "Wastes", "opponent"), ("m", "Mystic Gate", "opponent")))
    assert why["fs"] == {"W": ["fs", "m"], "U": ["fs", "m"]}
    assert why["m"] == {"W": ["m"], "U": ["m"], "C": ["m"]}


def test_a_thousand_reflecting_pools_each_have_their_chain() -> None:
    perms = [(f"i{i}", "Island", "you") for i in range(3)] + [(f"p{i}", "Reflecting Pool", "you")
                                                            for i in range(1000)]
    why = _detail(_board(*perms))
    assert all(why[f"p{i}"] == {"U": [f"p{i}", "i0"]} for i in range(1000))


def test_detail_must_be_a_boolean() -> None:
    result = answer({"query": "could_produce", "state": _board(("i", "Island", "you")), "detail": "yes"})
    assert result["error"]["code"] == "bad_query" and result["error"]["where"] == "detail", result


@pytest.mark.parametrize("detail", [False, True])
def test_networkx_is_imported_only_for_detail(detail: bool, tmp_path: object) -> None:
    child = textwrap.dedent(f"""
        import json, sys
        from manasolver.solver.service.protocol import answer
        state = {{"players": [{{"name": "you"}}], "battlefield": [
            {{"id": "i1", "card": "Island"}}, {{"id": "rp", "card": "Reflecting Pool"}}]}}
        out = answer({{"query": "could_produce", "state": state, "detail": {detail}}})
        print(json.dumps({{"answer": out, "networkx": "networkx" in sys.modules}}))
    """)
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120,
                          check=False, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["networkx"] is detail, out
    assert ("why" in out["answer"]) is detail, out
    if detail:
        assert out["answer"]["why"]["rp"] == {"U": ["rp", "i1"]}
