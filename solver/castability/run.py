"""A castability run: the chunks of games, run in this process, in local worker processes or on a Dask
cluster (:mod:`manasolver.solver.parallel`), added up into the SPEC §10 answer (per spell and turn ``p``
and ``p_given_lands`` with 95% Wilson intervals), shown as a table or drawn as curves.

Chunks are fixed by the number of samples alone (:data:`CHUNK` games each, the last one shorter, chunk
``i`` seeded by the run's seed and ``i``), so ``--workers N`` and ``--dask`` run exactly the chunks one
process runs and the totals are the same for a seed.  A chunk is a pure function of its arguments: a
chunk redone on another Dask worker counts the same games.  Each worker process loads the card database
and builds its board oracle once, on its first chunk.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from manasolver.models.carddb import default_db
from manasolver.solver.castability.board import BoardOracle
from manasolver.solver.castability.deck import Deck
from manasolver.solver.castability.games import MODEL, Counts, DeckModel, run_chunk
from manasolver.solver.parallel import in_order, open_runner

__all__ = ["CHUNK", "Options", "chunks", "plot", "run", "table", "wilson"]

#: Games per chunk.
CHUNK = 2000


@dataclass(frozen=True, slots=True)
class Options:
    turns: tuple[int, int] = (1, 7)
    draw: bool = False
    samples: int = 10000
    seed: int = 1
    workers: int = 1
    cards_file: str | None = None
    #: The address of a Dask scheduler to run the chunks on, instead of ``workers``.
    dask: str | None = None


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def chunks(samples: int) -> list[tuple[int, int]]:
    """``(chunk index, games)`` of a run of ``samples`` games."""
    return [(i, min(CHUNK, samples - i * CHUNK)) for i in range((samples + CHUNK - 1) // CHUNK)]


_WORKER: dict[str, Any] = {}
#: One chunk at a time per process: the oracle's and the games' caches are plain dicts, and a Dask
#: worker may run several threads.
_LOCK = threading.Lock()


def _model_and_oracle(deck: Deck, cards_file: str | None) -> tuple[DeckModel, BoardOracle]:
    model = DeckModel.build(deck.cards, deck.commander)
    oracle = BoardOracle(model.cards, [s.cost for s in model.spells], default_db(cards_file),
                         [c.name for c in deck.commander])
    return model, oracle


def _worker_chunk(deck: Deck, cards_file: str | None, seed: int, chunk: int, n: int, turns: int,
                  draw: bool) -> Counts:
    key = repr((deck.cards and [(c[0], c[1]) for c in deck.cards], [c.name for c in deck.commander],
                cards_file))
    with _LOCK:
        if _WORKER.get("key") != key:
            _WORKER["key"] = key
            _WORKER["pair"] = _model_and_oracle(deck, cards_file)
        model, oracle = _WORKER["pair"]
        return run_chunk(model, oracle, seed, chunk, n, turns, draw)


def _results(deck: Deck, opts: Options) -> Iterator[Counts]:
    last = opts.turns[1]
    tasks = ((deck, opts.cards_file, opts.seed, chunk, n, last, opts.draw) for chunk, n in chunks(opts.samples))
    with open_runner(opts.workers, opts.dask, partial(default_db, opts.cards_file)) as runner:
        yield from in_order(runner, _worker_chunk, tasks)


def run(deck: Deck, opts: Options, progress: Callable[[int, int, float], None] | None = None) -> dict[str, Any]:
    """The SPEC §10 answer for ``deck``."""
    model = DeckModel.build(deck.cards, deck.commander)
    total = Counts(turns=opts.turns[1], spells=len(model.spells))
    start = time.perf_counter()
    for counts in _results(deck, opts):
        total.add(counts)
        if progress is not None:
            progress(total.games, opts.samples, time.perf_counter() - start)
    elapsed = time.perf_counter() - start
    lo, hi = opts.turns
    spells = []
    for i, spell in enumerate(model.spells):
        rows = []
        for t in range(lo, hi + 1):
            k = total.castable[t - 1][i]
            n_l = total.with_lands[t - 1][i]
            k_l = total.castable_with_lands[t - 1][i]
            p_lo, p_hi = wilson(k, total.games)
            g_lo, g_hi = wilson(k_l, n_l)
            rows.append({"turn": t, "p": _r(k / total.games if total.games else 0.0),
                         "p_interval": [_r(p_lo), _r(p_hi)],
                         "p_given_lands": _r(k_l / n_l) if n_l else None,
                         "p_given_lands_interval": [_r(g_lo), _r(g_hi)] if n_l else None,
                         "games_with_lands": n_l})
        spells.append({"card": spell.name, "cost": spell.cost.format(), "mana_value": spell.mana_value,
                       "turns": rows})
    model_out: dict[str, Any] = dict(MODEL)
    model_out.update({"play": "draw" if opts.draw else "play", "deck_size": deck.size,
                      "commander": [c.name for c in deck.commander] or None,
                      "lands": sum(n for _, n, c in deck.cards if "land" in c.type_line.types),
                      "mana_sources": [model.cards[s].name for s in model.sources],
                      "mulligans_per_game": _r(total.mulligans / total.games) if total.games else 0.0,
                      "game_turns_cut_by_search_bound": total.cut})
    if not deck.is_commander:
        model_out.pop("commander_rules", None)
    return {"model": model_out, "samples": total.games, "seed": opts.seed, "turns": [lo, hi],
            "seconds": round(elapsed, 3), "spells": spells}


def _r(x: float) -> float:
    return round(x, 4)


def table(result: dict[str, Any]) -> str:
    """The readable table of a result: one row per spell, ``p`` per turn (``p_given_lands`` beside)."""
    lo, hi = result["turns"]
    width = max([len(s["card"]) + len(s["cost"]) + 1 for s in result["spells"]] + [10])
    head = f"{'spell':<{width}}  " + "  ".join(f"T{t:<11}" for t in range(lo, hi + 1))
    lines = [f"castability: {result['samples']:,} games, seed {result['seed']}, on the "
             f"{result['model']['play']}; p (p given enough lands)", head]
    for s in result["spells"]:
        cells = []
        for row in s["turns"]:
            given = "  -  " if row["p_given_lands"] is None else f"{100 * row['p_given_lands']:5.1f}"
            cells.append(f"{100 * row['p']:5.1f} ({given})")
        lines.append(f"{s['card'] + ' ' + s['cost']:<{width}}  " + "  ".join(cells))
    lines.append("model: " + result["model"]["castable"] + "; " + result["model"]["land_drops"])
    return "\n".join(lines)


def plot(result: dict[str, Any], path: str, title: str | None = None) -> None:
    """Draw ``p`` by turn, one curve per spell, to the PNG at ``path`` (matplotlib, imported here)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5))
    for s in result["spells"]:
        turns = [r["turn"] for r in s["turns"]]
        ax.plot(turns, [r["p"] for r in s["turns"]], marker="o", label=f"{s['card']} {s['cost']}")
    ax.set_xlabel("turn")
    ax.set_ylabel("P(castable)")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(title or f"castability, {result['samples']:,} games on the {result['model']['play']}")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def stderr_progress(done: int, total: int, seconds: float) -> None:
    """A progress line on standard error."""
    rate = done / seconds if seconds > 0 else 0.0
    print(f"\rcastability: {done:,}/{total:,} games, {rate:,.0f}/s", end="" if done < total else "\n",
          file=sys.stderr, flush=True)
