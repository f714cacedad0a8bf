"""A castability run: the chunks of games, run in this process, in local worker processes or on a Dask
cluster (:mod:`manasolver.solver.service.parallel`), added up into the answer (per spell and turn ``p``
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
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any

from manasolver.models.carddb import default_db
from manasolver.solver.castability.board import BoardOracle
from manasolver.solver.castability.deck import Deck
from manasolver.solver.castability.games import MODEL, Chunk, Counts, DeckModel, run_chunk
from manasolver.solver.service.parallel import Serial, in_order, open_runner
from manasolver.solver.service.parallel.core import window_of

__all__ = ["CHUNK", "Options", "chunks", "plot", "run", "table", "wilson"]

#: Games per chunk.
CHUNK = 2000
#: Games of the first chunk: the first progress line comes after it, from a cold cache.
FIRST_CHUNK = 250
#: Games per chunk of a Commander deck: its games are longer, and the first progress line comes
#: after the first chunk, which is shorter still.
CHUNK_COMMANDER = 25
FIRST_CHUNK_COMMANDER = 5


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
    #: ``(library place, card name)``: the deck changed at those places (see :mod:`.suggest`).
    swaps: tuple[tuple[int, str], ...] = ()


def wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def chunks(samples: int, size: int = CHUNK, first: int | None = None) -> list[tuple[int, int]]:
    """``(chunk index, games)`` of a run of ``samples`` games in chunks of ``size``, the first one of
    ``first`` games when given (so that the first progress line comes soon)."""
    out: list[tuple[int, int]] = []
    done = 0
    while done < samples:
        n = min(first if (first is not None and not out) else size, samples - done)
        out.append((len(out), n))
        done += n
    return out


_WORKER: dict[str, Any] = {}
#: One chunk at a time per process: the oracle's and the games' caches are plain dicts, and a Dask
#: worker may run several threads.
_LOCK = threading.Lock()


def _model_and_oracle(deck: Deck, cards_file: str | None,
                      swaps: tuple[tuple[int, str], ...] = ()) -> tuple[DeckModel, BoardOracle]:
    db = default_db(cards_file)
    model = DeckModel.build(deck.cards, deck.commander, tuple((pos, db.get(name)) for pos, name in swaps))
    oracle = BoardOracle(model.cards, model.costs(), db, [c.name for c in deck.commander], model.chosen)
    return model, oracle


def _pair(deck: Deck, cards_file: str | None, swaps: tuple[tuple[int, str], ...]) -> tuple[DeckModel, BoardOracle]:
    """The model and oracle of this process for ``deck``: made on its first chunk, kept for the next."""
    key = repr((deck.cards and [(c[0], c[1]) for c in deck.cards], [c.name for c in deck.commander],
                cards_file, swaps))
    if _WORKER.get("key") != key:
        _WORKER["key"] = key
        _WORKER["pair"] = _model_and_oracle(deck, cards_file, swaps)
    pair: tuple[DeckModel, BoardOracle] = _WORKER["pair"]
    return pair


def _worker_chunk(deck: Deck, cards_file: str | None, seed: int, chunk: int, n: int, turns: int,
                  draw: bool, swaps: tuple[tuple[int, str], ...] = ()) -> Counts:
    with _LOCK:
        model, oracle = _pair(deck, cards_file, swaps)
        return run_chunk(model, oracle, seed, chunk, n, turns, draw)


def _results(deck: Deck, opts: Options, on_game: Callable[[int], None] | None = None) -> Iterator[Counts]:
    """The counts of each chunk in turn.  The first chunk is played in this process, ``on_game`` called
    after each of its games, so that the first progress line comes after one game rather than after a
    worker's first chunk; its first game is played before the workers start, so that their start does
    not compete with it for the processor and workers forked from this process start with what it
    loaded.  The workers then take the next chunks (the same chunks, so the same counts)."""
    last = opts.turns[1]
    plan = chunks(opts.samples, CHUNK_COMMANDER, FIRST_CHUNK_COMMANDER) if deck.is_commander else \
        chunks(opts.samples, CHUNK, FIRST_CHUNK)
    tasks = [(deck, opts.cards_file, opts.seed, chunk, n, last, opts.draw, opts.swaps) for chunk, n in plan]
    if not tasks:
        return
    model, oracle = _pair(deck, opts.cards_file, opts.swaps)
    first = Chunk(model, oracle, opts.seed, plan[0][0], plan[0][1], last, opts.draw)
    first.play(1, on_game)
    with open_runner(opts.workers, opts.dask, partial(default_db, opts.cards_file)) as runner:
        if isinstance(runner, Serial):
            first.play(first.n, on_game)
            yield first.counts()
            yield from in_order(runner, _worker_chunk, tasks[1:])
            return
        later = iter(tasks[1:])
        pending = deque(runner.submit(_worker_chunk, *task) for task in islice(later, window_of(runner)))
        try:
            first.play(first.n, on_game)
            yield first.counts()
            while pending:
                yield pending.popleft().result()
                pending.extend(runner.submit(_worker_chunk, *task) for task in islice(later, 1))
        finally:
            for future in pending:
                future.cancel()


def run(deck: Deck, opts: Options, progress: Callable[[int, int, float], None] | None = None) -> dict[str, Any]:
    """The castability answer for ``deck`` (changed at ``opts.swaps``)."""
    model = _model_and_oracle(deck, opts.cards_file, opts.swaps)[0] if opts.swaps else \
        DeckModel.build(deck.cards, deck.commander)
    total = Counts(turns=opts.turns[1], spells=len(model.spells))
    start = time.perf_counter()

    def first_game(k: int) -> None:
        if k == 1 and progress is not None:
            progress(1, opts.samples, time.perf_counter() - start)

    for counts in _results(deck, opts, first_game):
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
            games = total.games or 1
            why: dict[str, Any] = {"lands": _r(total.why_lands[t - 1][i] / games),
                                   "colors": {c: _r(v / games) for c, v in
                                              sorted(total.why_colors[t - 1][i].items(),
                                                     key=lambda cv: "WUBRG".index(cv[0]))},
                                   "tapped": _r(total.why_tapped[t - 1][i] / games),
                                   "other": _r(total.why_other[t - 1][i] / games)}
            rows.append({"turn": t, "p": _r(k / total.games if total.games else 0.0),
                         "p_interval": [_r(p_lo), _r(p_hi)],
                         "p_given_lands": _r(k_l / n_l) if n_l else None,
                         "p_given_lands_interval": [_r(g_lo), _r(g_hi)] if n_l else None,
                         "games_with_lands": n_l, "why": why})
        entry: dict[str, Any] = {"card": spell.name, "cost": spell.cost.format(),
                                 "mana_value": spell.mana_value, "turns": rows}
        if spell.card and spell.card != spell.name:
            entry["of"] = spell.card
        if spell.lower_bound:
            entry["lower_bound"] = True
            entry["note"] = spell.note
        spells.append(entry)
    model_out: dict[str, Any] = dict(MODEL)
    model_out.update({"play": "draw" if opts.draw else "play", "deck_size": deck.size,
                      "commander": [c.name for c in deck.commander] or None,
                      "lands": sum(n for _, n, c in deck.cards if "land" in c.type_line.types),
                      "mana_sources": [model.cards[s].name for s in model.sources],
                      "mulligans_per_game": _r(total.mulligans / total.games) if total.games else 0.0,
                      "game_turns_cut_by_search_bound": total.cut,
                      "faces": "each castable face is a row (both halves of a split card, the adventure, "
                               "each spell face of a modal double-faced card); a modal card with a land "
                               "face (Shatterskull Smashing, the Pathways) counts as a land in the hand, "
                               "played as either land face",
                      "why": "among all games, for a spell not castable: lands = fewer lands than its mana "
                             "value; tapped = castable had its lands been untapped; colors = castable "
                             "with one symbol of that color paid by any mana; "
                             "other = more than one symbol short, or none of these"})
    if not deck.is_commander:
        model_out.pop("commander_rules", None)
    return {"model": model_out, "samples": total.games, "seed": opts.seed, "turns": [lo, hi],
            "seconds": round(elapsed, 3), "spells": spells}


def _r(x: float) -> float:
    return round(x, 4)


def _pct(p: float) -> str:
    """A probability as a percentage a reader can trust: never 100.0 or 0.0 unless it is exact."""
    v = 100 * p
    if 99.95 <= v < 100:
        return ">99.9"
    if 0 < v < 0.05:
        return " <0.1"
    return f"{v:5.1f}"


def _why_text(why: dict[str, Any]) -> str:
    parts = []
    if why["lands"] >= 0.005:
        parts.append(f"lands {100 * why['lands']:.0f}%")
    for c, v in why["colors"].items():
        if v >= 0.005:
            parts.append(f"{c} {100 * v:.0f}%")
    if why["tapped"] >= 0.005:
        parts.append(f"tapped {100 * why['tapped']:.0f}%")
    if why.get("other", 0) >= 0.005:
        parts.append(f"other {100 * why['other']:.0f}%")
    return ", ".join(parts)


def table(result: dict[str, Any]) -> str:
    """The readable table of a result: spells grouped by mana value, turns as columns, ``p`` with
    ``p_given_lands`` under it, the on-curve turn (the mana value) marked with ``*``, and why the spell
    failed on its on-curve turn."""
    lo, hi = result["turns"]
    model = result["model"]
    width = max([len(s["card"]) + len(s["cost"]) + 3 for s in result["spells"]] + [12])
    head = f"{'spell':<{width}} " + " ".join(f"{'T' + str(t):>7}" for t in range(lo, hi + 1)) + \
        "   why not, on curve"
    side = model["play"]
    lines = [f"castability: {result['samples']:,} games, seed {result['seed']}, on the {side}.",
             "p: the chance that the mana to cast the spell is there on that turn (first line of a row).",
             "p given lands (second line): the same among games with at least the spell's mana value "
             "in lands by then, as Frank Karsten's tables count.",
             f"mulligan: {model['mulligan']}" + (f"; Commander: {model['commander_rules']}"
                                                 if "commander_rules" in model else ""),
             "* marks the on-curve turn (turn = mana value); why: the share of all games failing for "
             "too few lands, a color (which), or lands that entered tapped.", ""]
    by_mv: dict[int, list[dict[str, Any]]] = {}
    for s in result["spells"]:
        by_mv.setdefault(s["mana_value"], []).append(s)
    for mv in sorted(by_mv):
        lines.append(f"-- mana value {mv} " + "-" * max(0, len(head) - 17 - len(str(mv))))
        lines.append(head)
        for s in by_mv[mv]:
            label = f"{s['card']} {s['cost']}" + (" ≥" if s.get("lower_bound") else "")
            ps, gs = [], []
            why = ""
            for row in s["turns"]:
                mark = "*" if row["turn"] == mv else " "
                ps.append(f"{_pct(row['p'])}{mark}".rjust(7))
                g = row["p_given_lands"]
                gs.append(("(" + ("  -  " if g is None else _pct(g).strip()) + ")").rjust(7) + " ")
                if row["turn"] == mv and row["p"] < 1:
                    why = _why_text(row["why"])
            lines.append(f"{label:<{width}} " + " ".join(ps) + (f"   {why}" if why else ""))
            lines.append(f"{'':<{width}} " + "".join(g[:-1] + " " if k < len(gs) - 1 else g.rstrip()
                                                      for k, g in enumerate(gs)))
    if result.get("suggest"):
        lines += ["", "changes tried on the same games (best first): the mean change of the spells' on-curve p, "
                      "then the spells it changes most"]
        for row in result["suggest"]:
            most = ", ".join(f"{s['card']} T{s['turn']} {100 * s['change']:+.1f}" for s in row["spells"][:4]
                             if s["change"])
            lines.append(f"  {100 * row['mean_change']:+5.2f}  {row['change']}" + (f": {most}" if most else ""))
    notes = [f"≥ {s['card']}: {s['note']}" for s in result["spells"] if s.get("lower_bound")]
    if notes:
        lines += [""] + notes
    lines += ["", "model: " + model["castable"] + "; " + model["land_drops"]]
    return "\n".join(lines)


def plot(result: dict[str, Any], path: str, title: str | None = None) -> list[str]:
    """Draw ``p`` by turn, one panel per mana value (each curve its own color and marker, the
    on-curve turn circled), to ``path`` and to the same name with the other of ``.png``/``.svg``;
    the files written (matplotlib, imported here)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    by_mv: dict[int, list[dict[str, Any]]] = {}
    for s in result["spells"]:
        by_mv.setdefault(s["mana_value"], []).append(s)
    groups = sorted(by_mv.items())
    suggested = result.get("suggest") or []
    n = len(groups) + (1 if suggested else 0)
    cols = min(3, n)
    rows_ = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows_, cols, figsize=(5.2 * cols, 3.8 * rows_), squeeze=False)
    cmap = plt.get_cmap("tab20")  # the ten strong colors first, then their light pairs
    palette = [cmap(k / 19) for k in range(0, 20, 2)] + [cmap(k / 19) for k in range(1, 20, 2)]
    markers = "osD^v<>ph*X"
    for ax, (mv, spells) in zip(axes.flat, groups):
        for k, s in enumerate(spells):
            turns = [r["turn"] for r in s["turns"]]
            style = "--" if s.get("lower_bound") else "-"
            ax.plot(turns, [r["p"] for r in s["turns"]], style, marker=markers[k % len(markers)],
                    color=palette[k % len(palette)], label=f"{s['card']} {s['cost']}", markersize=4)
            on = [r for r in s["turns"] if r["turn"] == mv]
            if on:
                ax.plot([mv], [on[0]["p"]], "o", mfc="none", mec="black", markersize=9)
        ax.set_title(f"mana value {mv}", fontsize=10)
        ax.set_xlabel("turn")
        ax.set_ylabel("P(castable)")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, loc="lower right", ncol=1 if len(spells) < 12 else 2)
    if suggested:
        ax = list(axes.flat)[len(groups)]
        labels = [r["change"] for r in suggested][::-1]
        values = [100 * r["mean_change"] for r in suggested][::-1]
        ax.barh(range(len(labels)), values, color=["#2a7" if v >= 0 else "#c44" for v in values])
        ax.set_yticks(range(len(labels)), labels, fontsize=6)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_xlabel("mean change of on-curve p (points), same games")
        ax.set_title("changes tried", fontsize=10)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.suptitle(title or f"castability, {result['samples']:,} games on the {result['model']['play']} "
                 "(circle: on-curve turn; dashed: a lower bound)", fontsize=11)
    fig.tight_layout()
    stem = path[:-4] if path.lower().endswith((".png", ".svg")) else path
    written = [stem + ".png", stem + ".svg"]
    for out in written:
        fig.savefig(out, dpi=110)
    plt.close(fig)
    return written


def stderr_progress(done: int, total: int, seconds: float) -> None:
    """A progress line on standard error."""
    rate = done / seconds if seconds > 0 else 0.0
    print(f"\rcastability: {done:,}/{total:,} games, {rate:,.0f}/s", end="" if done < total else "\n",
          file=sys.stderr, flush=True)
