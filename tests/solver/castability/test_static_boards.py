"""Castability's boards answered by their signature (the units of their static permanents) and lands of
a color chosen as they enter searched as one card until a source's casting depends on the color: both
give the answers of the slower ways they replace, on boards and games of the real Commander decks."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manasolver.models.carddb import CardDB, default_db
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.symbols import C
from manasolver.solver.castability.board import BoardOracle, _Parts, _unflagged
from manasolver.solver.castability.deck import parse_deck
from manasolver.solver.castability.deckmodel import DeckModel
from manasolver.solver.castability.games import run_chunk
from manasolver.solver.castability.units import perm_units
from manasolver.solver.service.api import can_pay

ROOT = Path(__file__).resolve().parents[3]
COMMANDER = ROOT / "data" / "decks" / "commander"
DECKS = sorted(COMMANDER.glob("*.txt"))


@functools.lru_cache(maxsize=None)
def _deck(path: Path) -> tuple[BoardOracle, tuple[int, ...], tuple[str, ...]]:
    """A Commander deck's oracle over its own costs and a few generic ones, and the card indexes of its
    mana permanents (lands and sources)."""
    db = default_db()
    deck = parse_deck(path.read_text(), db)
    model = DeckModel.build(deck.cards, deck.commander)
    costs = sorted({c.format() for c in model.costs() if not any(s.variable for s in c.symbols)}
                   | {"{1}", "{3}", "{5}", "{C}", "{C}{C}"})
    oracle = BoardOracle(model.cards, [ManaCost.parse(c) for c in costs], db,
                         [c.name for c in deck.commander], model.chosen)
    mana = tuple(i for i in range(len(model.cards)) if model.is_land[i] or i in model.sources)
    return oracle, mana, tuple(costs)


def _engine_payable(board: dict[str, Any], cost: str) -> bool:
    """The engine's ``can_pay`` on ``board``: a refusal because the board gives no library (Selvala,
    Explorer Returned's parley reads its top card, CR 401.2) counts as not payable, as castability
    counts it; any other refusal fails the test."""
    try:
        return bool(can_pay(board, cost)["payable"])
    except Unsupported as err:
        if not err.where.endswith(".library"):
            raise
        return False


@pytest.mark.slow
@settings(max_examples=80)
@given(st.data())
def test_signature_of_a_real_commander_board_answers_as_the_engine_cr_601_2g(data: st.DataObject) -> None:
    """A board of a real Commander deck (its lands and mana sources, some tapped): when every permanent is
    static, its signature is what the units read of it, and each cost the signature decides is the
    engine's ``can_pay`` answer on that board (over the colors its lands may have chosen)."""
    oracle, mana, costs = _deck(data.draw(st.sampled_from(DECKS), label="deck"))
    cards = data.draw(st.lists(st.sampled_from(mana), min_size=1, max_size=9), label="permanents")
    tapped = data.draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)), label="tapped")
    key = tuple(sorted(2 * c + t for c, t in zip(cards, tapped)))
    sig = oracle._signature(key)
    if sig is None:
        return
    if not any(c >> 1 in oracle._mirrors for c in key):  # Incubation Druid: the units don't read it
        units = oracle._units_of(key)
        plain, colored = _unflagged(sig[0])
        if colored:  # mana that pays colored symbols only (Jegantha's): flagged units of the signature
            assert units.colored is not None and sorted(units.colored) == list(colored)
            assert units.colored_any and (plain, sig[1]) == (units.plain_masks, units.conv)
        else:  # (a tapped Jegantha adds nothing: the units read the board exactly, colored-only units none)
            assert (units.modelled or units.colored == ()) and sig == (units.plain_masks, units.conv)
    for i in data.draw(st.lists(st.integers(0, len(costs) - 1), min_size=1, max_size=3, unique=True), label="costs"):
        got = oracle._sig_castable(oracle._sig_entry(sig), 1 << i)
        if got is None:
            continue
        boards = oracle._choice_boards(key) or [oracle._board_json(key)]
        engine = any(_engine_payable(b, costs[i]) for b in boards)
        assert bool(got >> i & 1) == engine, ([(oracle.cards[c >> 1].name, c & 1) for c in key], costs[i])


