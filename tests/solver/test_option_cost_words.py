"""What an option's cost says, as fields of :class:`Option` set where the option is made:
``discards_hand`` (Lion's Eye Diamond) and ``removes_counters`` (Gemstone Mine, storage lands),
never read again from the words of its ``costs`` by the readers.

The supply is checked to set the fields from real cards, including those whose cost leaves the
battlefield or the hand without a sacrifice (Mirrored Lotus, Grinning Ignus, Skirge Familiar,
Simian Spirit Guide).  Each reader is given the options twice with the same cost text: once as
made and once with the field cleared; a reader that ignored the field (or read the text again)
would answer both alike.  The end-to-end tests name the answer each reader decides."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from cards import json_board
from manasolver.models.board.load import load_state
from manasolver.solver.backends.fastopt import shape_known
from manasolver.solver.guide import _by_supply
from manasolver.solver.pools.untapped import _readable, _sacrifice
from manasolver.solver.service.protocol import answer
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Option, Options, SourceClass, Supply
from manasolver.solver.supply.resources import _option_costs, _without_hand_discarders, hand_classes

_WORDS = ("discards_hand", "removes_counters")
_LED = "Lion's Eye Diamond"
_MINE = {"card": "Gemstone Mine", "counters": {"mining": 2}}


def _supply(*cards: str | dict[str, Any], hand: tuple[str, ...] = ()) -> Supply:
    """The payment queries' supply of ``you`` on a board of ``cards``, ``hand`` in the hand."""
    board = json_board("Forest", *cards)
    board["players"][0]["hand"] = list(hand)
    state = load_state(board)
    return build_supply(state, state.players[0].name, resources=True)


def _options(card: str | dict[str, Any]) -> Options:
    """The options of the permanent ``card`` (after a Forest), as the supply makes them."""
    name = card if isinstance(card, str) else card["card"]
    return next(cls.options for cls in _supply(card).classes if cls.name == name)


def _words(opt: Option) -> tuple[bool, bool]:
    return opt.discards_hand, opt.removes_counters


def _cleared(opt: Option, word: str) -> Option:
    """``opt`` with the field ``word`` cleared and its cost text kept."""
    return dataclasses.replace(opt, **{word: False})


#: Per card: its options' cost text, and (discards_hand, removes_counters).
_MADE: dict[str, tuple[str | dict[str, Any], tuple[str, ...], tuple[bool, bool]]] = {
    "Lion's Eye Diamond": (_LED, ("sacrifice", "discard your hand"), (True, False)),
    "Gemstone Mine": (_MINE, ("{T}", "remove 1 mining counter"), (False, True)),
    "Calciform Pools": ({"card": "Calciform Pools", "counters": {"storage": 1}},
                        ("{1}", "remove any number of storage counters"), (False, True)),
    "Lotus Petal": ("Lotus Petal", ("{T}", "sacrifice"), (False, False)),
    "Ashnod's Altar": ("Ashnod's Altar", ("sacrifice a creature",), (False, False)),
    # it leaves the battlefield (``sacrifice``): neither word
    "Mirrored Lotus": ("Mirrored Lotus", ("{T}", "exile ~"), (False, False)),
    # returned to the hand: neither word
    "Grinning Ignus": ("Grinning Ignus", ("{R}", "return ~ to its owner's hand"), (False, False)),
    # a card of the hand discarded (a ``sacrifice_other`` kind): not the whole hand
    "Skirge Familiar": ("Skirge Familiar", ("discard a card",), (False, False)),
}


@pytest.mark.parametrize("name", sorted(_MADE))
def test_supply_sets_the_cost_words_as_it_makes_options(name: str) -> None:
    card, costs, words = _MADE[name]
    opts = [o for o in _options(card) if o.costs == costs]
    assert opts and all(_words(o) == words for o in opts)


def test_options_made_outside_the_supply_say_their_cost_words() -> None:
    """Simian Spirit Guide's option from the hand exiles the card (``sacrifice``, for the
    ``no_sacrifice`` count of cards lost) and neither discards the hand nor removes counters;
    Squandered Resources' "sacrifice a land" option sets neither ``sacrifice`` nor
    ``sacrifice_other``, nor either word."""
    state = load_state({"players": [{"name": "you", "hand": ["Simian Spirit Guide"]}, {"name": "opp"}],
                        "battlefield": []})
    (guide,) = hand_classes(state.players[0], 0)
    assert all(o.sacrifice and _words(o) == (False, False) for o in guide.options)
    land = _sacrifice(1)
    assert not land.sacrifice and not land.sacrifice_other and _words(land) == (False, False)


