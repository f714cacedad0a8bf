"""The command line's arguments: the parser of every subcommand, its ``--help``, and its refusals.

What the command line accepts is apart from what it does with it (:mod:`~manasolver.solver.service.cli`):
this module builds the parser (each subcommand's arguments, its one-line help and its longer
description), and parses a command line into its arguments, refusing with a usage error (exit
status 2) an option that the subcommand does not take, saying why when it is one that does not
apply there.  Start-up is part of every light query's time, so only the subcommand asked for has
its parser built, and the help formatter reads the terminal's width without importing shutil.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["DESCRIPTIONS", "build_parser", "parse", "version"]


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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
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
        return build_parser()
    _describe(real_sub)
    return parser


def _describe(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Give every subcommand's ``--help`` a description: :data:`DESCRIPTIONS`, or its one-line help."""
    helps = {action.dest: action.help for action in sub._choices_actions}
    for name, p in sub.choices.items():
        if p.description is None:
            text = DESCRIPTIONS.get(name) or helps.get(name) or ""
            p.description = text[:1].upper() + text[1:]


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



#: Options a subcommand refuses at parse time, and why they don't apply there.
_NOT_APPLICABLE: dict[tuple[str, str], str] = {
    ("max-x", "--x"): "max-x finds the largest X itself",
    ("validate", "--policy"): "validate checks the payment it is given; no policy chooses one",
    ("validate", "--backend"): "validate checks the payment with its own checker, not a backend",
}


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
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