@pytest.mark.slow
def test_jegantha_alone_is_a_signature_of_colored_only_units_cr_106_6() -> None:
    """Jegantha, the Wellspring alone (its {W}{U}{B}{R}{G} pays no generic cost): the board has a
    signature, its units flagged as paying colored symbols only, which are what the units read; and
    the costs it decides are the engine's answers."""
    path = next(p for p in DECKS if p.name == "dance-of-the-elements-ecc.txt")
    oracle, mana, costs = _deck(path)
    (jegantha,) = [i for i in mana if oracle.cards[i].name == "Jegantha, the Wellspring"]
    key = (2 * jegantha,)
    sig = oracle._signature(key)
    assert sig is not None
    plain, colored = _unflagged(sig[0])
    units = oracle._units_of(key)
    assert plain == () and len(colored) == 5 and units.colored is not None and sorted(units.colored) == list(colored)
    for i, cost in enumerate(costs):
        got = oracle._sig_castable(oracle._sig_entry(sig), 1 << i)
        if got is not None:
            assert bool(got >> i & 1) == can_pay(oracle._board_json(key), cost)["payable"], cost


class _Recording(BoardOracle):
    """An oracle that keeps the boards asked of it."""

    asked: dict[tuple[int, ...], None]
    engined: dict[tuple[int, ...], None]

    def castable(self, key: tuple[int, ...], need: int = -1) -> int:
        self.asked.setdefault(key, None)
        return super().castable(key, need)

    def castable_plus(self, parts: _Parts, code: int, key: tuple[int, ...], need: int) -> int:
        self.asked.setdefault(key, None)
        return super().castable_plus(parts, code, key, need)

    def _engine_pays(self, key: tuple[int, ...], cost: ManaCost, board: dict[str, Any] | None,
                     loaded: list[object]) -> bool:
        self.engined.setdefault(key, None)
        return super()._engine_pays(key, cost, board, loaded)


def _recorded(name: str, seed: int, games: int) -> tuple[DeckModel, _Recording]:
    """The model of the Commander deck ``name`` and an oracle that kept every board ``games`` games of
    seed ``seed`` asked of it (turns 1-10)."""
    db = default_db()
    deck = parse_deck((COMMANDER / f"{name}.txt").read_text(), db)
    model = DeckModel.build(deck.cards, deck.commander)
    oracle = _Recording(model.cards, model.costs(), db, [c.name for c in deck.commander], model.chosen)
    oracle.asked = {}
    oracle.engined = {}
    run_chunk(model, oracle, seed, 0, games, 10, False)
    return model, oracle


def test_signature_of_every_board_of_dance_of_the_elements_matches_its_units() -> None:
    """Every board the games of Dance of the Elements ask (100 games, turns 1-10) whose permanents are all
    static has the signature its units give, and the board pays the same spells by either way."""
    model, oracle = _recorded("dance-of-the-elements-ecc", 5, 100)
    # the engine is asked only where Jegantha, the Wellspring's mana (colored symbols only) meets a converter
    for key in oracle.engined:
        assert any(oracle.cards[c >> 1].name == "Jegantha, the Wellspring" and not c & 1 for c in key)
        assert oracle._units_of(key).conv, [(oracle.cards[c >> 1].name, c & 1) for c in key]
    other = BoardOracle(model.cards, model.costs(), oracle.db, oracle.commander, model.chosen)
    other._static_plain = [None] * len(other._static_plain)  # every board by its units
    other._static_conv = [None] * len(other._static_conv)
    static = 0
    for key in list(oracle.asked)[:3000]:
        sig = oracle._signature(key)
        if sig is None:
            continue
        static += 1
        units = oracle._units_of(key)
        plain, colored = _unflagged(sig[0])  # Jegantha's units, which pay colored symbols only, flagged
        assert (plain, sig[1]) == (units.plain_masks, units.conv)
        assert colored == tuple(sorted(m for c in key if not c & 1 for m in oracle._units[c >> 1].colored))
        assert oracle.castable(key) == other.castable(key), [(oracle.cards[c >> 1].name, c & 1) for c in key]
    assert static > 1000


