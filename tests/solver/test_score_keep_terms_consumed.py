"""A payment's ``score`` counts ``keep_colors`` as the backends optimise it: what stays untapped
after the payment.  A permanent tapped for another's cost (Survivors' Encampment's "Tap an untapped
creature you control": Howlsquad Heavy no longer makes {R}) is used; a repeatable ability that does
not tap (Skyshroud Elf's "{1}: Add {R} or {W}") leaves its permanent untapped.  Both were counted the
other way, so the scores of equally good payments differed and the best payment of a board depended
on its order (found by ``benchmarks/consistency.py``'s order property)."""

from __future__ import annotations

from typing import Any

from manasolver.solver import answer


def _score(state: dict[str, Any], cost: str) -> dict[str, int]:
    out = answer({"query": "pay", "state": state, "cost": cost})
    return dict(out["payment"]["score"])


def _both_orders(battlefield: list[dict[str, Any]], cost: str, players: list[dict[str, Any]]) -> list[dict[str, int]]:
    return [_score({"players": players, "battlefield": b}, cost) for b in (battlefield, battlefield[::-1])]


def test_survivors_encampment_tapping_howlsquad_heavy_loses_its_red() -> None:
    board = [{"id": "h", "card": "Howlsquad Heavy"}, {"id": "e", "card": "Survivors' Encampment"},
             {"id": "s", "card": "Swamp"}, {"id": "m", "card": "Blooming Marsh"}, {"id": "w", "card": "Wastes"},
             {"id": "i", "card": "Island", "sick": True}]
    players = [{"name": "you", "life": 7}, {"name": "opp"}]
    forward, backward = _both_orders(board, "{G/P}", players)
    assert forward == backward and forward["keep_colors"] == 1, (forward, backward)
    listed = answer({"query": "payments", "state": {"players": players, "battlefield": board}, "cost": "{G/P}"})
    by_source = {p["activations"][0]["permanent"]: dict(p["score"])["keep_colors"]
                 for p in listed["payments"] if p["activations"]}
    assert by_source == {"e": 1, "m": 1}, by_source  # the Heavy's red or the Marsh's green is lost


def test_skyshroud_elf_repeatable_ability_leaves_the_elf_untapped() -> None:
    board = [{"id": "z", "card": "Zookeeper Mechan", "tapped": True}, {"id": "d", "card": "Mardu Devotee"},
             {"id": "k", "card": "Skyshroud Elf"}, {"id": "w", "card": "Wastes", "tapped": True},
             {"id": "a", "card": "Elvish Aberration"}, {"id": "b", "card": "Overflowing Basin", "sick": True}]
    players = [{"name": "you", "life": 3, "spells_cast_this_turn": 2}, {"name": "opp"}]
    forward, backward = _both_orders(board, "{3}{W}", players)
    assert forward == backward, (forward, backward)
