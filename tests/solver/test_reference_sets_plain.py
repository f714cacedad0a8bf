"""graph.could_produce and graph.reference_sets against a plain least fixed point (CR 106.7).

The reference here is the rule as written: every permanent with a mana ability starts with
nothing; a round recomputes each one's types from every ability (a referential one mirrors the
members of its set, read by a pass over the whole board); rounds go on until one changes nothing.
It shares no pass and no union with the engine's reading: its own types are
:func:`~manasolver.solver.graph.base_types` computed afresh each time; it reads a permanent's
abilities and what a referential one mirrors through the engine's own readers (``_producing_abilities``,
``ability_types``), and the refusal's message as ``_check_supported`` writes it.  The boards are sampled
from games of the real decks (benchmarks/deck_boards.py), as they are and with mirroring lands,
rocks and creatures added for either player, and hand-made chains of mirrors across players with
the effects that change what lands produce (Blood Moon, Urborg, Contamination, Chromatic
Lantern); the answers must be equal, and the strict reading must refuse exactly the boards
carrying text the engine cannot read, with the same message.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from manasolver.benchmarks import deck_boards
from manasolver.models.board.load import load_state
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.solver import graph

PLAYERS = ("you", "opponent")
MIRRORS = ("Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Harvester Druid", "Naga Vitalist",
           "Squandered Resources")


def _in_set(ref: str, controller: str, q: Permanent) -> bool:
    """Is ``q`` one of the lands a ``ref`` ability of ``controller``'s permanent mirrors?"""
    if not q.is_land:
        return False
    return q.controller != controller if ref == "lands_opponents_control" else q.controller == controller


def _plain(state: GameState) -> dict[str, int]:
    """The least fixed point by rounds over the whole board, every permanent every round."""
    abilities = {p.id: graph._producing_abilities(state, p) for p in state.battlefield}
    found = {p.id: 0 for p in state.battlefield if abilities[p.id]}
    changed = True
    while changed:
        changed = False
        for p in state.battlefield:
            if not abilities[p.id]:
                continue
            mask = 0
            for ab in abilities[p.id]:
                prod = ab.production
                if not prod.reference:
                    mask |= graph.base_types(state, p, ab)
                    continue
                seen = 0
                for q in state.battlefield:
                    if _in_set(prod.reference, p.controller, q):
                        seen |= found.get(q.id, 0)
                mask |= graph.ability_types(state, p, ab, {q.id: seen for q in state.battlefield})
            if mask != found[p.id]:
                found[p.id] = mask
                changed = True
    return found


def _refusal(state: GameState) -> str | None:
    """What the strict reading must refuse the board with: the unread text of its permanents."""
    bad = [p for p in state.battlefield if graph._reading(p.card)[1]]
    if not bad:
        return None
    names = ", ".join(f"{p.card.name} ({p.id}): {graph._reading(p.card)[1][0]!r}" for p in bad[:3])
    return "could-produce depends on text the engine cannot read: " + names


def _check(board: dict[str, Any]) -> None:
    state = load_state(board)
    want = _plain(state)
    assert dict(graph.could_produce(state, strict=False)) == want
    lands = graph.reference_sets(load_state(board), strict=False)
    assert dict(lands) == {pid: m for pid, m in want.items() if state.permanent(pid).is_land}
    for ref in graph.REFERENCES:
        for player in PLAYERS:
            union = 0
            for q in state.battlefield:
                if _in_set(ref, player, q):
                    union |= want.get(q.id, 0)
            assert lands.union((ref, player)) == union, (ref, player)
    refusal = _refusal(state)
    for read in (graph.could_produce, graph.reference_sets):
        if refusal is None:
            read(load_state(board))
        else:
            with pytest.raises(Unsupported) as err:
                read(load_state(board))
            assert err.value.message == refusal


def _sampled(family: deck_boards.Family, seed: int) -> dict[str, Any]:
    return deck_boards.board(family, random.Random(seed))[0]


@pytest.mark.parametrize("family", ["commander", "sixty"])
def test_boards_of_the_real_decks(family: deck_boards.Family) -> None:
    for seed in range(30):
        _check(_sampled(family, seed))


@pytest.mark.parametrize("family", ["commander", "sixty"])
def test_boards_of_the_real_decks_with_mirrors_added(family: deck_boards.Family) -> None:
    rng = random.Random(7)
    for seed in range(30):
        board = _sampled(family, 100 + seed)
        for i in range(rng.randint(1, 4)):
            board["battlefield"].append({"id": f"m{i}", "card": rng.choice(MIRRORS),
                                         "controller": rng.choice(PLAYERS)})
        if seed % 5 == 0:
            board["battlefield"].append({"id": "fx", "card": rng.choice(
                ("Blood Moon", "Urborg, Tomb of Yawgmoth", "Chromatic Lantern", "Contamination")),
                "controller": rng.choice(PLAYERS)})
        _check(board)


