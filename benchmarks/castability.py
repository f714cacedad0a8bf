"""Castability over decks measured: Karsten's anchor reproduced, where solving each sampled
board's payment exactly changes a land count's answer, and how many games a second the run plays.

``python benchmarks/castability.py [--out DIR] [--million]`` writes ``castability.md`` and
``castability.png`` to ``benchmarks/results/`` (or DIR).  The land count it compares against is the
model of the source-counting calculators, run on the very same sampled games (same seed, same land
drops, same boards): a board casts a spell when its untapped lands number at least the mana value and,
colour by colour, the untapped lands that can add a colour number at least its symbols of that colour
(a hybrid symbol needs a land of either colour); nonland sources count for nothing.  ``--million``
also times a run of 1,000,000 games of the 60-card deck over two worker processes.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import time
from pathlib import Path
from typing import Any

from manasolver.models.carddb import CardDB, default_db
from manasolver.models.cost import ManaCost
from manasolver.solver.castability.board import BoardKey, BoardOracle
from manasolver.solver.castability.deck import Deck, parse_deck
from manasolver.solver.castability.games import Counts, DeckModel, run_chunk
from manasolver.solver.castability.run import CHUNK, Options, chunks, run

__all__ = ["LandCountOracle", "main"]

RESULTS = Path(__file__).resolve().parent / "results"
DECKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "decks"
COLORS = "WUBRG"

#: (sources, other lands, spell, turn, Karsten's figure) — the anchor rows of his 2022 table.
ANCHOR = [(14, "Opt", 1, 0.913), (13, "Opt", 1, 0.890), (21, "Counterspell", 2, 0.929)]

#: Decks where exact payment matters: name, decklist, the spells and turns shown.
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    ("gold card with duals (Esper)",
     "4 Underground Sea\n4 Scrubland\n4 Tundra\n4 Plains\n4 Island\n4 Swamp\n"
     "12 Esper Charm\n12 Zealous Persecution\n12 Counterspell\n",
     ("Esper Charm", "Zealous Persecution", "Counterspell")),
    ("hybrid (Boros)",
     "12 Mountain\n12 Plains\n12 Boros Reckoner\n12 Flame Javelin\n12 Lightning Helix\n",
     ("Boros Reckoner", "Flame Javelin", "Lightning Helix")),
    ("filter lands (Azorius, Mystic Gate)",
     "8 Mystic Gate\n8 Plains\n8 Island\n12 Wrath of God\n12 Cryptic Command\n12 Supreme Verdict\n",
     ("Wrath of God", "Cryptic Command", "Supreme Verdict")),
    ("Signets and Talismans (Izzet, 17 lands)",
     "9 Island\n8 Mountain\n4 Izzet Signet\n4 Talisman of Creativity\n"
     "12 Crackling Drake\n12 Niv-Mizzet, Parun\n11 Izzet Charm\n",
     ("Crackling Drake", "Niv-Mizzet, Parun", "Izzet Charm")),
]


#: What each case shows, by the mechanism (the figures are in the tables above the sentence).
_WHY = {
    "gold card with duals (Esper)": "A dual land counted as a source of both its colours is one mana: "
        "Underground Sea with two Plains counts as W, U and B for Esper Charm but pays only two of them, so "
        "the land count is too high for the gold cards (Δ < 0) and right for the mono-coloured one.",
    "hybrid (Boros)": "Hybrid {R/W} symbols from basics are counted right when a symbol may take either "
        "colour; a two-brid {2/R} symbol is worth one Mountain, not two lands, so Flame Javelin (mana value "
        "6) is cast from three Mountains long before six lands.",
    "filter lands (Azorius, Mystic Gate)": "Mystic Gate counted as one W/U source is worth more: with a "
        "Plains it makes {U}{U}, so triple-blue Cryptic Command comes earlier than the count says (Δ > 0).",
    "Signets and Talismans (Izzet, 17 lands)": "The land count ignores Signets and Talismans (rules of "
        "thumb count them 0.75); solved exactly they ramp and fix: Crackling Drake on turn 3, and Izzet "
        "Signet turns any land into {U}{R}.",
}


def _produces(text: str) -> int:
    """The colours a card's "Add …" sentences name, as a bit mask over WUBRG."""
    mask = 0
    for sentence in re.findall(r"add ([^.]*)", text.lower()):
        for i, c in enumerate(COLORS):
            if "{" + c.lower() + "}" in sentence or "{" + c.lower() + "/" in sentence:
                mask |= 1 << i
        if "any color" in sentence or "one mana of any" in sentence:
            mask |= 0b11111
    return mask