def test_secluded_courtyard_chosen_type_mana_pays_nothing_cr_106_6(db: CardDB) -> None:
    """Secluded Courtyard's mana of any color is for a creature spell or creature's ability of the type
    chosen as it entered; a castability board chooses none, so that mana pays nothing (as the engine
    reads a permanent without a chosen type) and the land is one {C}, even beside a converter."""
    court = perm_units(db.get("Secluded Courtyard"), 0)
    assert court.plain == (C,) and not court.feeds
    cards = ["Secluded Courtyard", "Dimir Signet", "Forest"]
    costs = ["{G}{U}{B}", "{G}{U}{B}{C}", "{R}", "{3}"]
    oracle = BoardOracle([db.get(n) for n in cards], [ManaCost.parse(c) for c in costs], db)
    key = (0, 2, 4)
    assert oracle._signature(key) is not None
    mask = oracle.castable(key)
    assert oracle.engine_calls == 0
    for i, cost in enumerate(costs):
        assert bool(mask >> i & 1) == can_pay(oracle._board_json(key), cost)["payable"], cost
    assert mask == 0b1001


@pytest.mark.parametrize("name", ["dance-of-the-elements-ecc", "obscura-operation-ncc", "aura-of-courage-afc"])
def test_thriving_lands_split_only_when_a_source_depends_on_the_color_cr_614_12(name: str) -> None:
    """Thriving lands (a color chosen as each enters) played as one card of any of their colors, turned
    into a card of each color when a mana source's casting depends on it: the same counts, game for
    game, as playing each color as its own card from the start (60 games, turns 1-10)."""
    db = default_db()
    deck = parse_deck((COMMANDER / f"{name}.txt").read_text(), db)
    counts = []
    for split in (True, False):
        model = DeckModel.build(deck.cards, deck.commander, split=split)
        assert bool(model.splits) == split
        oracle = BoardOracle(model.cards, model.costs(), db, [c.name for c in deck.commander], model.chosen)
        counts.append(vars(run_chunk(model, oracle, 11, 2, 60, 10, False)))
    assert counts[0] == counts[1]


def test_thriving_isle_splits_when_llanowar_elves_needs_green_cr_614_12(db: CardDB) -> None:
    """Thriving Isle beside Llanowar Elves ({G}) and Lightning Bolt ({R}): the Isle chooses green to cast
    the Elves or red for a Bolt, once.  Searched as one card of either color split when the Elves'
    casting depends on it, the counts are those of playing each color as its own card; the one card
    is split in some games."""
    from manasolver.solver.castability import games
    text = "14 Thriving Isle\n6 Island\n20 Lightning Bolt\n10 Llanowar Elves\n10 Grizzly Bears\n"
    deck = parse_deck(text, db)
    counts = []
    splits = 0
    for split in (True, False):
        model = DeckModel.build(deck.cards, deck.commander, split=split)
        oracle = BoardOracle(model.cards, model.costs(), db, [], model.chosen)
        counts.append(vars(run_chunk(model, oracle, 3, 0, 400, 5, False)))
        if split:
            game = games._GAMES[id(oracle)]
            splits = sum(1 for v in game._splits.values() if v is not None and len(v) > 1)
    assert counts[0] == counts[1]
    assert splits > 0


@pytest.mark.parametrize("name", ["from-cute-to-brute-sld", "dance-of-the-elements-ecc", "call-the-spirits-c15",
                                  "counter-blitz-fic"])