def _chain(*spec: tuple[str, str, str]) -> dict[str, Any]:
    return {"players": [{"name": p} for p in PLAYERS],
            "battlefield": [{"id": pid, "card": name, "controller": who} for pid, name, who in spec]}


CHAINS = [
    # two Pools alone produce nothing (the 106.7 example); a Forest of the other player does not count
    (("a", "Reflecting Pool", "you"), ("b", "Reflecting Pool", "you"), ("f", "Forest", "opponent")),
    # a Forest reaches the opponent's Pool through two Orchards and back to a Pool of yours
    (("f", "Forest", "you"), ("o1", "Exotic Orchard", "you"), ("o2", "Exotic Orchard", "opponent"),
     ("rp", "Reflecting Pool", "opponent"), ("rp2", "Reflecting Pool", "you"), ("fs", "Fellwar Stone", "you")),
    # a chain of mirrors started by the last land of the board (its types come last)
    (("o1", "Exotic Orchard", "you"), ("rp", "Reflecting Pool", "opponent"), ("o2", "Exotic Orchard", "opponent"),
     ("rp2", "Reflecting Pool", "you"), ("w", "Wastes", "opponent"), ("i", "Island", "you")),
    # colorless stops at the Orchards (colors only) but not at a Pool
    (("w", "Wastes", "opponent"), ("o", "Exotic Orchard", "you"), ("rp", "Reflecting Pool", "opponent"),
     ("hd", "Harvester Druid", "opponent"), ("nv", "Naga Vitalist", "you")),
    # Blood Moon makes the nonbasic lands Mountains, the Pools and Orchards among them
    (("rp", "Reflecting Pool", "you"), ("ev", "Everywhere", "you"), ("o", "Exotic Orchard", "opponent"),
     ("bm", "Blood Moon", "opponent"), ("i", "Island", "you")),
    # Urborg makes every land a Swamp; Contamination makes a tapped land's mana {B}
    (("rp", "Reflecting Pool", "you"), ("u", "Urborg, Tomb of Yawgmoth", "opponent"), ("o", "Exotic Orchard", "you"),
     ("p", "Plains", "opponent")),
    (("fs", "Fellwar Stone", "you"), ("f", "Forest", "opponent"), ("c", "Contamination", "opponent"),
     ("rp", "Reflecting Pool", "opponent"), ("sr", "Squandered Resources", "opponent")),
    # Chromatic Lantern gives every land of its controller "any color"
    (("rp", "Reflecting Pool", "opponent"), ("w", "Wastes", "you"), ("cl", "Chromatic Lantern", "you"),
     ("o", "Exotic Orchard", "opponent")),
    # text the engine cannot read: the strict reading refuses it, the other reads the rest
    (("cs", "Cryptic Spires", "you"), ("rp", "Reflecting Pool", "you"), ("bt", "Black Tulip", "opponent"),
     ("f", "Forest", "you")),
]


@pytest.mark.parametrize("spec", CHAINS, ids=range(len(CHAINS)))
def test_hand_made_chains(spec: tuple[tuple[str, str, str], ...]) -> None:
    _check(_chain(*spec))
    _check(_chain(*reversed(spec)))


def test_the_plain_reference_follows_a_chain() -> None:
    """The reference itself: a Forest's {G} reaches the opponent's Pool through the Orchards."""
    state = load_state(_chain(*CHAINS[1]))
    assert _plain(state) == {"f": 16, "o1": 16, "o2": 16, "rp": 16, "rp2": 16, "fs": 16}


def test_strict_reading_refuses_unread_text_before_an_error_of_the_fixed_point() -> None:
    """Toxicrene's and Chromatic Lantern's grants meet (an error of the reading itself) on a board
    that also carries Cryptic Spires' unread text: the strict reading refuses the unread text
    first, as it always did; the other gives the grants' refusal."""
    board = _chain(("t", "Toxicrene", "you"), ("cl", "Chromatic Lantern", "you"), ("f", "Forest", "you"),
                   ("cs", "Cryptic Spires", "you"))
    with pytest.raises(Unsupported) as strict:
        graph.reference_sets(load_state(board))
    assert strict.value.message == _refusal(load_state(board))
    with pytest.raises(Unsupported) as lenient:
        graph.reference_sets(load_state(board), strict=False)
    assert lenient.value.message.startswith("Toxicrene (t): "), lenient.value.message