class LandCountOracle(BoardOracle):
    """The source-counting answer for the same boards: lands only, each colour on its own."""

    def __init__(self, cards: Any, spells: Any, db: CardDB) -> None:
        super().__init__(cards, spells, db)
        self._lands = [("land" in c.type_line.types) for c in self.cards]
        self._colours = [_produces(c.oracle_text) for c in self.cards]
        self._needs = [self._need(cost) for cost in self.spells]

    @staticmethod
    def _need(cost: ManaCost) -> tuple[int, list[int], list[int]]:
        text = cost.format()
        pips = [0] * 5
        hybrid: list[int] = []
        for sym in re.findall(r"\{([^}]*)\}", text):
            parts = sym.split("/")
            cols = [COLORS.index(p) for p in parts if p in COLORS]
            if len(cols) == 1 and len(parts) == 1:
                pips[cols[0]] += 1
            elif len(cols) == 2:
                hybrid.append((1 << cols[0]) | (1 << cols[1]))
        return cost.mana_value(), pips, hybrid

    def castable(self, key: BoardKey, need: int = -1) -> int:
        self.lookups += 1
        hit = self._known.get(key)
        if hit is not None:
            return hit[0]
        lands = [code >> 1 for code in key if not code & 1 and self._lands[code >> 1]]
        mask = 0
        for i, (mv, pips, hybrid) in enumerate(self._needs):
            ok = len(lands) >= mv
            for c in range(5):
                if pips[c] and sum(1 for x in lands if self._colours[x] >> c & 1) < pips[c]:
                    ok = False
            for h in set(hybrid):
                if sum(1 for x in lands if self._colours[x] & h) < hybrid.count(h):
                    ok = False
            if ok:
                mask |= 1 << i
        self._known[key] = [mask, ~mask]
        return mask


def _counts(deck: Deck, oracle_type: type[BoardOracle], db: CardDB, samples: int, turns: int,
            seed: int) -> tuple[DeckModel, Counts]:
    model = DeckModel.build(deck.cards, deck.commander)
    oracle = oracle_type(model.cards, model.costs(), db)
    total = Counts(turns=turns, spells=len(model.spells))
    for chunk, n in chunks(samples):
        total.add(run_chunk(model, oracle, seed, chunk, n, turns, False))
    return model, total


def anchor(db: CardDB, samples: int) -> list[str]:
    lines = ["## Karsten's anchor", "",
             f"25 lands (N of one basic type, the rest of another), 35 spells, 60 cards, on the play, "
             f"{samples:,} games each; `p_given_lands` among games with at least the spell's mana value in "
             "lands, as Karsten conditions. His figures: TCGplayer, 2022-08-02.", "",
             "| sources | spell | turn | this engine p_given_lands (95% interval) | Karsten |",
             "|---|---|---|---|---|"]
    for n, spell, turn, karsten in ANCHOR:
        deck = parse_deck(f"{n} Island\n{25 - n} Mountain\n35 {spell}\n", db)
        result = run(deck, Options(turns=(1, turn), samples=samples, seed=2022, workers=2))
        row = result["spells"][0]["turns"][turn - 1]
        lo, hi = row["p_given_lands_interval"]
        inside = "inside" if lo <= karsten <= hi else "outside"
        lines.append(f"| {n} | {spell} {result['spells'][0]['cost']} | {turn} | "
                     f"{100 * row['p_given_lands']:.2f}% ({100 * lo:.2f}–{100 * hi:.2f}) | "
                     f"{100 * karsten:.1f}% ({inside}) |")
    return lines


#: Karsten's 2022 table for 60-card decks (TCGplayer, 2022-08-02): (generic, colored symbols, turn, sources needed
#: for 89 + turn percent on curve).
TABLE_60 = [(0, 1, 1, 14), (1, 1, 2, 13), (0, 2, 2, 21), (2, 1, 3, 12), (1, 2, 3, 18), (0, 3, 3, 23),
            (3, 1, 4, 10), (2, 2, 4, 16), (1, 3, 4, 21), (0, 4, 4, 24), (4, 1, 5, 9), (3, 2, 5, 15),
            (2, 3, 5, 19), (4, 2, 6, 13), (3, 3, 6, 17)]


