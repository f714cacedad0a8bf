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


#: What each subcommand's ``--help`` says it does (its one-line ``help`` is the short form).
DESCRIPTIONS: dict[str, str] = {
    "pay": "The best payment of COST on the board STATE under the policy (default: no sacrifice, least "
           "life, keep the hand castable, keep colors, least waste, lands first, fewest sources): which "
           "permanents to tap and how, what each hybrid and Phyrexian symbol was paid with, life and "
           "energy spent; or why it can't be paid and the mana missing.",
    "can-pay": "Whether COST can be paid on the board STATE; when it can't, the reason and the smallest "
               "cost that added sources would have to cover.",
    "payments": "Every payment of COST on the board STATE, up to --limit, and whether the list is complete.",
    "max-x": "The largest X for which COST (with {X}) can be paid on the board STATE, with a payment of it.",
    "guide": "Paying COST by hand on the board STATE: after the activations of --partial, exactly the "
             "activations that keep COST payable, and the best payment that completes them.",
    "options": "Every maximal combination of mana the board STATE can produce at once, up to --limit.",
    "could-produce": "The types of mana each permanent of the board STATE could produce (CR 106.7).",
    "counts": "Colors among permanents, card types among permanents and graveyard, devotion and domain "
              "of the player on the board STATE.",
    "validate": "Check the payment in PAYMENT.json (a pay answer's payment) for COST on the board STATE: "
                "legal, or every problem found, by a checker independent of the solvers.",
    "serve": "Answer protocol queries (one JSON object per request) POSTed over HTTP, for clients "
             "written in other languages.",
    "card": "A card as the engine reads it: mana value, colors, types, mana abilities with their index, "
            "cost, production and restriction, other activated abilities, triggers, and the clauses it "
            "could not read.",
    "mana-value": "The mana value and colors of a cost in card notation (starts with '{') or of a card.",
    "batch": "Answer one JSON query per line of standard input with one JSON answer per line of "
             "standard output, in the same order; a bad line gets an error answer and the rest go on.",
    "bench": "Measure the performance targets (can_pay, pay, batch, start-up, options), beside phase.rs "
             "when the bench extra is installed.",
    "cards": "Card files: 'cards import FILE' converts a card file once into a card database that "
             "later commands open as fast as the bundled one.",
    "cards import": "Convert a card file (Scryfall's bulk oracle or default cards, a Scryfall card object "
                    "or list, or our JSONL) into a card database, and print where it went. Give it to "
                    "later commands as --cards DB or MANASOLVER_CARDS=DB; a later --cards FILE naming "
                    "the same, unchanged file uses the default database by itself.",
    "cards update": "Download the newest cards: read Scryfall's bulk-data list, download its oracle "
                    "cards file (progress on standard error), check it and import it as 'cards import' "
                    "does. Without a network, or on any failure, it says what failed and changes nothing.",
    "cards info": "Say what the bundled card data holds (the number of cards, the newest set and its "
                  "date, the source and its version) and, when MANASOLVER_CARDS names one, the user's cards.",
    "demo": "Answer real questions on the bundled example boards, printing each question, the command "
            "that asks it, and the answer.",
}


