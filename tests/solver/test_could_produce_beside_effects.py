"""What a permanent could produce (CR 106.7) on a board with effects on mana: the permanents the
effects reach have their abilities read on the board (granted ones, land types), the others are
read from their cards, as on a board without the effects, with the same fixed point."""

from __future__ import annotations

from typing import Any

import pytest

from manasolver.models.board.load import load_state
from manasolver.models.rules.board_effects import reached_by_effects
from manasolver.models.symbols import mask_from_letters
from manasolver.solver import graph


def _board(*extra: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "them"}],
            "battlefield": [{"id": "f1", "card": "Forest"},
                            {"id": "f2", "card": "Forest"},
                            {"id": "o1", "card": "Exotic Orchard"},
                            {"id": "i1", "card": "Island", "controller": "them"},
                            {"id": "o2", "card": "Exotic Orchard", "controller": "them"},
                            {"id": "s1", "card": "Fellwar Stone", "controller": "them"}, *extra]}


def test_cr_106_7_lantern_reaches_its_controllers_lands_alone() -> None:
    """Chromatic Lantern gives your lands "{T}: Add one mana of any color" (CR 613.1f): each of
    your lands and what mirrors them could produce every color; the opponent's Island, out of its
    reach, blue; your Orchard mirrors that Island and their Orchard, which mirrors your lands."""
    state = load_state(_board({"id": "l1", "card": "Chromatic Lantern"}))
    assert reached_by_effects(state) == frozenset({"f1", "f2", "o1"})
    every = mask_from_letters("WUBRG")
    got = graph.could_produce(state)
    assert (got["f1"], got["i1"], got["o2"], got["s1"], got["o1"]) == (every, mask_from_letters("U"), every, every,
                                                                        every)


def test_cr_106_7_the_abilities_of_permanents_out_of_reach_are_read_from_their_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Wild Growth reaches its Forest alone (CR 605.1b): the fixed point reads the abilities of
    that Forest on the board, every other permanent's from its card; the answer is the one read
    with every permanent's abilities on the board (triggered mana is never what a permanent could
    produce, CR 106.7)."""
    state = load_state(_board({"id": "w1", "card": "Wild Growth", "attached_to": "f1"}))
    assert reached_by_effects(state) == frozenset({"f1"})
    read: list[str] = []
    producing = graph._producing_abilities

    def spy(s: Any, perm: Any) -> Any:
        read.append(perm.id)
        return producing(s, perm)

    monkeypatch.setattr(graph, "_producing_abilities", spy)
    got = dict(graph.reference_sets(state))
    assert read == ["f1"]
    assert got == {pid: mask for pid, mask in graph.could_produce(state).items() if pid in got}
    assert got["o1"] == got["o2"] == mask_from_letters("UG")  # each Orchard mirrors the other's lands and Orchard