def _card_costing(db: CardDB, text: str) -> str:
    """The first card (by name) whose mana cost is ``text``: one face, no keyword, not a land;
    instants and sorceries first."""
    best: tuple[int, str] | None = None
    for name in sorted(db.names()):
        if name.startswith("A-"):  # the digital rebalanced cards: the printed card of the name reads better
            continue
        try:
            card = db.get(name)
        except Exception:  # noqa: BLE001 - names the database can't build are skipped
            continue
        if card.faces or card.keywords or card.mana_cost is None or "land" in card.type_line.types:
            continue
        if card.mana_cost.format() != text:
            continue
        rank = 0 if {"instant", "sorcery"} & set(card.type_line.types) else 1
        if best is None or rank < best[0]:
            best = (rank, card.name)
        if rank == 0:
            break
    if best is None:
        raise LookupError(text)
    return best[1]


def _cell(db: CardDB, generic: int, colored: int, turn: int, n: int, lands: int,
          samples: int) -> tuple[str, str, str, list[float], bool]:
    """One cell of Karsten's table: ``lands`` lands (N Islands, the rest Mountains) and the deck filled
    to 60 or 40 cards with a blue card of the cost; this engine's ``p_given_lands`` with N - 1 and N
    sources, and whether they agree with his N (N reaches the target within 0.6 points, N - 1 does not
    exceed it by 0.6 points)."""
    text = (f"{{{generic}}}" if generic else "") + "{U}" * colored
    card = _card_costing(db, text)
    spells = (60 if lands == 25 else 40) - lands
    target = 0.89 + turn / 100
    ps = []
    for sources in (n - 1, n):
        mountains = f"{lands - sources} Mountain\n" if sources < lands else ""
        deck = parse_deck(f"{sources} Island\n{mountains}{spells} {card}\n", db)
        result = run(deck, Options(turns=(1, turn), samples=samples, seed=2022, workers=2))
        ps.append(result["spells"][0]["turns"][turn - 1]["p_given_lands"])
    ok = ps[1] >= target - 0.006 and ps[0] < target + 0.006
    return (str(generic) if generic else "") + "C" * colored, text, card, ps, ok


def karsten_table(db: CardDB, samples: int) -> list[str]:
    """Karsten's 60-card table, cell by cell: his source count N for a cost on curve (turn = mana
    value) is the fewest that reach 89 + turn percent among games with at least that many lands. A cell
    agrees when this engine's ``p_given_lands`` with N sources is at least the target less 0.6 points
    and with N - 1 sources below the target plus 0.6 points (the same N, within 0.6 points)."""
    lines = ["## Karsten's 2022 table, 60 cards", "",
             f"25 lands (N Islands, the rest Mountains), 35 copies of a real blue card of the cost, 60 cards, on "
             f"the play, {samples:,} games per count (seed 2022, two workers); his model: the probability of "
             "N sources of the color among games with at least turn-many lands, London mulligan with his keep "
             "rules, target 89 + turn %. This engine's figure is `p_given_lands` with the exact payment of "
             "each board. A cell agrees when N sources reach the target within 0.6 points and N - 1 do not "
             "exceed it by 0.6 points.", "",
             "| cost | turn | Karsten's N | card | p with N-1 | p with N | target | agrees |",
             "|---|---|---|---|---|---|---|---|"]
    agree = 0
    for generic, colored, turn, n in TABLE_60:
        label, text, card, ps, ok = _cell(db, generic, colored, turn, n, 25, samples)
        target = 0.89 + turn / 100
        agree += ok
        lines.append(f"| {label} `{text}` | {turn} | {n} | {card} | {100 * ps[0]:.2f}% | {100 * ps[1]:.2f}% | "
                     f"{100 * target:.0f}% | {'yes' if ok else 'no'} |")
    lines += ["", f"{agree} of {len(TABLE_60)} cells agree (load {_load()} when done).", ""]
    return lines


#: The 40-card table's cells: (generic, colored symbols, turn), the same costs as :data:`TABLE_60`.
CELLS_40 = [(g, c, t) for g, c, t, _ in TABLE_60]


