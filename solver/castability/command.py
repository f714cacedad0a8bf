"""The ``castability`` subcommand: its arguments and its run, for solver/service/cli.py.

Exit status: 0 with an answer, 1 for a deck or an option the command refuses (the error names the line
or option; with ``--json`` it is the protocol's error object), 2 for a usage error (``--workers`` with
``--dask``, a Dask scheduler that can't be reached or has no worker).
"""

from __future__ import annotations

import argparse
import json
import re
import sys

__all__ = ["add_parser", "main"]

#: The largest number of samples one run takes.
MAX_SAMPLES = 100_000_000


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register ``castability`` on the command line's subparsers."""
    p = sub.add_parser("castability", help="the probability of casting each spell of a deck by turn")
    p.add_argument("deck", metavar="DECK", help="a decklist (plain, Arena, MTGO) or JSON deck file")
    p.add_argument("--turns", default="1-7", help="turns asked about, as FIRST-LAST or one turn (default 1-7)")
    side = p.add_mutually_exclusive_group()
    side.add_argument("--play", dest="draw", action="store_false", help="on the play (the default)")
    side.add_argument("--draw", dest="draw", action="store_true", help="on the draw")
    p.set_defaults(draw=False)
    p.add_argument("--samples", default="10000", help="games sampled (default 10000)")
    p.add_argument("--seed", default="1", help="the seed: the same seed gives the same numbers")
    spread = p.add_mutually_exclusive_group()
    spread.add_argument("--workers", default="1", help="local worker processes (default 1)")
    spread.add_argument("--dask", metavar="ADDRESS",
                        help="run the chunks of games on the Dask cluster whose scheduler is ADDRESS "
                             "(tcp://HOST:8786; the dask extra)")
    p.add_argument("--json", action="store_true",
                   help="print the answer as JSON (per spell and turn p, p given lands, intervals, why)")
    p.add_argument("--plot", metavar="FILE.png", help="draw p by turn, one panel per mana value (PNG and SVG)")
    p.add_argument("--suggest", action="store_true",
                   help="also try a few changes to the lands (a basic, a dual, one land more or less) on the "
                        "same games and rank them by the change of each spell's on-curve p")
    p.add_argument("--cards", metavar="FILE", help="a newer card file (JSONL or Scryfall oracle JSON)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")


def _error(message: str, where: str, as_json: bool, code: str = "bad_query", status: int = 1) -> int:
    if as_json:
        print(json.dumps({"error": {"code": code, "message": message, "where": where}}))
    else:
        print(f"manasolver castability: error: {message}", file=sys.stderr)
    return status


def _int(text: str, name: str, lo: int, hi: int) -> int:
    if not re.fullmatch(r"\d+", text.strip()):
        raise ValueError(f"{name}: {text!r} is not a whole number")
    value = int(text)
    if not lo <= value <= hi:
        raise ValueError(f"{name}: {value} is outside {lo}..{hi:,}")
    return value


def _turns(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", text)
    if m is None:
        raise ValueError(f"--turns: {text!r} is not FIRST-LAST (such as 1-7) or one turn")
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    if not 1 <= lo <= hi <= 20:
        raise ValueError(f"--turns: {text!r} must be turns between 1 and 20, the first not after the last")
    return lo, hi


def main(args: argparse.Namespace) -> int:
    """Run ``castability`` with parsed ``args``; the exit status."""
    from manasolver.models.carddb import default_db
    from manasolver.models.errors import ManasolverError
    from manasolver.solver.castability.deck import load_deck
    from manasolver.solver.castability.run import Options, plot, run, stderr_progress, table
    from manasolver.solver.service.parallel import ParallelError
    try:
        opts = Options(turns=_turns(args.turns), draw=bool(args.draw),
                       samples=_int(args.samples, "--samples", 1, MAX_SAMPLES),
                       seed=_int(args.seed, "--seed", 0, 2**63 - 1),
                       workers=_int(args.workers, "--workers", 1, 256), cards_file=args.cards,
                       dask=args.dask)
    except ValueError as err:
        return _error(str(err), str(err).split(":", 1)[0], args.json)
    if args.plot is not None and not args.plot.lower().endswith((".png", ".svg")):
        return _error(f"--plot: {args.plot!r} must name a .png or .svg file (both are written)", "--plot", args.json)
    try:
        deck = load_deck(args.deck, default_db(args.cards))
    except ManasolverError as err:
        return _error(err.message, err.where, args.json, err.code)
    if args.plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _error("--plot needs matplotlib (pip install 'manasolver[plot]')", "--plot", args.json)
    progress = None if args.quiet or (opts.samples < 20000 and not deck.is_commander) else stderr_progress
    try:
        result = run(deck, opts, progress)
        if args.suggest:
            from manasolver.solver.castability.suggest import suggest
            note = None if args.quiet else (lambda label: print(f"castability: trying {label}", file=sys.stderr,
                                                                  flush=True))
            result["suggest"] = suggest(deck, opts, default_db(args.cards), result, note)
    except ParallelError as err:
        return _error(err.message, err.where, args.json, status=2 if err.usage else 1)
    if args.plot is not None:
        try:
            plot(result, args.plot)
        except OSError as err:
            return _error(f"--plot: can't write {args.plot!r}: {err.strerror}", "--plot", args.json)
    print(json.dumps(result) if args.json else table(result))
    return 0