class _Version(argparse.Action):
    """``--version``: the installed package's version, read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from manasolver.models.carddb import data_info, data_summary
        print(f"manasolver {version()}; {data_summary(data_info())}")
        parser.exit()


def version() -> str:
    """The installed package's version (``importlib.metadata``)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version
    try:
        return _version("manasolver")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Skipped:
    """A subcommand's parser that is not built: every call is accepted and does nothing."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


class _Only:
    """The subparsers, building only the subcommand ``only``'s parser (the others are :class:`_Skipped`;
    all of them when ``only`` is None): building all of them costs more than a whole light query's
    start-up.  Each one built gets :class:`_Formatter`."""

    def __init__(self, sub: argparse._SubParsersAction[argparse.ArgumentParser], only: str | None) -> None:
        self.sub = sub
        self.only = only

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.only is not None and name != self.only:
            return _Skipped()
        kwargs.setdefault("formatter_class", _Formatter)
        return self.sub.add_parser(name, **kwargs)


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, the width of the terminal found as :func:`shutil.get_terminal_size`
    finds it, without importing shutil (with lzma and bz2, 5 ms of every start: argparse makes a
    formatter for each argument it adds)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            out = sys.__stdout__
            columns = os.get_terminal_size(out.fileno()).columns if out is not None else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only``, that subcommand's alone (the whole parser when
    ``only`` is not a subcommand, so that a mistyped one lists them all)."""
    parser = argparse.ArgumentParser(
        prog="manasolver", formatter_class=_Formatter,
        description="Exact payment and legality engine for Magic: The Gathering costs.")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    real_sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub: Any = _Only(real_sub, only)

    def common(p: argparse.ArgumentParser, state: bool = True) -> None:
        if state:
            p.add_argument("state", metavar="STATE", help="board JSON file, - for stdin, or example:NAME")
        p.add_argument("--json", action="store_true", help="print the protocol's JSON answer")
        p.add_argument("--cards", metavar="FILE", help="a newer card file (JSONL or Scryfall oracle JSON)")
        p.add_argument("--player", help="the player asked about (default: the first)")

    def costed(p: argparse.ArgumentParser, x: bool = True, choice: bool = True) -> None:
        """The cost and its context; ``x`` offers ``--x`` (not for max-x, which finds X),
        ``choice`` offers ``--policy`` and ``--backend`` (not for validate, which checks a
        given payment)."""
        common(p)
        p.add_argument("cost", metavar="COST", nargs="?",
                       help='a cost such as "{2}{W/U}{B/P}"; may be left out with --spell or --activate')
        if choice:
            p.add_argument("--policy", help="criteria in order, e.g. min_life,keep_colors")
        if x:
            p.add_argument("--x", type=int, help="a fixed value for X")
        p.add_argument("--spell", metavar="CARD", help="the card being cast (restrictions, modifiers)")
        p.add_argument("--alternative", metavar="NAME", help="an alternative cost of --spell (impending, "
                                                              "flashback, without_paying_mana_cost, ...)")
        p.add_argument("--additional", action="append", default=[], metavar="NAME",
                       help="an additional cost of --spell (kicker, buyback, ...); repeatable")
        p.add_argument("--activate", metavar="ID[:N]",
                       help="activate ability N (an index, or a keyword such as equip) of permanent ID; "
                            "with --spell CARD, the keyword ability (unearth, cycling) of that card")
        p.add_argument("--modifier", action="append", default=[], metavar="KIND=VALUE",
                       help="increase={1}, reduce={W} or minimum=3; repeatable, in order")
        if choice:
            p.add_argument("--backend", choices=["flow", "fastopt", "cpsat", "csp"], help="force a backend")
            for kind, what in (("require", "activate"), ("exclude", "never use"), ("preserve", "use only if needed")):
                p.add_argument(f"--{kind}", action="append", default=[], metavar="ID",
                               help=f"a permanent to {what} (sources.{kind}); repeatable")

    costed(sub.add_parser("pay", help="the best payment of a cost"))
    costed(sub.add_parser("can-pay", help="whether a cost can be paid"))
    p = sub.add_parser("payments", help="every payment of a cost")
    costed(p)
    p.add_argument("--limit", type=int, default=100, help="at most this many payments (default 100)")
    costed(sub.add_parser("max-x", help="the largest X that can be paid"), x=False)
    p = sub.add_parser("guide", help="paying by hand: what may be activated next, and the best completion")
    costed(p)
    p.add_argument("--partial", metavar="JSON", default="[]",
                   help='the activations made so far, as JSON: [{"permanent": "f1", "ability": 0}, ...]')
    p = sub.add_parser("options", help="every maximal mana combination the board can produce")
    common(p)
    p.add_argument("--limit", type=int, default=100, help="at most this many combinations (default 100)")
    common(sub.add_parser("could-produce", help="the types each permanent could produce (CR 106.7)"))
    common(sub.add_parser("counts", help="colors, card types, devotion and domain"))
    p = sub.add_parser("validate", help="check a proposed payment")
    costed(p, choice=False)
    p.add_argument("payment", metavar="PAYMENT.json", help="the payment to check (JSON file, or - for stdin)")
    p = sub.add_parser("serve", help="answer protocol queries POSTed over HTTP (127.0.0.1 by default)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="0 picks a free port (printed on the first line)")
    p.add_argument("--cards", metavar="FILE", help="a newer card file, read once at start")
    p.add_argument("--allow-origin", metavar="ORIGIN",
                   help="answer OPTIONS and send CORS headers for this web origin (e.g. http://localhost:3000)")
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                   help="the longest a client may take to send a request, or stay idle between two")
    p.add_argument("--session-memory", type=int, metavar="MB",
                   help="the most memory kept session boards may take together (default 512)")
    p.add_argument("--grace", type=float, default=10.0, metavar="SECONDS",
                   help="on SIGTERM, how long requests in flight may run on before they are cut short")
    p = sub.add_parser("card", help="a card as the engine understands it")
    p.add_argument("name", metavar="NAME", help="the card's name (case-insensitive; a face's name too)")
    p.add_argument("--json", action="store_true", help="print the protocol's JSON card object")
    p.add_argument("--cards", metavar="FILE", help="a newer card file (JSONL or Scryfall oracle JSON)")
    p = sub.add_parser("mana-value", help="mana value and colors of a cost or card")
    p.add_argument("what", metavar="COST_OR_CARD", help='a cost such as "{2}{W/U}", or a card name')
    p.add_argument("--json", action="store_true", help="print the protocol's JSON answer")
    p.add_argument("--cards", metavar="FILE", help="a newer card file (JSONL or Scryfall oracle JSON)")
    p = sub.add_parser("batch", help="answer one JSON query per line of stdin")
    spread = p.add_mutually_exclusive_group()
    spread.add_argument("--workers", type=int, metavar="N",
                        help="answer chunks of lines in N local processes (answers stay in input order)")
    spread.add_argument("--dask", metavar="ADDRESS", help="answer chunks of lines on the Dask cluster whose "
                                                         "scheduler is ADDRESS (tcp://HOST:8786)")
    p.add_argument("--cards", metavar="FILE", help="a newer card file, for the queries that name none")
    p.add_argument("--session-memory", type=int, metavar="MB",
                   help="the most memory kept session boards may take together (default 512)")
    p = sub.add_parser("bench", help="run the benchmarks")
    p.add_argument("--quick", action="store_true", help="a CI-sized run")
    p.add_argument("--out", metavar="DIR", help="where results and plots go (default benchmarks/results)")
    p.add_argument("--no-phase", action="store_true", help="skip the phase.rs comparison")
    p.add_argument("--no-plots", action="store_true", help="write no plots")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    sub.add_parser("demo", help="answer real questions on the bundled example boards")
    p = sub.add_parser("cards", help="card files: import one once, for fast later use")
    cards_sub = p.add_subparsers(dest="cards_command", metavar="{import,info,update}", required=True,
                                 help="import: convert a card file once; info: what the card data holds; "
                                      "update: the newest cards from Scryfall")
    p = cards_sub.add_parser("import", help="convert a Scryfall or JSONL card file into a card database",
                             description=DESCRIPTIONS["cards import"], formatter_class=_Formatter)
    p.add_argument("file", metavar="FILE", help="a Scryfall bulk file, card object or list, or a JSONL "
                                                "card file (gzip-compressed or not)")
    p.add_argument("--out", metavar="DB", help="where the database goes (default: the user's data folder, "
                                               "$XDG_DATA_HOME/manasolver/cards.sqlite)")
    cards_sub.add_parser("info", help="what the card data holds: cards, newest set and its date, source",
                         description=DESCRIPTIONS["cards info"], formatter_class=_Formatter)
    _add_cards_update(cards_sub)
    from manasolver.solver.castability.command import add_parser as add_castability
    add_castability(sub)
    if only is not None and only not in real_sub.choices:
        return _parser()
    _describe(real_sub)
    return parser