def karsten_model(deck_size: int, lands: int, good: int, turn: int, needed: int) -> float:
    """Karsten's 2022 model computed exactly (his simulation, ``HowManySources2022Update.py``, sampled
    it): on the play, the probability of at least ``needed`` of the ``good`` lands among the cards seen
    by turn ``turn``, among games with at least ``turn`` lands.  London mulligan: seven cards kept with
    2-5 lands; at six, a spell bottomed when more than three, else a land; at five, two spells when more
    than three, a land and a spell with three, else two lands; at four, three spells when more than
    three, a land and two spells with three, two lands and a spell with two, else three lands; six and
    five kept with 2-4 lands, four always; the other lands bottomed before the good ones."""
    spells = deck_size - lands
    other = lands - good

    def hands() -> list[tuple[float, int, int, int]]:
        out = []
        for g in range(min(good, 7) + 1):
            for o in range(min(other, 7 - g) + 1):
                s = 7 - g - o
                if s > spells:
                    continue
                p = math.comb(good, g) * math.comb(other, o) * math.comb(spells, s) / math.comb(deck_size, 7)
                out.append((p, g, o, s))
        return out

    def bottom(g: int, o: int, s: int, spells_off: int, lands_off: int) -> tuple[int, int, int]:
        s -= spells_off
        off_other = min(o, lands_off)
        return g - (lands_off - off_other), o - off_other, s

    def after(size: int, g: int, o: int, s: int) -> tuple[int, int, int]:
        if size == 7:
            return g, o, s
        if size == 6:
            return bottom(g, o, s, 1, 0) if s > 3 else bottom(g, o, s, 0, 1)
        if size == 5:
            return bottom(g, o, s, 2, 0) if s > 3 else bottom(g, o, s, 1, 1) if s == 3 else bottom(g, o, s, 0, 2)
        return (bottom(g, o, s, 3, 0) if s > 3 else bottom(g, o, s, 2, 1) if s == 3
                else bottom(g, o, s, 1, 2) if s == 2 else bottom(g, o, s, 0, 3))

    success = relevant = 0.0
    reach = 1.0
    draws = turn - 1
    rest = deck_size - 7
    for size in (7, 6, 5, 4):
        rejected = 0.0
        for p, g, o, s in hands():
            kg, ko, _ = after(size, g, o, s)
            if size != 4 and not 2 <= kg + ko <= (5 if size == 7 else 4):
                rejected += p
                continue
            lg, lo = good - g, other - o
            for dg in range(min(lg, draws) + 1):
                for do in range(min(lo, draws - dg) + 1):
                    ds = draws - dg - do
                    if ds > rest - lg - lo:
                        continue
                    q = reach * p * math.comb(lg, dg) * math.comb(lo, do) * math.comb(rest - lg - lo, ds) \
                        / math.comb(rest, draws)
                    if kg + dg + ko + do >= turn:
                        relevant += q
                        if kg + dg >= needed:
                            success += q
        reach *= rejected
    return success / relevant


def karsten_table_40(db: CardDB, samples: int) -> list[str]:
    """Karsten's table for 40-card decks (17 lands), cell by cell: N, the fewest good lands that reach
    89 + turn percent in his model (:func:`karsten_model`, computed exactly), then this engine's
    ``p_given_lands`` with N and N - 1 sources, agreeing as in :func:`karsten_table`."""
    lines = ["## Karsten's 2022 table, 40 cards", "",
             f"17 lands (N Islands, the rest Mountains), 23 copies of a real blue card of the cost, 40 cards, on "
             f"the play, {samples:,} games per count (seed 2022, two workers). Karsten's N is the fewest sources "
             "reaching 89 + turn % in his model, computed here exactly rather than sampled: his "
             "`HowManySources2022Update.py` with `deck_size = 40`, `nr_lands = 17` (the probability of at least "
             "the cost's colored symbols in good lands among games with at least turn-many lands; London "
             "mulligan with his keep rules and bottoming). *his p* is his model's probability with N. This "
             "engine's figure is `p_given_lands` with the exact payment of each board (its mulligan bottoms "
             "the land with more copies in the hand, his the other lands first). A cell agrees when N sources "
             "reach the target within 0.6 points and N - 1 do not exceed it by 0.6 points.", "",
             "| cost | turn | Karsten's N | card | his p with N | p with N-1 | p with N | target | agrees |",
             "|---|---|---|---|---|---|---|---|---|"]
    same = sum(next(k for k in range(c, 26) if karsten_model(60, 25, k, t, c) >= 0.89 + t / 100) == n
               for _, c, t, n in TABLE_60)
    lines[2] += (f" The exact model gives his published 60-card N on {same} of {len(TABLE_60)} cells of "
                 "his 60-card table.")
    agree = 0
    for generic, colored, turn in CELLS_40:
        target = 0.89 + turn / 100
        n = next(k for k in range(colored, 18) if karsten_model(40, 17, k, turn, colored) >= target)
        his = karsten_model(40, 17, n, turn, colored)
        label, text, card, ps, ok = _cell(db, generic, colored, turn, n, 17, samples)
        agree += ok
        lines.append(f"| {label} `{text}` | {turn} | {n} | {card} | {100 * his:.2f}% | {100 * ps[0]:.2f}% | "
                     f"{100 * ps[1]:.2f}% | {100 * target:.0f}% | {'yes' if ok else 'no'} |")
    lines += ["", f"{agree} of {len(CELLS_40)} cells agree (load {_load()} when done).", ""]
    return lines


