"""Parser coverage: how many real cards with a mana ability the oracle parser reads fully.

Run as ``python benchmarks/parser_coverage.py [--data data/cards.jsonl.gz]``; it
writes ``benchmarks/results/parser_coverage.md`` and prints the figure.

Which cards count is decided *without* the parser, by a plain text test on each
face's rules text (reminder text removed, quoted text removed): a line of the form
``cost: effect``, where the cost holds no period and is not a loyalty cost, and
the effect says "Add {…" / "Add one/two/X … mana" / "mana of any", and names no
target (CR 605.1a).  Silver-bordered (funny) cards are left out.

A card *parses fully* when :func:`~manasolver.models.text.oracle.parse_oracle` reports
no unsupported clause for any of its faces.  Failures are grouped by clause, with
the card's name replaced by ``~``, and listed with the card names.

The second part covers the whole pool of permanents (every non-funny card whose front face is an
artifact, battle, creature, enchantment, land or planeswalker, mana ability or not), as the
bundled card database builds them: a permanent is *read* when no clause about mana is left unread
by every reader (``CardText.unread``), no trigger on becoming tapped may hurt in a way not read
(:mod:`~manasolver.models.text.tap_triggers`), and it has no rule the payment model refuses where
it matters (a prohibition on activating mana abilities that names a chosen permanent).  The rest are
listed by clause with why they stay unsupported.

Applied, and counted as read: prohibitions of Null Rod's kind and Phyrexian Revoker's (CR 602.5), the
payment rules of CR 609.4b ("spend mana as though it were mana of any color/type", Celestial Dawn's
"only as though it were colorless": :class:`~manasolver.models.effects.SpendTable`, on the cost and on
the mana abilities' own costs) and "~ has all activated abilities of" graveyard creature cards,
countered creatures, all lands and the cards exiled with it (layer 6, CR 613.1f:
:func:`~manasolver.models.rules.granted.held_abilities`).  What of them is still refused on some
boards is listed apart (:data:`APPLIED`), with the card names.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from manasolver.models.card import Card, TypeLine
from manasolver.models.text.oracle import parse_oracle

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT / "data" / "cards.jsonl.gz"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "parser_coverage.md"

_DETECT = re.compile(r"\bAdd (?:\{|(?:one|two|three|four|five|X|an amount of)\b[^.]*\bmana\b)|\bmana of any\b")
_LOYALTY = re.compile(r"^\s*\[?[+−\-–]?(?:\d+|X)\]?\s*$")


def has_mana_ability(text: str) -> bool:
    """The parser-independent test: an activated ability (not loyalty) that adds mana, no target."""
    for line in text.split("\n"):
        line = re.sub(r"\([^()]*\)", "", line)
        line = re.sub(r"\"[^\"]*\"", "", line)
        if ":" not in line:
            continue
        cost, effect = line.split(":", 1)
        if "." in cost or _LOYALTY.match(cost):
            continue
        if _DETECT.search(effect) and "target" not in effect.lower():
            return True
    return False


def faces(record: dict[str, object]) -> list[dict[str, object]]:
    """The faces of a record (the record itself for single-faced cards)."""
    got = record.get("faces")
    return list(got) if isinstance(got, list) and got else [record]


def run(data: Path) -> dict[str, object]:
    """Measure coverage; return the figures and the failures by clause."""
    total = full = engine = 0
    failures: dict[str, list[str]] = defaultdict(list)
    read_elsewhere: dict[str, list[str]] = defaultdict(list)
    start = time.perf_counter()
    with gzip.open(data, "rt", encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            if record.get("funny"):
                continue
            fs = faces(record)
            if not any(has_mana_ability(str(f.get("oracle_text", ""))) for f in fs):
                continue
            total += 1
            bad: list[str] = []
            unread: list[str] = []
            for f in fs:
                name = str(f["name"])
                type_line = TypeLine.parse(str(f["type_line"]))
                parsed = parse_oracle(str(f.get("oracle_text", "")), type_line, name)
                bad.extend(clause.replace(name, "~") for clause in parsed.unsupported)
                card = Card(name=name, type_line=type_line, oracle_text=str(f.get("oracle_text", "")))
                unread.extend(c.replace(name, "~") for c in parsed.unsupported if not engine_reads(card, c))
            if bad:
                for clause in dict.fromkeys(bad):
                    (failures if clause in unread else read_elsewhere)[clause].append(str(record["name"]))
            else:
                full += 1
            if not unread:
                engine += 1
    elapsed = time.perf_counter() - start
    return {"total": total, "full": full, "engine": engine, "failures": failures,
            "read_elsewhere": read_elsewhere, "seconds": elapsed}


def engine_reads(card: Card, clause: str) -> bool:
    """Whether a clause the oracle parser leaves unread is read by another part of the
    engine: a mana ability used from the hand (``models/text/hand.py``), a cost that taps
    other permanents (``models/text/tap_costs.py``), or an effect on mana production that
    the payment engine applies (``models/text/mana_effects.py``: Chromatic Lantern's grant,
    Mana Reflection, Blood Moon), or a clause that changes no payment on the board as given
    (``models/text/oracle.py`` ``changes_no_payment``: Machine God's Effigy's copy clause)."""
    from manasolver.models.text.hand import is_hand_clause
    from manasolver.models.text.mana_effects import mana_effects_of
    from manasolver.models.text.oracle import changes_no_payment
    from manasolver.models.text.tap_costs import is_tap_cost_clause
    if is_hand_clause(card, clause) or is_tap_cost_clause(clause) or changes_no_payment(clause):
        return True
    return any(effect.text == clause for effect in mana_effects_of(card))


#: What each failure needs, by the first pattern its clause matches (for the summary table).
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("a payment rule (spend mana as though it were another type, CR 609.4b)", r"spend mana as though"),
    ("a choice made as it entered (chosen color or type)", r"chosen (?:color|type)|last noted|as you drafted"),
    ("a commander", r"commander"),
    ("a variable number of counters removed", r"any number of \S+ counters|Remove X "),
    ("a granted mana ability (given to other permanents or conditional)", r"\b(?:have|has|gains?)\b[^\"]*\""),
    ("an activation condition", r"Activate only if"),
    ("a per-turn activation limit", r"Activate only once|no more than|only during"),
    ("a conditional amount (\"… instead\")", r"\binstead\b"),
    ("a cost paid from hand, graveyard or library", (r"[Dd]iscard|from your hand|from your graveyard|[Mm]ill|"
                                                    r"Exile a card|Reveal")),
    ("a restriction the data model can't say", r"Spend this mana|can't be spent"),
    ("a cost the data model can't say", (r"^[^:]*(?:Tap an untapped (?!creature)|Tap (?:two|three) untapped|"
                                         r"Exert|Untap a|Return|Sacrifice (?:X|a \w+ (?:token|or))|Put a|"
                                         r"Exile a creature)[^:]*:")),
)


def category(clause: str) -> str:
    """The first category whose pattern the clause matches, or "other"."""
    for label, pattern in CATEGORIES:
        if re.search(pattern, clause):
            return label
    return "other (a rare wording)"


def report(result: dict[str, object]) -> str:
    """The Markdown report."""
    total = int(result["total"])  # type: ignore[call-overload]
    full = int(result["full"])  # type: ignore[call-overload]
    failures: dict[str, list[str]] = result["failures"]  # type: ignore[assignment]
    engine = int(result["engine"])  # type: ignore[call-overload]
    pct = 100.0 * full / total if total else 0.0
    lines = [
        "# Oracle parser coverage",
        "",
        "Written by `python benchmarks/parser_coverage.py`. Cards: the non-funny cards of",
        "`data/cards.jsonl.gz` whose text has an activated ability that adds mana (found by a",
        "plain text test, independent of the parser; see the script's docstring). A card parses fully when",
        "the parser reports no unsupported clause about mana for any of its faces.",
        "",
        f"- cards with a mana ability: **{total}**",
        f"- parsed fully: **{full}** ({pct:.1f}%)",
        f"- not fully: {total - full}",
        "- answered by the engine (every clause about mana read, by the parser or by the readers of",
        f"  hand abilities, tap-other-permanents costs and effects on mana production): "
        f"**{engine}** ({100.0 * engine / max(1, total):.1f}%)",
        "",
        "## What the failures need",
        "",
        "Each failing card counted once, under the first need of its first unsupported clause. None of these",
        "can be read exactly into the present data model, so they are reported, never guessed.",
        "",
        "| need | cards |",
        "| --- | ---: |",
    ]
    by_card: dict[str, str] = {}
    for clause, names in failures.items():
        for n in names:
            by_card.setdefault(n, category(clause))
    counts: dict[str, int] = defaultdict(int)
    for label in by_card.values():
        counts[label] += 1
    for label, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {label} | {count} |")
    lines += [
        "",
        "Read from the board (`models/rules/amounts.py`, `ability_options`): the color or",
        "creature type chosen as a permanent entered (board `chosen`), the commander's color identity",
        "(player `commander`, CR 903.4), variable counter costs (storage lands, Mana Batteries: one option per",
        "number removed), activation conditions (Tainted lands, metalcraft, Temple of the False God,",
        "Formidable, Ferocious), \"instead\" productions (Tron, Gemstone Caverns, Leafkin Druid, Ilysian",
        "Caryatid), per-turn limits (`per_turn`), colors among permanents or graveyard cards, free reveals",
        "from hand (Metalworker), and counts with filters (defender, power, name), life, domain, greatest",
        "power and graveyard cards.",
        "",
        "Read outside the parser (the second figure above; listed at the end): Spirit Guides' \"Exile ~ from",
        "your hand\" (`models/text/hand.py`, the hand as a source), \"Tap an untapped Elf/artifact you",
        "control\" costs (`models/text/tap_costs.py`), and granted abilities and other effects on mana",
        "production (`models/text/mana_effects.py`: Chromatic Lantern, Esika), which the payment engine applies.",
        "",
        "Why the rest stays unsupported: costs that use other zones or resources (discard, mill, exile from a",
        "graveyard, sacrifice X Goats or a named token, return to hand) need the payment search to spend",
        "them; conditional and leveled grants are not read; restrictions naming kicked, flashback, foretell,",
        "disturb, morph or cumulative-upkeep payments, spells cast from a graveyard or the commander are not",
        "matched against the request yet; the game history the board has fields for (lands played, life",
        "gained this turn, the imprinted card, a chosen name) is read from the board, and an answer that",
        "needs a missing one is unsupported naming the field; a draft choice has no field.",
        "",
        "Applied by the payment engine, not by the parser: \"spend mana as though it were mana of any color\"",
        "(CR 609.4b: Chromatic Orrery, Celestial Dawn; `models/effects.py` `SpendTable`, on the cost and on the",
        "mana abilities' own costs) and \"~ has all activated abilities of …\" (layer 6, CR 613.1f:",
        "`models/rules/granted.py` `held_abilities`); what of them is still refused on some boards is listed",
        "at the end of the whole pool's section.",
        "",
        "## Unsupported clauses (card name as `~`), most frequent first",
        "",
    ]
    for clause, names in sorted(failures.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- ({len(names)}) `{clause}`: {', '.join(sorted(names))}")
    elsewhere: dict[str, list[str]] = result["read_elsewhere"]  # type: ignore[assignment]
    if elsewhere:
        lines += ["", "## Unread by the parser, read by another part of the engine", ""]
        for clause, names in sorted(elsewhere.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"- ({len(names)}) `{clause}`: {', '.join(sorted(names))}")
    return "\n".join(lines) + "\n"


PERMANENT_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})

#: Why a clause of the whole pool stays unsupported, by the first pattern it matches.
WHY: tuple[tuple[str, str], ...] = (
    ("a repeatable mana ability that costs mana (filters, storage lands): the payment backends refuse a "
     "non-exclusive option with a mana cost", r"^repeatable:"),
    ("a trigger on tapping that may hurt in a way not read (\"unless … pays\", poison)", r"^tap trigger:"),
    ("a prohibition on activating mana abilities (CR 602.5), refused where it reaches one", r"^prohibition:"),
    ("read, but what it adds depends on what the board does not hold (cards drawn or creatures entered this "
     "turn, watermarks, a last noted type, Chaos Moon's upkeep count, Glorious Sunrise's land): left out or "
     "refused where it matters, naming it", r"^not on the board:"),
    ("a choice or state the board does not hold, in a clause not read (a draft, renown, the library, "
     "Legacy nodes, the monarch)",
     r"this turn|played a land|exiled|drafted|last noted|renowned|top card of your library|Legacy —|watermark|monarch"),
    ("a cost that spends another zone or resource (discard, mill, exile, sacrifice a named token, return to "
     "hand, untap an opponent's land)", r"[Dd]iscard|[Mm]ill a card|Exile|Sacrifice (?:X|a \w+ (?:token|or)|"
                                        r"a Prism|an artifact|a black)|Return ~|Untap a tapped|Tap an untapped"),
    ("chance or another player's choice (a coin flip, \"unless any player pays\", revealed cards)",
     r"[Ff]lip a coin|unless any player pays|reveals the top|Each player adds|Parley"),
    ("a restriction on symbols, not on spells (\"can't be spent to pay generic mana costs\")", r"can't be spent"),
    ("a replacement or trigger on mana the effects reader does not know", r"[Ii]f tapped for mana|is tapped for "
                                                                         r"mana|taps? a (?:land|snow)|instead"),
    ("an Un-set (silver-bordered) mechanic that builds", r"\{∞\}|\{H[WUBRG]\}|one-half|Tear ~|toys"),
)


#: What of an applied rule is still refused, on the boards where it matters, by the kind of its clause.
APPLIED: dict[str, str] = {
    "spend as": ("CR 609.4b, applied to the cost and to mana abilities' own costs (a filter land under "
                 "Chromatic Orrery). Refused: such a rule on a mana ability's own cost in the `options` "
                 "query; Celestial Dawn beside a rule widening other mana; convoke beside a rule that "
                 "changes what mana pays; Mycosynth Lattice's \"All permanents are artifacts\" where the "
                 "board speaks of artifacts or improvise is used; Dawn's and Lattice's spell colors where "
                 "a restriction or modifier reads them."),
    "abilities of": ("CR 613.1f, the holder's own mana abilities (costs, conditions and amounts read on "
                     "the holder). Refused, naming holder, object and clause: an ability that mirrors what "
                     "other permanents could produce (Reflecting Pool), one linked to another ability of "
                     "its card (CR 607.2), a cost that spends other permanents or cards (Heritage Druid), "
                     "mana text no reader reads, an object that itself has all activated abilities of "
                     "others (613.8b), a colored Phyrexian symbol in a Refractor ability's cost; the cards "
                     "exiled with it not given (`imprinted`) is `unsupported` naming the field. The top card "
                     "of a library (Conspicuous Snoop, Skill Borrower): read from the board's `library`; "
                     "its top card hidden, it gives none and the answers name the holder under `uncertain`; "
                     "no library is `unsupported` naming the field."),
}


def whole_pool(data: Path) -> dict[str, object]:
    """Every permanent of the pool as the card database builds it (see the module docstring)."""
    from manasolver.models.carddb import default_db
    from manasolver.models.effects import AbilitiesOf, NotOnBoardEffect, Prohibition, SpendAs
    from manasolver.models.errors import ManasolverError
    from manasolver.models.text.prohibitions import prohibitions_of
    from manasolver.models.text.read import card_text
    from manasolver.models.text.tap_triggers import tap_triggers_of
    from manasolver.solver.supply.unmodelled import repeatable_gap
    db = default_db()
    total = read = no_mana = 0
    clauses: dict[str, list[str]] = defaultdict(list)
    rules: dict[str, list[str]] = defaultdict(list)
    with gzip.open(data, "rt", encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            if record.get("funny"):
                continue
            try:
                card = db.get(str(record["name"]))
            except ManasolverError:
                continue
            if not PERMANENT_TYPES & set(card.type_line.types):
                continue
            total += 1
            face = card.battlefield_face
            text = card_text(card)
            found = [c.replace(card.name, "~") for c in text.unread]
            found += ["tap trigger: " + t.replace(card.name, "~") for t, r in tap_triggers_of(face) if r is None]
            for e in text.mana_effects:
                if isinstance(e, (SpendAs, AbilitiesOf)):
                    kind = "spend as: " if isinstance(e, SpendAs) else "abilities of: "
                    rules[kind + e.text.replace(card.name, "~")].append(card.name)
            applied = {e.text for e in text.mana_effects if isinstance(e, Prohibition)}
            found += ["prohibition: " + c for c, _ in prohibitions_of(card) if c not in applied]
            found += [f"repeatable: {a.text}" for a in card.mana_abilities
                      if not (a.cost.tap or a.cost.untap or a.cost.sacrifice_self) and a.cost.mana
                      and repeatable_gap(a.cost, 0, True)]
            found += [f"not on the board: {a.text.replace(card.name, '~')}" for a in card.mana_abilities
                      if (a.production.amount is not None and a.production.amount.kind == "history")
                      or a.production.colors_among == "noted"]
            found += ["not on the board: " + e.text.replace(card.name, "~") for e in text.mana_effects
                      if isinstance(e, NotOnBoardEffect)]
            if not found:
                read += 1
                no_mana += not (card.mana_abilities or text.mana_effects)
            for clause in dict.fromkeys(found):
                clauses[clause].append(card.name)
    return {"total": total, "read": read, "no_mana": no_mana, "clauses": clauses, "applied": rules}


def why(clause: str) -> str:
    """The first reason of :data:`WHY` whose pattern the clause matches, or "a rare wording"."""
    for label, pattern in WHY:
        if re.search(pattern, clause):
            return label
    return "a rare wording the readers do not know"


def pool_report(result: dict[str, object]) -> str:
    """The Markdown section on the whole pool of permanents."""
    total, read = int(result["total"]), int(result["read"])  # type: ignore[call-overload]
    clauses: dict[str, list[str]] = result["clauses"]  # type: ignore[assignment]
    by_card: dict[str, str] = {}
    for clause, names in clauses.items():
        for n in names:
            by_card.setdefault(n, why(clause))
    counts: dict[str, int] = defaultdict(int)
    for label in by_card.values():
        counts[label] += 1
    lines = ["", "## The whole pool of permanents", "",
             "Every non-funny card of the data whose front face is a permanent (mana ability or not), as the",
             "bundled card database builds it (see the script's docstring for what *read* means).",
             "", f"- permanents: **{total}**",
             f"- every clause about mana read (or none there): **{read}** ({100.0 * read / max(1, total):.2f}%), "
             f"of which {result['no_mana']} have no mana ability or effect on mana at all",
             f"- with a clause left unsupported: {len(by_card)}",
             "", "Where such a clause can't matter to a question (an Aura attached to nothing, a restriction",
             "beside an unnamed cost, a prohibition with no mana ability in reach) the question is still",
             "answered exactly; where it matters it is refused or the permanent is left out, naming the card",
             "and clause (the survey, `benchmarks/survey.py`, measures that on one board:",
             "`benchmarks/results/survey.md`).", "",
             "| why it stays unsupported | permanents |", "| --- | ---: |"]
    for label, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {label} | {count} |")
    lines += ["", "### The clauses (card name as `~`), most frequent first", ""]
    for clause, names in sorted(clauses.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- ({len(names)}) `{clause[:240]}`: {', '.join(sorted(names)[:20])}"
                     + (" …" if len(names) > 20 else ""))
    applied: dict[str, list[str]] = result["applied"]  # type: ignore[assignment]
    if applied:
        lines += ["", "### Applied, counted as read, still refused on some boards", ""]
        for kind, note in APPLIED.items():
            rows = sorted((c, n) for c, n in applied.items() if c.startswith(kind + ": "))
            if not rows:
                continue
            lines += [f"{note}", ""]
            lines += [f"- ({len(names)}) `{clause[:240]}`: {', '.join(sorted(names))}" for clause, names in rows]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="oracle parser coverage on the real card data")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"the report's file, or a folder to write {DEFAULT_OUT.name} in")
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"card data not found: {args.data}", file=sys.stderr)
        return 1
    if args.out.is_dir():
        args.out = args.out / DEFAULT_OUT.name
    result = run(args.data)
    pool = whole_pool(args.data)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report(result) + pool_report(pool), encoding="utf-8")
    total, full = int(result["total"]), int(result["full"])  # type: ignore[call-overload]
    print(f"parser coverage: {full}/{total} = {100.0 * full / max(1, total):.1f}%; answered by the engine: "
          f"{result['engine']}/{total} ({result['seconds']:.1f} s); whole pool: {pool['read']}/{pool['total']} "
          f"permanents read; report in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