def test_signature_of_boards_with_cards_reading_the_board_matches_their_units_cr_613_1f(name: str) -> None:
    """Boards with Chromatic Lantern, The World Tree (lands given "{T}: Add one mana of any color",
    CR 613.1f), Temple of the False God (five lands, CR 602.5b), Faeburrow Elder (colors among) or Selvala
    (greatest power): the signature read from the board's features is the one its units give, on every
    such board of 150 games; with Incubation Druid too, the signature pays what the engine pays."""
    model, oracle = _recorded(name, 2, 150)
    dynamic = 0
    mirrored = 0
    for key in oracle.asked:
        if not any(code >> 1 in oracle._dynamic for code in key):
            continue
        if any(code >> 1 in oracle._mirrors for code in key):
            # Incubation Druid's unit is what the lands could produce, which the units don't read: the
            # signature's answers are checked against the engine's
            if mirrored < 20 and oracle._signature(key) is not None:
                mirrored += 1
                board = oracle._board_json(key)
                want = sum(1 << i for i, cost in enumerate(oracle.spells)
                           if not any(s.variable for s in cost.symbols) and can_pay(board, cost.format())["payable"])
                fixed = sum(1 << i for i, cost in enumerate(oracle.spells) if not any(s.variable for s in cost.symbols))
                assert oracle.castable(key) & fixed == want, key
            continue
        units = oracle._units_of(key)
        sig = oracle._signature(key)
        if sig is None:
            assert not units.modelled or units.life or any(
                pu.feeds or not pu.droppable for pu in oracle._in_context(key)), key
            continue
        dynamic += 1
        plain, colored = _unflagged(sig[0])  # Jegantha's units, which pay colored symbols only, flagged
        assert (units.modelled or colored) and (plain, sig[1]) == (units.plain_masks, units.conv), key
        assert colored == tuple(sorted(m for c in key if not c & 1 for m in oracle._units[c >> 1].colored)), key
    assert dynamic > 50
    assert mirrored > 0 or name != "counter-blitz-fic"  # Incubation Druid beside Temple of the False God


def test_signature_plus_of_boards_read_by_their_features_is_their_signature_cr_613_1f() -> None:
    """Boards of Dance of the Elements with Chromatic Lantern, Faeburrow Elder or Selvala (100 games): the
    signature made from the board without one permanent and that permanent's units (what the search
    adds a land to) is the board's own whenever it is made, always when the permanent is a land (no
    feature of the board reads it), never when it is Lantern, Elder or Selvala (the features change); the
    parts made so (a state's after its land drop) are the board's own."""
    model, oracle = _recorded("dance-of-the-elements-ecc", 3, 100)
    fresh = BoardOracle(model.cards, model.costs(), oracle.db, oracle.commander, model.chosen)
    made = 0
    for key in oracle.asked:
        if not any(code >> 1 in fresh._dynamic for code in key):
            continue
        sig = fresh._signature(key)
        for i, code in enumerate(key):
            parts = fresh.static_parts(key[:i] + key[i + 1:])
            if parts is None:
                continue
            plus = fresh.signature_plus(parts, (code,))
            if model.is_land[code >> 1]:
                assert plus is not None and plus == sig, key
                after, whole = fresh.parts_plus(parts, (code,)), fresh.static_parts(key)
                assert after is not None and whole is not None, key
                assert (sorted(after[0]), sorted(after[1]), after[2:]) == \
                    (sorted(whole[0]), sorted(whole[1]), whole[2:]), key
                made += 1
            elif code >> 1 in fresh._dynamic:
                assert plus is None, key
            else:
                assert plus is None or plus == sig, key
    assert made > 1000


def test_thriving_lands_stay_one_card_when_their_common_color_casts_the_same_sources_cr_614_12(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A board with Thriving lands untapped casts the same sources whatever colors they chose when the
    board with each of them adding only its own color casts the sources the board with any of their
    colors casts: every split of 100 Dance of the Elements games is the one found by trying each choice
    of colors, and that shortcut answers some of them."""
    from manasolver.solver.castability import games
    model, oracle = _recorded("dance-of-the-elements-ecc", 4, 100)
    game = games._GAMES[id(oracle)]
    slow = games._Game(model, oracle)
    monkeypatch.setattr(slow, "_colorless_outcome", lambda *args: None)
    same = split = 0
    for (key, candidates), out in list(game._splits.items()):
        assert slow._split(key, candidates) == out, key
        if out is not None:
            same += len(out) == 1
            split += len(out) > 1
    assert same > 100 and split > 10
    shortcut = 0
    for (key, candidates), out in list(game._splits.items()):
        if out is None or len(out) > 1:
            continue
        open_ = [c for c in key if not c & 1 and c >> 1 in game.split_cls]
        parts = oracle.static_parts(tuple(c for c in key if c not in open_))
        shortcut += parts is not None and game._colorless_outcome(open_, parts, candidates) == out[0][1]
    assert shortcut > 100