def exact_vs_count(db: CardDB, samples: int, plot_path: Path | None) -> list[str]:
    lines = ["## Where exact payment changes the answer", "",
             f"{samples:,} games per deck, turns 1–7 on the play, seed 7. *exact*: this engine's `can_pay` "
             "on every sampled board; *land count*: the source-counting model on the same boards (module "
             "docstring). Δ = exact − land count, in percentage points.", ""]
    curves: list[tuple[str, dict[str, tuple[list[float], list[float]]]]] = []
    for title, text, shown in CASES:
        deck = parse_deck(text, db)
        model, exact = _counts(deck, BoardOracle, db, samples, 7, 7)
        _, naive = _counts(deck, LandCountOracle, db, samples, 7, 7)
        lines += [f"### {title}", "", "```", text.strip(), "```", "",
                  "| spell | " + " | ".join(f"T{t}" for t in range(1, 8)) + " |",
                  "|---|" + "---|" * 7]
        per: dict[str, tuple[list[float], list[float]]] = {}
        for i, spell in enumerate(model.spells):
            if spell.name not in shown:
                continue
            e = [exact.castable[t][i] / exact.games for t in range(7)]
            c = [naive.castable[t][i] / naive.games for t in range(7)]
            per[f"{spell.name} {spell.cost.format()}"] = (e, c)
            cells = [f"{100 * a:.1f} / {100 * b:.1f} ({100 * (a - b):+.1f})" for a, b in zip(e, c)]
            lines.append(f"| {spell.name} {spell.cost.format()} | " + " | ".join(cells) + " |")
        lines += ["", "cells: exact % / land count % (Δ)", "", _WHY[title], ""]
        curves.append((title, per))
    if plot_path is not None:
        _plot(curves, plot_path)
        lines += [f"![exact vs land count]({plot_path.name})", ""]
    return lines


