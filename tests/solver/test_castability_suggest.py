"""castability --suggest: candidate changes to the lands, each run on the same sampled games."""

from __future__ import annotations

import pytest

from manasolver.models.carddb import default_db
from manasolver.solver.castability.deck import parse_deck
from manasolver.solver.castability.run import Options, run
from manasolver.solver.castability.suggest import candidates, suggest


@pytest.fixture(scope="module")
def db():  # type: ignore[no-untyped-def]
    return default_db()


def test_swapping_a_mountain_for_a_mountain_changes_no_game(db) -> None:  # type: ignore[no-untyped-def]
    """A swap keeps every other card in its place: the same seed deals the same games, so a swap of a
    card for another copy of itself gives exactly the deck's own numbers."""
    deck = parse_deck("20 Mountain\n4 Island\n18 Counterspell\n18 Lightning Bolt\n", db)
    opts = Options(turns=(1, 3), samples=1500, seed=11)
    base = run(deck, opts)
    same = run(deck, Options(turns=(1, 3), samples=1500, seed=11, swaps=((0, "Mountain"),)))
    assert same["spells"] == base["spells"]


def test_suggest_ranks_the_missing_color_first(db) -> None:  # type: ignore[no-untyped-def]
    """A deck of 20 Mountains and 4 Islands casting Counterspell on turn 2 gains most from a blue
    source: the best change adds an Island or a Steam Vents, and Counterspell's on-curve p rises."""
    deck = parse_deck("20 Mountain\n4 Island\n18 Counterspell\n18 Lightning Bolt\n", db)
    labels = [label for label, _ in candidates(deck, db)]
    assert "+1 Island, -1 Mountain" in labels and "+1 Steam Vents, -1 Mountain" in labels
    opts = Options(turns=(1, 3), samples=1500, seed=12)
    rows = suggest(deck, opts, db, run(deck, opts))
    best = rows[0]
    assert "Island" in best["change"] or "Steam Vents" in best["change"]
    counter = next(s for s in best["spells"] if s["card"] == "Counterspell")
    assert counter["turn"] == 2 and counter["change"] > 0.02
    assert rows == sorted(rows, key=lambda r: (-r["mean_change"], r["change"]))
