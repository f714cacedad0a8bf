"""Every card of the real card data (data/cards.jsonl.gz): builds, and its costs parse.

Failures are failures, never skips: a missing data file fails too (the tests
read the repository's own copy of the data).
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import pytest
from manasolver.models.card import Card
from manasolver.models.card_build import card_from_record
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadCost
from manasolver.models.text.oracle import activated_parts, self_reference, strip_reminder
from paths import CARD_DATA

DATA = CARD_DATA / "cards.jsonl.gz"


@lru_cache(maxsize=1)
def records() -> tuple[dict[str, Any], ...]:
    assert DATA.exists(), f"the card data is missing: {DATA}"
    with gzip.open(DATA, "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def faces(rec: dict[str, Any]) -> list[dict[str, Any]]:
    return [rec, *rec.get("faces", [])]


def test_the_data_is_there() -> None:
    assert len(records()) > 23000


def test_every_card_builds() -> None:
    """Every non-funny card builds into a Card; a funny card either builds or is refused with BadCost."""
    failures: list[str] = []
    for rec in records():
        try:
            card_from_record(rec, rec["name"])
        except BadCost as exc:
            if not rec.get("funny"):
                failures.append(f"{rec['name']}: {exc}")
        except Exception as exc:  # noqa: BLE001 - any crash is the failure being tested
            failures.append(f"{rec['name']}: {type(exc).__name__}: {exc}")
    assert failures == []


def test_every_mana_cost_round_trips() -> None:
    """``ManaCost.parse(s).format()`` is canonical and a fixed point, for every cost
    of every non-funny card and face; the canonical form has the same mana value (CR 202.3)."""
    failures: list[str] = []
    for rec in records():
        if rec.get("funny"):
            continue
        for face in faces(rec):
            text = face.get("mana_cost", "")
            if not text:
                continue
            for part in text.split(" // "):
                try:
                    cost = ManaCost.parse(part)
                    canonical = cost.format()
                    again = ManaCost.parse(canonical)
                    if again.format() != canonical or again != cost:
                        failures.append(f"{face['name']}: {part} -> {canonical} -> {again.format()}")
                    if cost.mana_value() != ManaCost.parse(canonical).mana_value():
                        failures.append(f"{face['name']}: {part} changed mana value")
                except BadCost as exc:
                    failures.append(f"{face['name']}: {part}: {exc}")
    assert failures == []


def test_mana_value_matches_the_data() -> None:
    """CR 202.3: the mana value we compute equals the data's for single-faced non-funny cards."""
    failures = []
    for rec in records():
        if rec.get("funny") or rec.get("faces") or not rec.get("mana_cost"):
            continue
        got = ManaCost.parse(rec["mana_cost"]).mana_value()
        if got != rec["mana_value"]:
            failures.append(f"{rec['name']}: {got} != {rec['mana_value']}")
    assert failures == []


def test_derived_colors_match_the_data() -> None:
    """CR 202.2, 204, 702.114: colors derived from cost, color indicator, devoid and "is all colors"
    agree with the data's colors (cards built without their ``colors`` field)."""
    failures = []
    for rec in records():
        if rec.get("funny") or rec.get("faces"):
            continue
        bare = {k: v for k, v in rec.items() if k != "colors"}
        card = card_from_record(bare)
        if card.color_letters != [c for c in "WUBRG" if c in rec["colors"]]:
            failures.append(f"{rec['name']}: {card.color_letters} != {rec['colors']}")
    assert failures == []


def test_funny_half_mana_is_refused_clearly() -> None:
    """Half mana and other silver-bordered symbols are refused with a clear message."""
    little_girl = next(r for r in records() if r["name"] == "Little Girl")
    with pytest.raises(BadCost) as info:
        card_from_record(little_girl)
    assert "silver-bordered" in str(info.value)
    for text in ("{½}", "{∞}", "{HW}"):
        with pytest.raises(BadCost) as info2:
            ManaCost.parse(text)
        assert "silver-bordered" in str(info2.value)


_SYMBOL_RUN = re.compile(r"(?:\{[^}]+\})+")


def test_every_activation_cost_parses_its_mana_symbols() -> None:
    """CR 602.1: the mana symbols in the cost before ':' of every activated ability parse
    (non-funny cards; reminder text removed; loyalty costs have no symbols)."""
    failures: list[str] = []
    checked = 0
    for rec in records():
        if rec.get("funny"):
            continue
        for face in (rec.get("faces") or [rec]):
            for line in face.get("oracle_text", "").split("\n"):
                parts = activated_parts(self_reference(strip_reminder(line), face["name"]))
                if parts is None:
                    continue
                for run in _SYMBOL_RUN.findall(parts[0]):
                    checked += 1
                    try:
                        ManaCost.parse(run, allow_empty=True)
                    except BadCost as exc:
                        failures.append(f"{face['name']}: {run}: {exc}")
    assert checked > 5000
    assert failures == []