def _plot(curves: list[tuple[str, dict[str, tuple[list[float], list[float]]]]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    for ax, (title, per) in zip(axes.flat, curves):
        for k, (label, (e, c)) in enumerate(per.items()):
            colour = f"C{k}"
            ax.plot(range(1, 8), e, marker="o", color=colour, label=f"{label} exact")
            ax.plot(range(1, 8), c, linestyle="--", color=colour, label=f"{label} land count")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("turn")
        ax.set_ylabel("P(castable)")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, loc="lower right")
    fig.suptitle("castability by turn: exact payment (solid) vs land count (dashed), same sampled games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def speed(db: CardDB, million: bool) -> list[str]:
    deck = parse_deck((DECKS / "izzet.txt").read_text(), db)
    lines = ["## Speed", "",
             f"`tests/data/decks/izzet.txt`: 60 cards, 24 lands (10 Island, 10 Mountain, 4 Steam Vents), "
             f"{len(DeckModel.build(deck.cards, deck.commander).spells)} spells, turns 1–7, on the play; "
             f"chunks of {CHUNK:,} games. Machine: {platform.machine()}, {os.cpu_count()} cores "
             "(shared with other work while measured).", "",
             "| run | games | seconds | games/s | load after |", "|---|---|---|---|---|"]
    runs = [("one process", 40_000, 1), ("--workers 2", 200_000, 2)]
    if million:
        runs.append(("--workers 2", 1_000_000, 2))
    for label, n, workers in runs:
        start = time.perf_counter()
        run(deck, Options(turns=(1, 7), samples=n, seed=1, workers=workers))
        seconds = time.perf_counter() - start
        lines.append(f"| {label} | {n:,} | {seconds:.1f} | {n / seconds:,.0f} | {_load()} |")
        if label == "--workers 2" and n == 200_000:
            lines.append(f"| (1,000,000 at that rate) | 1,000,000 | {1_000_000 / (n / seconds):.0f} | | |")
    lines += ["", "Seconds include starting the worker processes and each loading the card database and "
              "filling its cache (the first chunk); a warm process spends most games on dictionary "
              "lookups: the boards of one deck repeat (about a hundred distinct boards for this deck).", ""]
    return lines


ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "data" / "decks"


def _load() -> str:
    return open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"


def real_decks(db: CardDB, sixty: int, commander: int, out: Path, only: list[str] | None = None) -> list[str]:
    """Every deck of ``data/decks`` and the Jund list (or those whose path holds one of ``only``),
    each run for a few games in this process (one chunk, a cold cache: the slowest part of a run),
    timed in CPU seconds; the time of the target's run on two workers extrapolated from it (games x
    CPU per game / 2)."""
    import json
    files = sorted((REAL / "constructed").glob("*.txt")) + [DECKS / "jund.txt"] + \
        sorted((REAL / "commander").glob("*.txt"))
    if only:
        files = [f for f in files if any(o in str(f) for o in only)]
    rows: list[dict[str, Any]] = []
    for path in files:
        deck = parse_deck(path.read_text(), db)
        kind = "commander" if deck.is_commander else "sixty"
        games = commander if deck.is_commander else sixty
        turns = 10 if deck.is_commander else 7
        target = 100_000 if deck.is_commander else 1_000_000
        model = DeckModel.build(deck.cards, deck.commander)
        oracle = BoardOracle(model.cards, model.costs(), db, [c.name for c in deck.commander], model.chosen)
        load = _load()
        cpu = time.process_time()
        wall = time.perf_counter()
        run_chunk(model, oracle, 1, 0, games, turns, False)
        cold = time.process_time() - cpu
        wall = time.perf_counter() - wall
        cpu = time.process_time()
        run_chunk(model, oracle, 1, 1, games, turns, False)
        warm = time.process_time() - cpu
        per = warm / games
        # each of the two workers: one cold chunk, then its half of the games at the warm rate
        target_s = cold + max(0, target // 2 - games) * per
        rows.append({"deck": str(path.relative_to(ROOT)), "kind": kind, "games": games, "turns": turns,
                     "cold_cpu_s": round(cold, 3), "cold_wall_s": round(wall, 3), "warm_cpu_s": round(warm, 3),
                     "ms_per_game": round(1000 * cold / games, 3), "warm_ms_per_game": round(1000 * per, 3),
                     "target_games": target, "target_s_2_workers": round(target_s, 1),
                     "engine_calls": oracle.engine_calls, "boards": oracle.boards, "load": load})
        print(f"{rows[-1]['deck']}: {games} games cold {cold:.2f} s CPU, then {games} warm {1000 * per:.2f} ms/game; "
              f"{target:,} on 2 workers ~{target_s:.0f} s (load {load})", flush=True)
    name = "castability_decks_some.json" if only else "castability_decks.json"
    (out / name).write_text(json.dumps(rows, indent=1) + "\n")
    return deck_table(rows, sixty, commander)


def deck_table(rows: list[dict[str, Any]], sixty: int, commander: int) -> list[str]:
    """The Markdown of :func:`real_decks`' rows: median and slowest deck of each kind."""
    import statistics
    lines = ["## Real decks: every deck of data/decks and a Jund list", "",
             f"Each deck played in one process for two chunks of games ({sixty:,} each for a sixty-card deck, "
             f"turns 1-7; {commander:,} each for a Commander deck, turns 1-10; on the play, seed 1), timed in CPU "
             "seconds: the first from a cold cache, the second warm (boards, steps and games remembered "
             "from the first). The target's run (1,000,000 games of a sixty-card deck, 100,000 of a "
             "Commander deck, on two workers) is extrapolated per worker as one cold chunk plus its half of "
             "the games at the warm rate (a longer run warms further, so this overstates it). The machine "
             "was shared with other helpers' work while measured: the load average is beside each figure "
             "(2 cores), and CPU time under such load is itself inflated. All rows: `castability_decks.json`.",
             "",
             "| decks | n | median warm ms/game | median target s (2 workers) | decks within 120 s | slowest deck | "
             "its warm ms/game | its target s |",
             "|---|---|---|---|---|---|---|---|"]
    for kind, label, target_s in (("sixty", "sixty-card", 120), ("commander", "Commander", 120)):
        sel = [r for r in rows if r["kind"] == kind]
        if not sel:
            continue
        with_jund = " with Jund" if kind == "sixty" and any("jund" in r["deck"] for r in sel) else ""
        label = f"{label} ({len(sel)}{with_jund})"
        worst = max(sel, key=lambda r: r["target_s_2_workers"])
        within = sum(1 for r in sel if r["target_s_2_workers"] <= target_s)
        lines.append(f"| {label} | {len(sel)} | {statistics.median(r['warm_ms_per_game'] for r in sel):.2f} | "
                     f"{statistics.median(r['target_s_2_workers'] for r in sel):.0f} | {within} | {worst['deck']} | "
                     f"{worst['warm_ms_per_game']:.2f} | {worst['target_s_2_workers']:.0f} |")
    jund = next((r for r in rows if r["deck"].endswith("jund.txt")), None)
    if jund is not None:
        lines += ["", f"Jund (`tests/data/decks/jund.txt`: fetch, shock and fast lands, a manland, a tapped "
                  f"land): {jund['warm_ms_per_game']:.2f} ms/game warm, 1,000,000 games on two workers about "
                  f"{jund['target_s_2_workers']:.0f} s (load {jund['load']})."]
    loads = sorted(float(r["load"]) for r in rows if r["load"] != "?")
    if loads:
        lines += ["", f"Load average while measured: {loads[0]:.1f}-{loads[-1]:.1f} (median "
                  f"{statistics.median(loads):.1f}) on 2 cores."]
    return lines + [""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(RESULTS))
    parser.add_argument("--million", action="store_true", help="also time 1,000,000 games on 2 workers")
    parser.add_argument("--samples", type=int, default=100_000, help="games per anchor row")
    parser.add_argument("--decks-only", action="store_true", help="only the real decks (castability_decks.md)")
    parser.add_argument("--table-only", action="store_true", help="only Karsten's table (castability_karsten.md)")
    parser.add_argument("--limited-only", action="store_true",
                        help="only Karsten's 40-card table (castability_karsten_40.md)")
    parser.add_argument("--only", nargs="*", help="with --decks-only: only the decks whose path holds one of "
                        "these (rows to castability_decks_some.json, the table printed)")
    parser.add_argument("--sixty", type=int, default=500, help="games per sixty-card deck")
    parser.add_argument("--commander", type=int, default=50, help="games per Commander deck")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = default_db()
    if args.table_only:
        lines = ["# Castability: Karsten's table", "", "Written by `python benchmarks/castability.py --table-only "
                 f"--samples {args.samples}`.", ""] + karsten_table(db, args.samples)
        (out / "castability_karsten.md").write_text("\n".join(lines) + "\n")
        print("\n".join(lines))
        return 0
    if args.limited_only:
        lines = ["# Castability: Karsten's table for 40-card decks", "", "Written by `python "
                 f"benchmarks/castability.py --limited-only --samples {args.samples}`.", ""]
        lines += karsten_table_40(db, args.samples)
        (out / "castability_karsten_40.md").write_text("\n".join(lines) + "\n")
        print("\n".join(lines))
        return 0
    if args.decks_only:
        lines = ["# Castability on real decks", "", "Written by `python benchmarks/castability.py --decks-only "
                 f"--sixty {args.sixty} --commander {args.commander}`.", ""]
        lines += real_decks(db, args.sixty, args.commander, out, args.only)
        if not args.only:
            (out / "castability_decks.md").write_text("\n".join(lines) + "\n")
        print("\n".join(lines))
        return 0
    lines = ["# Castability over a deck", "",
             "Written by `python benchmarks/castability.py" + (" --million" if args.million else "") + "`.", ""]
    lines += anchor(db, args.samples)
    lines += [""] + karsten_table(db, args.samples)
    lines += [""] + karsten_table_40(db, args.samples)
    lines += [""] + exact_vs_count(db, 20_000, out / "castability.png")
    lines += speed(db, args.million)
    (out / "castability.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
