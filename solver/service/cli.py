"""The ``manasolver`` command line.

Each subcommand builds one protocol query and prints its answer, readable by
default and as the protocol's JSON with ``--json``.  Exit status: 0 with an
answer, 1 when the answer is an error, 2 on a usage error.  Imports stay light:
queries that need no optimiser never load ortools.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from manasolver.solver.service.arguments import build_parser as _parser
from manasolver.solver.service.arguments import parse as _parse

__all__ = ["main", "read_state", "run"]

_MAX_INPUT = 64 * 1024 * 1024


class _Usage(Exception):
    """A usage error: exit status 2."""


class _BadStateFile(Exception):
    """A state file that is not JSON: answered as a ``bad_state`` error (exit status 1)."""


def read_state(spec: str, what: str = "STATE") -> Any:
    """Read STATE (or the argument ``what`` names, PAYMENT for validate's payment): a path,
    ``-`` for standard input, or ``example:NAME``."""
    if spec == "-":
        text = sys.stdin.read(_MAX_INPUT + 1)
        source = "standard input"
    elif spec.startswith("example:"):
        name = spec.split(":", 1)[1]
        # the package data beside this module, found without importlib.resources or pathlib (they
        # would add some 25 ms to every start)
        folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
        path = os.path.join(folder, f"{name}.json")
        if not name or "/" in name or "\\" in name or name.startswith(".") or not os.path.isfile(path):
            known = sorted(p[:-5] for p in os.listdir(folder)
                           if p.endswith(".json")) if os.path.isdir(folder) else []
            raise _Usage(f"no bundled example {name!r}; known: {', '.join(known)}")
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        source = spec
    else:
        hint = "a JSON file, - for standard input, or example:NAME" if what == "STATE" else \
            "a JSON file or - for standard input"
        if not os.path.exists(spec):
            raise _Usage(f"{what} file {spec!r} does not exist (give {hint})")
        if os.path.isdir(spec):
            raise _Usage(f"{what} {spec!r} is a folder, not a file (give {hint})")
        try:
            if os.path.getsize(spec) > _MAX_INPUT:
                raise _Usage(f"{what} file {spec} is larger than {_MAX_INPUT} bytes")
            with open(spec, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as err:
            raise _Usage(f"cannot read {what} file {spec!r}: {err.strerror}") from None
        except UnicodeDecodeError:
            raise _Usage(f"{what} file {spec} is not UTF-8 text") from None
        source = spec
    if len(text) > _MAX_INPUT:
        raise _Usage(f"{source} is larger than {_MAX_INPUT} bytes")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:
        raise _BadStateFile(f"{source} is not valid JSON: {err}") from None


_QUERY_OF = {"pay": "pay", "can-pay": "can_pay", "payments": "payments", "max-x": "max_x", "guide": "guide",
             "options": "options", "could-produce": "could_produce", "counts": "counts",
             "validate": "validate"}


def _query(args: argparse.Namespace) -> dict[str, Any]:
    query: dict[str, Any] = {"query": _QUERY_OF[args.command], "state": read_state(args.state)}
    if args.cards:
        query["cards"] = args.cards
    if args.player:
        query["player"] = args.player
    if hasattr(args, "cost"):
        if args.cost is not None:
            query["cost"] = args.cost
        elif not (args.spell or args.activate):
            raise _Usage("give a COST, or --spell CARD, or --activate ID[:N]")
        if getattr(args, "policy", None):
            query["policy"] = args.policy
        if getattr(args, "x", None) is not None:
            query["x"] = args.x
        if args.spell:
            query["spell"] = {"card": args.spell}
        if args.activate:
            query["spell"] = _activate(args.activate, args.spell)
        if args.alternative:
            query["alternative"] = args.alternative
        if args.additional:
            query["additional"] = args.additional
        if getattr(args, "backend", None):
            query["backend"] = args.backend
        chosen = {kind: getattr(args, kind, []) for kind in ("require", "exclude", "preserve")}
        if any(chosen.values()):
            query["sources"] = {kind: ids for kind, ids in chosen.items() if ids}
        mods = []
        for item in args.modifier:
            kind, sep, value = item.partition("=")
            if not sep:
                raise _Usage(f"--modifier {item!r}: write KIND=VALUE, e.g. reduce={{1}}")
            mods.append({kind: int(value) if kind == "minimum" and value.isdigit() else value})
        if mods:
            query["modifiers"] = mods
    if getattr(args, "limit", None) is not None:
        query["limit"] = args.limit
    if args.command == "validate":
        query["payment"] = read_state(args.payment, "PAYMENT")
    if args.command == "guide":
        query.pop("backend", None)
        try:
            query["partial"] = json.loads(args.partial)
        except json.JSONDecodeError as err:
            raise _Usage(f"--partial is not JSON: {err.msg}") from None
    return query


def _activate(text: str, card: str | None) -> dict[str, Any]:
    """``--activate``: ``ID`` or ``ID:N`` / ``ID:equip`` for a permanent's ability; with
    ``--spell CARD``, the keyword (``unearth``) of that card's ability."""
    if card:
        return {"card": card, "ability": text}
    pid, _, which = text.partition(":")
    ability: int | str = int(which) if which.isdigit() else (which or 0)
    return {"permanent": pid, "ability": ability}


def _emit(result: dict[str, Any], as_json: bool, text: str | None = None) -> int:
    """Print an answer: its JSON on standard output with ``--json``; else its text, on standard
    error when it is an error. Exit status 1 for an error answer, else 0."""
    failed = "error" in result
    if as_json:
        print(json.dumps(result))
    else:
        if text is None:
            from manasolver.solver.service.render import answer_text
            text = answer_text(result)
        print(f"manasolver: {text}" if failed else text, file=sys.stderr if failed else sys.stdout)
    return 1 if failed else 0


def _card(args: argparse.Namespace) -> int:
    """``card NAME``: the protocol's ``card`` query; ``--json`` prints its card object."""
    from manasolver.solver.service.protocol import answer
    query: dict[str, Any] = {"query": "card", "card": args.name}
    if args.cards:
        query["cards"] = args.cards
    result = answer(query)
    if "error" in result:
        return _emit(result, args.json)
    from manasolver.solver.service.render import card_text
    return _emit(result["card"], args.json, None if args.json else card_text(result["card"]))


def _mana_value(args: argparse.Namespace) -> int:
    from manasolver.solver.service.protocol import answer
    query: dict[str, Any] = {"query": "mana_value"}
    query["cost" if args.what.lstrip().startswith("{") else "card"] = args.what
    if args.cards:
        query["cards"] = args.cards
    return _emit(answer(query), args.json)


def _long_lived() -> None:
    """Ready a long ``batch`` or ``serve`` process.  OR-Tools' CP-SAT is imported now (0.3 s on
    the 2-core machine), not by the first query that needs it, which would otherwise take that
    long: the first five-color cost on a board of Signets, say; so is the reader of keyword
    costs (kicker, flashback, buyback: 5 ms), which the first card naming one would otherwise
    import in the middle of a stream of lines.  Then the garbage collector is
    tuned: what start-up loaded is moved out of the collector's sight (``gc.freeze``), and
    collections come less often (a query makes thousands of short-lived objects, nearly all
    freed by reference counting alone; the full collections would otherwise rescan the card data
    and the caches)."""
    import gc

    from ortools.sat.python import cp_model  # noqa: F401  (imported for its side effect: loaded)

    from manasolver.models.text import keyword_costs  # noqa: F401  (as cp_model)
    gc.freeze()
    gc.set_threshold(10_000, 50, 1_000)


def _session_memory(megabytes: int | None) -> None:
    """``--session-memory MB``: the byte budget of the kept session boards."""
    if megabytes is None:
        return
    if not 1 <= megabytes <= 1 << 30:
        raise _Usage(f"--session-memory {megabytes}: give a number of megabytes from 1 up")
    from manasolver.solver.service.sessions import STORE
    STORE.configure(memory=megabytes << 20)


def _batch(args: argparse.Namespace) -> int:
    """``batch``: bytes in, decoded line by line (a line that is not UTF-8 is answered with an error
    naming it, and the lines around it as usual); over local processes or a Dask cluster in chunks."""
    from manasolver.solver.service.parallel import ParallelError, open_runner
    from manasolver.solver.service.parallel.batch import input_lines, run_batch, warm
    from manasolver.solver.service.protocol import bounded_lines
    if args.workers is not None and not 1 <= args.workers <= 256:
        raise _Usage(f"--workers {args.workers}: give a number of processes from 1 to 256")
    if args.cards is not None:
        from manasolver.models.carddb import default_db
        from manasolver.models.errors import ManasolverError
        from manasolver.solver.service.decode import card_file
        try:
            card_file(args.cards, "--cards")
            default_db(args.cards)
        except ManasolverError as err:
            raise _Usage(f"--cards: {err.message}") from None
    spread = args.dask is not None or (args.workers or 1) > 1
    _session_memory(args.session_memory)
    _long_lived()
    try:
        if not spread:
            run_batch(input_lines(sys.stdin.buffer, sys.stdout.flush), sys.stdout, None, args.cards)
            return 0
        from functools import partial
        with open_runner(args.workers or 1, args.dask, partial(warm, args.cards)) as runner:
            run_batch(bounded_lines(sys.stdin.buffer), sys.stdout, runner, args.cards)
    except ParallelError as err:
        print(f"manasolver batch: error: {err.message}", file=sys.stderr)
        return 2 if err.usage else 1
    return 0


def _cards_update(args: argparse.Namespace) -> int:
    """``cards update [--from URL_OR_FILE] [--out DB]``: exit status 1, with one line saying what
    failed, when the update can't be made; the previous database is then unchanged."""
    from manasolver.solver.service.cards_update import UpdateError, update
    try:
        done = update(args.source, args.out, timeout=args.timeout, min_cards=args.min_cards)
    except UpdateError as err:
        print(f"manasolver: error: cards update: {err.message}; the card database is unchanged", file=sys.stderr)
        return 1
    res = done.result
    skipped = f" ({res.skipped} repeats of a name merged: other printings)" if res.skipped else ""
    dated = f", dated {done.updated_at}" if done.updated_at else ""
    print(f"imported {res.cards} cards from {done.source}{dated}{skipped} in {res.seconds:.1f} s into {res.out}")
    print(f"use it with --cards {res.out} (or MANASOLVER_CARDS={res.out})")
    return 0


def _cards_info() -> int:
    """``cards info``: what the bundled card data holds, and the user's cards named by MANASOLVER_CARDS."""
    from manasolver.models.carddb import DB_PATH, ENV_VAR, data_info, is_sqlite
    info = data_info()
    if not info:
        print(f"manasolver: error: the bundled card database {DB_PATH} can't be read", file=sys.stderr)
        return 1
    count = info.get("cards", "?")
    print(f"bundled card data: {DB_PATH}")
    print(f"  cards: {int(count):,}" if count.isdigit() else f"  cards: {count}")
    if info.get("newest_set"):
        print(f"  newest set: {info['newest_set']} ({info.get('newest_set_date', 'date unknown')})")
    for key in ("source", "version", "wheel_sha256"):
        if info.get(key):
            print(f"  {key.replace('_', ' ')}: {info[key]}")
    user = os.environ.get(ENV_VAR)
    if user:
        extra = data_info(user) if is_sqlite(user) else {}
        held = f", {extra['cards']} cards" if extra.get("cards") else ""
        print(f"user cards ({ENV_VAR}): {user}{held}; they win over the bundled ones")
    print("newer cards: manasolver cards update, or --cards FILE (a Scryfall or JSONL card file)")
    return 0


def _cards(args: argparse.Namespace) -> int:
    """``cards import FILE [--out DB]``: the file converted into a card database (exit status 1 for a
    file that is not a card file, 2 for one that does not exist); ``cards info``: :func:`_cards_info`."""
    if args.cards_command == "info":
        return _cards_info()
    if args.cards_command == "update":
        return _cards_update(args)
    if not os.path.exists(args.file):
        raise _Usage(f"card file {args.file!r} does not exist")
    from manasolver.models.card_import import import_card_file
    from manasolver.models.errors import ManasolverError
    try:
        done = import_card_file(args.file, args.out)
    except ManasolverError as err:
        print(f"manasolver: error: {err.message}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"manasolver: error: can't write {args.out or 'the card database'}: {err.strerror or err}",
              file=sys.stderr)
        return 1
    skipped = f" ({done.skipped} repeats of a name merged: other printings)" if done.skipped else ""
    print(f"imported {done.cards} cards from {args.file}{skipped} in {done.seconds:.1f} s into {done.out}")
    print(f"use it with --cards {done.out} (or MANASOLVER_CARDS={done.out})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    import gc
    collector = gc.get_threshold()
    # start-up makes some 300,000 objects that live to the end (modules, classes, cards): at the default
    # threshold about 40 collections rescan them, 7% of a cold can-pay; at 50,000 none run, and a long
    # query still has its cycles collected.  The commands that run long or measure get the default back.
    gc.set_threshold(50_000, *collector[1:])
    words = list(sys.argv[1:] if argv is None else argv)
    parser = _parser(words[0] if words and not words[0].startswith("-") else None)
    args = _parse(parser, argv)
    if args.command in ("batch", "serve", "bench", "demo", "castability"):
        gc.set_threshold(*collector)
    try:
        if args.command is None:
            parser.print_help()
            return 2
        if args.command == "card":
            return _card(args)
        if args.command == "mana-value":
            return _mana_value(args)
        if args.command == "batch":
            return _batch(args)
        if args.command == "bench":
            from manasolver.benchmarks.runner import main as bench_main
            forwarded = [flag for flag, on in (("--quick", args.quick), ("--no-phase", args.no_phase),
                                               ("--no-plots", args.no_plots), ("--json", args.json)) if on]
            if args.out:
                forwarded += ["--out", args.out]
            return bench_main(forwarded)
        if args.command == "serve":
            from manasolver.solver.service.serve import serve
            _session_memory(args.session_memory)
            _long_lived()
            return serve(args.host, args.port, args.cards, args.allow_origin, args.timeout, args.grace)
        if args.command == "castability":
            from manasolver.solver.castability.command import main as castability_main
            return castability_main(args)
        if args.command == "cards":
            return _cards(args)
        if args.command == "demo":
            from manasolver.solver.service.demo import main as demo_main
            return demo_main()
        from manasolver.solver.service.protocol import answer
        return _emit(answer(_query(args)), args.json)
    except _Usage as err:
        print(f"manasolver: error: {err}", file=sys.stderr)
        return 2
    except _BadStateFile as err:
        return _emit({"error": {"code": "bad_state", "message": str(err), "where": "state"}},
                     bool(getattr(args, "json", False)))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # noqa: BLE001 - never a traceback for the user
        print(f"manasolver: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return 1


def run() -> int:
    """The console script ``manasolver``: :func:`main`, and what start-up loaded frozen out of the
    collector's sight before the interpreter exits (its last collections would otherwise scan every
    object of the run, some 5% of a light query)."""
    import gc

    try:
        return main()
    finally:
        gc.freeze()

if __name__ == "__main__":
    sys.exit(run())
