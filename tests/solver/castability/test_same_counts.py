"""The land-drop search gives the same counts however it is made faster or its memory bounded: chunks of
four real Commander decks (modal double-faced lands and Pathways, fetch lands, The World Tree and
Chromatic Lantern, Thriving lands, Incubation Druid) counted against figures recorded from the search as
it was before the reasons were asked only of spells with enough lands, before its boards were merged by
what decides them and before its memos were bounded (Forces of the Imperium and Counter Blitz recorded
again once Everflowing Chalice was cast kicked once, with its charge counter; Dance of the Elements once
Jegantha, the Wellspring's mana was counted: it had been read as adding nothing)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from manasolver.models.carddb import default_db
from manasolver.solver.castability import games
from manasolver.solver.castability.counts import Counts
from manasolver.solver.castability.deck import load_deck
from manasolver.solver.castability.run import _model_and_oracle

COMMANDER = Path(__file__).resolve().parents[3] / "data" / "decks" / "commander"

#: (deck, seed, chunk, castable summed over the spells per turn 1-10, digest of every count) of 40 games
RECORDED = [
    ("from-cute-to-brute-sld", 4, 3,
     [123, 795, 1479, 1970, 2197, 2347, 2499, 2590, 2660, 2734], "1383ae2a3035b66a0585"),
    ("from-cute-to-brute-sld", 9, 17,
     [141, 881, 1592, 2094, 2270, 2419, 2555, 2644, 2707, 2746], "2b6608daf7ee72d1a3c2"),
    ("dance-of-the-elements-ecc", 4, 3,
     [69, 411, 949, 1307, 1642, 1835, 1993, 2078, 2156, 2205], "d7df0a4c484d25625cbd"),
    ("dance-of-the-elements-ecc", 9, 17,
     [70, 407, 935, 1262, 1563, 1921, 2039, 2159, 2246, 2310], "dd5f8d70588a62d553bd"),
    ("forces-of-the-imperium-40k", 4, 3,
     [162, 522, 1174, 1774, 2068, 2184, 2298, 2346, 2367, 2392], "0cf2ab29b06988b934d0"),
    ("forces-of-the-imperium-40k", 9, 17,
     [166, 531, 1151, 1854, 2153, 2266, 2402, 2431, 2452, 2482], "c309639a6b970a5705c4"),
    ("counter-blitz-fic", 4, 3, [199, 913, 1651, 2052, 2217, 2325, 2388, 2423, 2448, 2474], "5ce2f1c2940d08ba3eb9"),
    ("counter-blitz-fic", 9, 17, [193, 867, 1627, 2062, 2301, 2400, 2415, 2445, 2475, 2500], "6896df0a41b22424e95d"),
]


def _digest(c: Counts) -> str:
    rows = [c.castable, c.with_lands, c.castable_with_lands, c.why_lands, c.why_tapped, c.why_other,
            [[sorted(d.items()) for d in row] for row in c.why_colors], c.mulligans, c.cut]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:20]


@pytest.mark.parametrize("forget", [False, True], ids=["memos kept", "memos emptied"])
@pytest.mark.parametrize("name", sorted({r[0] for r in RECORDED}))
def test_commander_deck_counts_equal_the_recorded_search(name: str, forget: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk's counts (castable, with lands, every reason of a failure, mulligans, cut turns) equal
    the recorded ones, the chunks played one after the other in one process (the second one meets the
    memos the first one left, or, past a memo budget of nothing, none)."""
    if forget:
        monkeypatch.setattr(games, "MEMO_BUDGET", 0)
    db = default_db()
    model, oracle = _model_and_oracle(load_deck(str(COMMANDER / f"{name}.txt"), db), None)
    for deck, seed, chunk, castable, digest in RECORDED:
        if deck != name:
            continue
        counts = games.run_chunk(model, oracle, seed, chunk, 40, 10, False)
        if forget:
            game = games._GAMES[id(oracle)]
            assert game.memo_size() > 0
            games.Chunk(model, oracle, seed, chunk + 1, 1, 10, False)
            assert game.memo_size() == 0  # a chunk starting past the budget empties them all
        assert [sum(row) for row in counts.castable] == castable, (deck, seed, chunk)
        assert _digest(counts) == digest, (deck, seed, chunk)


def test_a_chunk_leaves_what_earlier_chunks_remembered_out_of_the_collectors_sight() -> None:
    """The search's memos are acyclic: a chunk freezes what the chunks before it left (``gc.freeze``), so
    the collections after it do not walk the memos again; the counts are the same (above)."""
    import gc

    db = default_db()
    model, oracle = _model_and_oracle(load_deck(str(COMMANDER / "counter-blitz-fic.txt"), db), None)
    gc.unfreeze()
    games.run_chunk(model, oracle, 1, 0, 3, 10, False)
    games.run_chunk(model, oracle, 1, 1, 1, 10, False)
    try:
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
