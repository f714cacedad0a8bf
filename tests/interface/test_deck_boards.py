"""The deck-game board sampler (benchmarks/deck_boards.py): every deck of data/decks/ makes boards
that load and are answered, with the fields a client's boards have."""

from __future__ import annotations

import json
import random

import pytest
from manasolver.benchmarks import deck_boards as db
from manasolver.models.board.load import load_state
from manasolver.solver.service.protocol import answer


def test_every_family_has_its_decks() -> None:
    """At least the 50 Commander decks with their commanders and the 75 sixty-card decks of 60 or 61
    cards of data/decks/ (the index may list more)."""
    commander, sixty = db.decks("commander"), db.decks("sixty")
    assert len(commander) >= 50 and len(sixty) >= 75
    assert all(d.commander and len(d.library) + len(d.commander) == 100 for d in commander)
    assert all(not d.commander and len(d.library) in (60, 61) for d in sixty)


@pytest.mark.parametrize("family", db.FAMILIES)
def test_every_deck_makes_boards_that_load_and_are_answered(family: db.Family) -> None:
    """Each deck, as the player asked about and as the opponent, on its family's first and last
    turn: the board loads, its ids are unique, and a ``pay`` of a card of the hand is answered
    without a bad-input error (an ``unsupported`` answer names what the engine leaves out)."""
    pool = db.decks(family)
    lo, hi = db.TURNS[family]
    rng = random.Random(5)
    for i, deck in enumerate(pool):
        other = pool[(i + 1) % len(pool)]
        for turn in (lo, hi):
            state, hand = db.game_board(deck, other, turn, rng)
            loaded = load_state(state)
            assert len({p.id for p in loaded.battlefield}) == len(state["battlefield"])
            assert set(hand) <= set(deck.library)
            assert sum(1 for p in state["battlefield"] if p["controller"] == "you") >= turn // 2
            if family == "commander":
                assert state["players"][0]["commander"] == list(deck.commander)
    for seed in range(40):
        q = db.query(family, "pay", seed)
        got = answer(q)
        assert "error" not in got or got["error"]["code"] == "unsupported", (q, got)


@pytest.mark.parametrize("family", db.FAMILIES)
def test_lines_have_fresh_ids_x_on_a_quarter_and_the_cost_of_their_spell(family: db.Family) -> None:
    """Ids are drawn anew on every board; about a quarter of the lines carry ``x``; the cost is the
    printed mana cost of the line's ``spell``; some permanents are tapped and some sick."""
    from manasolver.models.carddb import default_db
    lines = [json.loads(line) for line in db.lines(family, "can_pay", 200, 3)]
    ids = [p["id"] for q in lines for p in q["state"]["battlefield"]]
    assert len(set(ids)) > 0.9 * len(ids)
    assert 0.15 < sum("x" in q for q in lines) / len(lines) < 0.35
    for q in lines[:50]:
        card = default_db().get(q["spell"]["card"])
        assert card.mana_cost is not None and card.mana_cost.format() == q["cost"]
    perms = [p for q in lines for p in q["state"]["battlefield"]]
    assert any(p.get("tapped") for p in perms) and any(p.get("sick") for p in perms)
    assert db.lines(family, "can_pay", 3, 3) == [json.dumps(q) for q in lines[:3]]


def test_mixed_boards_hold_lands_signets_talismans_filter_lands_and_dorks_and_load() -> None:
    """The scale rows' mixed boards (benchmarks/boards.mixed_board): real cards of every kind named,
    fresh ids, and a cost of about 60% of the board's mana."""
    from manasolver.benchmarks import boards as bd
    board = bd.mixed_board(300, 4)
    names = [p["card"] for p in board["battlefield"]]
    assert len(names) == 300 and len({p["id"] for p in board["battlefield"]}) == 300
    for pool in (bd.SIGNETS, bd.FILTER_LANDS, bd.DORKS, bd.PAIN_LANDS, bd.UTILITY):
        assert any(n in pool for n in names), pool
    assert any(n.startswith("Talisman") for n in names)
    assert len(load_state(board).battlefield) == 300
    cost = bd.mana_cost_share(board, 0.6, 4)
    from manasolver.models.cost import ManaCost
    assert 170 <= ManaCost.parse(cost).mana_value() <= 200