def _bundled_faces() -> Iterator[tuple[str, Card]]:
    """Every card of the bundled data (by its name) and each of its faces, the card first; a
    card the database refuses (a silver-bordered symbol, as test_every_card_builds checks) is
    left out."""
    from manasolver.models.carddb import CardDB
    from manasolver.models.errors import ManasolverError

    db = CardDB()
    for name in db.names():
        try:
            card = db.get(name)
        except ManasolverError:
            continue
        for c in (card, *card.faces):
            yield name, c


def test_stored_reading_equals_the_readers_on_the_card_data() -> None:
    """Every card and face of the bundled data: the reading stored when it was built (``Card.text``)
    equals what each reader reads from the card built without it (the readers run only on text that
    holds their words, which must lose nothing)."""
    from dataclasses import replace

    from manasolver.models.errors import ManasolverError
    from manasolver.models.text import activated, cost_modifiers, hand, keyword_costs, mana_effects
    from manasolver.models.text import prohibitions, tap_costs, triggers

    failures: list[str] = []
    for name, c in _bundled_faces():
        bare = replace(c, text=None, faces=tuple(replace(f, text=None) for f in c.faces))
        stored = c.text
        assert stored is not None, c.name
        try:
            kw: object = keyword_costs.keyword_costs(bare)
        except ManasolverError:
            kw = None
        pairs = [(stored.mana_effects, mana_effects.mana_effects_of(bare)),
                 (stored.triggers, triggers.triggers_of(bare)),
                 (stored.activated, activated.activated_abilities(bare)),
                 (stored.hand_abilities, hand.hand_abilities(bare)),
                 (stored.tap_costs, tap_costs.tap_costs(bare)),
                 ((stored.cost_effects, stored.cost_unknown),
                  cost_modifiers.read_cost_effects(bare.oracle_text, bare.name)),
                 (stored.prohibitions, prohibitions.prohibitions_of(bare)),
                 (stored.keyword_costs, kw),
                 (stored.enters_tapped, triggers.enters_tapped(bare)),
                 (stored.impending, triggers.impending_counters(bare))]
        failures.extend(f"{name} / {c.name}: reader {i}" for i, (a, b) in enumerate(pairs) if a != b)
    assert failures == []


def test_stored_words_equal_the_raw_text_tests_on_the_card_data() -> None:
    """Every card and face of the bundled data: the fields the solver reads instead of the text
    (bullet lines, "unspent mana", the line about activating abilities, what is left unread) equal
    what the solver used to compute from ``oracle_text`` and ``unsupported``."""
    from manasolver.models.text.hand import is_hand_clause
    from manasolver.models.text.mana_effects import remaining_unsupported
    from manasolver.models.text.read import ABOUT_ACTIVATION
    from manasolver.models.text.tap_costs import is_tap_cost_clause, tap_costs_after

    failures: list[str] = []
    for _, c in _bundled_faces():
        text = c.text
        assert text is not None, c.name
        oracle = c.oracle_text or ""
        lower = oracle.lower()
        if text.modes != sum(1 for line in oracle.split("\n") if line.lstrip().startswith("•")):
            failures.append(f"{c.name}: modes")
        if text.unspent_mana != ("unspent mana" in lower):
            failures.append(f"{c.name}: unspent mana")
        if text.doubles_unspent_mana != ("double the amount of each type of unspent mana" in lower):
            failures.append(f"{c.name}: doubles unspent mana")
        about = ""
        if ABOUT_ACTIVATION.search(oracle):
            about = next(x for x in oracle.split("\n") if ABOUT_ACTIVATION.search(x))
            assert about, c.name
        if text.about_activation != about:
            failures.append(f"{c.name}: about activation")
        left = remaining_unsupported(c) if c.unsupported else ()
        no_hand = tuple(u for u in left if not is_hand_clause(c, u))
        read = tuple(u for u in no_hand if not is_tap_cost_clause(u))
        if text.unread != read:  # the supply with its resources, the graph before its harmless test
            failures.append(f"{c.name}: unread")
        tapping = {t.ability.text for t in text.tap_costs}
        if no_hand != tuple(u for u in c.unsupported if u in text.unread or u.strip() in tapping):
            failures.append(f"{c.name}: unread with tapping costs")
        for first in (len(c.mana_abilities), len(c.mana_abilities) + 2):
            if bool(text.tap_costs) != bool(tap_costs_after(c, first)):
                failures.append(f"{c.name}: tapping costs at {first}")
    assert failures == []