def _describe(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Give every subcommand's ``--help`` a description: :data:`DESCRIPTIONS`, or its one-line help."""
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, p in sub.choices.items():
        if p.description is None:
            text = DESCRIPTIONS.get(name) or helps.get(name) or ""
            p.description = text[:1].upper() + text[1:]


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
    long: the first five-color cost on a board of Signets, say.  Then the garbage collector is
    tuned: what start-up loaded is moved out of the collector's sight (``gc.freeze``), and
    collections come less often (a query makes thousands of short-lived objects, nearly all
    freed by reference counting alone; the full collections would otherwise rescan the card data
    and the caches)."""
    import gc

    from ortools.sat.python import cp_model  # noqa: F401  (imported for its side effect: loaded)
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
    from manasolver.solver.service.parallel.batch import run_batch, warm
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
            run_batch(bounded_lines(sys.stdin.buffer), sys.stdout, None, args.cards)
            return 0
        from functools import partial
        with open_runner(args.workers or 1, args.dask, partial(warm, args.cards)) as runner:
            run_batch(bounded_lines(sys.stdin.buffer), sys.stdout, runner, args.cards)
    except ParallelError as err:
        print(f"manasolver batch: error: {err.message}", file=sys.stderr)
        return 2 if err.usage else 1
    return 0


def _add_cards_update(cards_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = cards_sub.add_parser("update", help="download the newest cards from Scryfall and import them",
                             description=DESCRIPTIONS["cards update"], formatter_class=_Formatter)
    p.add_argument("--from", dest="source", metavar="URL_OR_FILE",
                   help="another source: a bulk-data list or a card file, by URL or a local file")
    p.add_argument("--out", metavar="DB", help="the database to replace (default: the user's data folder, "
                                               "$XDG_DATA_HOME/manasolver/cards.sqlite)")
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                   help="how long a connection or a read may wait (default 30)")
    p.add_argument("--min-cards", type=int, metavar="N",
                   help="the fewest cards the file must hold (default 20,000 from Scryfall, 1 from --from)")


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


#: Options a subcommand refuses at parse time, and why they don't apply there.
_NOT_APPLICABLE: dict[tuple[str, str], str] = {
    ("max-x", "--x"): "max-x finds the largest X itself",
    ("validate", "--policy"): "validate checks the payment it is given; no policy chooses one",
    ("validate", "--backend"): "validate checks the payment with its own checker, not a backend",
}


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse the arguments; an argument the subcommand does not take is a usage error (exit 2)
    from that subcommand, saying why when it is an option that does not apply there."""
    args, extra = parser.parse_known_args(argv)
    if not extra:
        return args
    command = str(getattr(args, "command", None))
    target = parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            target = action.choices[command]
    why = [_NOT_APPLICABLE[(command, opt.split("=", 1)[0])] for opt in extra
           if (command, opt.split("=", 1)[0]) in _NOT_APPLICABLE]
    target.error(f"unrecognized arguments: {' '.join(extra)}" + (f" ({'; '.join(why)})" if why else ""))


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