def test_fastopt_knows_the_cost_words() -> None:
    """The fields say what ``costs`` says, which the fast optimiser reads already: a supply holding
    Lion's Eye Diamond, Gemstone Mine and Lotus Petal stays in its shape (not sent to CP-SAT)."""
    sup = _supply(_LED, _MINE, "Lotus Petal")
    assert {w for w in _WORDS for cls in sup.classes for o in cls.options if getattr(o, w)} == set(_WORDS)
    assert shape_known(sup)


def _without_words(sup: Supply, word: str) -> Supply:
    """``sup`` with the field ``word`` cleared on every option."""
    return dataclasses.replace(sup, classes=tuple(
        SourceClass(c.members, c.positions, tuple(_cleared(o, word) for o in c.options), c.snow, c.kind, c.name,
                    c.creature, c.hand) for c in sup.classes))


def _names(sup: Supply) -> list[str]:
    return [cls.name for cls in sup.classes]


#: Per reader: the field it reads, a call on options, the card whose options it is given, what it
#: answers on them as made.
_READERS: dict[str, tuple[str, Callable[[tuple[Option, ...]], Any], str | dict[str, Any], Any]] = {
    # the options query leaves out a cost that discards the hand
    "options _readable": ("discards_hand", _readable, _LED, False),
    # the guide reads the supply again after an activation that removes counters
    "guide _by_supply": ("removes_counters", lambda opts: _by_supply(opts[0]), _MINE, False),
    # a class of options that discard the hand, told once per options object
    "resources _option_costs": ("discards_hand", lambda opts: _option_costs(Options(opts))[2], _LED, True),
}


@pytest.mark.parametrize("reader", sorted(_READERS))
def test_readers_tell_the_cost_words_by_the_field(reader: str) -> None:
    word, call, card, expected = _READERS[reader]
    opts = tuple(_options(card))
    assert call(opts) == expected
    assert call(tuple(_cleared(o, word) for o in opts)) != expected


def test_hand_discarders_leave_by_the_field() -> None:
    """``_without_hand_discarders`` takes Lion's Eye Diamond's options out, by the field."""
    sup = _supply(_LED)
    assert "Lion's Eye Diamond" in _names(sup)
    assert "Lion's Eye Diamond" not in _names(_without_hand_discarders(sup))
    assert "Lion's Eye Diamond" in _names(_without_hand_discarders(_without_words(sup, "discards_hand")))


def test_options_query_leaves_out_lions_eye_diamond() -> None:
    """Forest and Lion's Eye Diamond: the options query does not model discarding the hand, so
    the Diamond stays reported as unsupported (its three mana are not listed)."""
    out = answer({"query": "options", "state": json_board("Forest", "Lion's Eye Diamond")})
    assert out["options"] == ["{G}"] and not out["complete"]
    assert [u["permanent"] for u in out["unsupported"]] == ["p1"]


def test_lions_eye_diamond_cannot_pay_for_a_card_cast_from_the_hand() -> None:
    """CR 602.5d: Lion's Eye Diamond can't pay for Lightning Bolt cast from the hand (discarding
    the hand would discard it); with the Bolt elsewhere it pays {R}."""
    board = json_board("Lion's Eye Diamond")
    bolt = {"query": "can_pay", "cost": "{R}", "spell": {"card": "Lightning Bolt"}}
    board["players"][0]["hand"] = ["Lightning Bolt"]
    assert answer({**bolt, "state": board})["payable"] is False
    board["players"][0]["hand"] = ["Island"]
    assert answer({**bolt, "state": board})["payable"] is True


@pytest.mark.parametrize(("card", "counted"), [("Lotus Petal", 1), ("Lion's Eye Diamond", 1), ("Mirrored Lotus", 1)])
def test_no_sacrifice_counts_what_the_cost_takes(card: str, counted: int) -> None:
    """The ``no_sacrifice`` score of a payment written directly counts an activation whose cost
    takes the permanent (Lotus Petal, Lion's Eye Diamond sacrificed; Mirrored Lotus exiled), as
    the backends count it (``Option.sacrifice``), whatever the word."""
    out = answer({"query": "pay", "state": json_board("Forest", card), "cost": "{R}"})
    score = dict(out["payment"]["score"])
    assert out["payment"]["activations"][-1]["permanent"] == "p1"
    assert score["no_sacrifice"] == counted


def test_guide_reads_the_board_after_a_counter_is_removed() -> None:
    """Workhorse ("Remove a +1/+1 counter from Workhorse: Add {C}.") with one counter: once a
    partial payment removed it, {C}{C} can't be completed (CR 118.3: no counter is left), while
    {C} is; the guide reads the permanent's options again on the board after, not as they were."""
    board = json_board({"card": "Workhorse", "counters": {"+1/+1": 1}})
    partial = [{"permanent": "p0", "ability": 0}]
    assert answer({"query": "guide", "state": board, "cost": "{C}", "partial": partial})["completable"] is True
    assert answer({"query": "guide", "state": board, "cost": "{C}{C}", "partial": partial})["completable"] is False
