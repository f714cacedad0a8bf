"""Boards the engine used to refuse, or answer without a rule, whose answer is known.

Summoning sickness (CR 302.6) stops only the abilities whose cost has ``{T}`` or ``{Q}``: beside a
haste grant the reader does not follow (Maze Rusher: "Multicolored creatures you control have
haste.", a qualifier it does not check), a sick Skirge Familiar ("Discard a card: Add {B}.") or a
sick Heritage Druid ("Tap three untapped Elves you control: Add {G}{G}{G}.") is answered, while a sick
creature with a ``{T}`` mana ability (printed, or granted by Cryptolith Rite) is still refused.

Prohibitions (CR 602.5): Null Rod ("Activated abilities of artifacts can't be activated.") is
applied to Sol Ring and to Diamond Kaleidoscope ("Sacrifice a Prism token: Add one mana of any
color.", a cost read apart from the parser): none of its abilities can be activated, so it adds
no mana; Cursed Totem likewise stops Heritage Druid's "Tap three untapped Elves you control".

Each payment is given back to the protocol's ``validate`` and, on the request itself, held against
the brute force.
"""

from __future__ import annotations

from typing import Any

from backends import assert_agrees_with_brute
from brute import brute
from cards import pay_validated
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver.service.protocol import answer
from manasolver.solver.request import DEFAULT_POLICY, PaymentRequest, Policy

#: A Prism token as Diamond Kaleidoscope makes it (a card given by its characteristics).
PRISM = {"name": "Prism", "type_line": "Artifact Creature — Prism", "oracle_text": "", "token": True}


def _board(*battlefield: str | dict[str, Any], hand: tuple[str, ...] = ()) -> dict[str, Any]:
    """A board of players ``you`` (with ``hand``) and ``opp`` (ids ``p0``, ``p1``, … where none is given)."""
    entries = []
    for i, c in enumerate(battlefield):
        entry = dict(c) if isinstance(c, dict) else {"card": c}
        entry.setdefault("id", f"p{i}")
        entries.append(entry)
    return {"players": [{"name": "you", "hand": list(hand)}, {"name": "opp"}], "battlefield": entries}


def _pay(state: dict[str, Any], cost: str) -> dict[str, Any]:
    """The protocol's ``pay`` (its payment validated), held against the brute force (under the default
    policy but for ``keep_castable``, which the brute force does not compute on a board with a hand)."""
    out = pay_validated(state, cost)
    assert "error" not in out, out
    policy = Policy(criteria=tuple(c for c in DEFAULT_POLICY if c != "keep_castable"))
    req = PaymentRequest(load_state(state), ManaCost.parse(cost), "you", policy=policy)
    b = brute(req, req.policy.criteria)
    assert b.payable is out["payable"], (out, b)
    assert_agrees_with_brute(req, f"{cost} on {state['battlefield']}", b, limit=200, validated=20, check_default=True)
    return out


def _refused(state: dict[str, Any], cost: str, where: str, *words: str) -> None:
    for query in ({"query": "pay", "cost": cost}, {"query": "can_pay", "cost": cost}, {"query": "options"}):
        out = answer({**query, "state": state})
        assert out.get("error", {}).get("code") == "unsupported", (query, out)
        assert out["error"]["where"] == where, out
        for word in words:
            assert word in out["error"]["message"], (word, out)


def _used(out: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["permanent"], a["mana"]) for a in out["payment"]["activations"]]


# -- CR 302.6: summoning sickness beside a haste grant not read -------------------------------

def test_302_6_sick_skirge_familiar_beside_unread_haste_is_answered() -> None:
    """Skirge Familiar's "Discard a card: Add {B}." has no {T}: sick or not, it pays {B} by
    discarding the card in hand, and nothing else pays {B}{B}."""
    state = _board({"id": "skirge", "card": "Skirge Familiar", "sick": True}, {"id": "mr", "card": "Maze Rusher"},
                   hand=("Forest",))
    out = _pay(state, "{B}")
    assert out["payable"] is True and _used(out) == [("skirge", "{B}")]
    assert out["payment"]["activations"][0]["sacrificed"] == ["hand:0"]
    assert _pay(state, "{B}{B}")["payable"] is False


def test_302_6_sick_skirge_familiar_with_two_cards_beside_unread_haste_pays_twice() -> None:
    state = _board({"id": "skirge", "card": "Skirge Familiar", "sick": True}, {"id": "mr", "card": "Maze Rusher"},
                   {"id": "f", "card": "Forest"}, hand=("Forest", "Island"))
    out = _pay(state, "{1}{B}{B}")
    assert out["payable"] is True and sorted(_used(out)) == [("f", "{G}"), ("skirge", "{B}"), ("skirge", "{B}")]
    assert _pay(state, "{B}{B}{B}")["payable"] is False


def test_302_6_sick_heritage_druid_beside_unread_haste_is_answered() -> None:
    """Heritage Druid's "Tap three untapped Elves you control" is no {T} cost: a sick Druid taps
    itself and two Elves all the same (its rulings), Maze Rusher's grant notwithstanding."""
    state = _board({"id": "druid", "card": "Heritage Druid", "sick": True}, {"id": "mr", "card": "Maze Rusher"},
                   {"id": "e1", "card": "Elvish Mystic"}, {"id": "e2", "card": "Elvish Mystic"})
    out = _pay(state, "{G}{G}{G}")
    assert out["payable"] is True
    assert _pay(state, "{G}{G}{G}{G}")["payable"] is False


def test_302_6_sick_llanowar_elves_beside_skirge_familiar_and_unread_haste_is_still_refused() -> None:
    """A sick creature with a {T} mana ability beside the grant: whether it may tap depends on the
    grant the reader does not follow, so the board is refused naming Maze Rusher and the Elves."""
    state = _board({"id": "skirge", "card": "Skirge Familiar", "sick": True}, {"id": "mr", "card": "Maze Rusher"},
                   {"id": "elf", "card": "Llanowar Elves", "sick": True}, hand=("Forest",))
    _refused(state, "{B}", "battlefield[1]", "Maze Rusher", "Llanowar Elves", "302.6")


def test_302_6_sick_grizzly_bears_with_cryptolith_rite_beside_unread_haste_is_still_refused() -> None:
    """Cryptolith Rite gives the Bears "{T}: Add one mana of any color.": a granted {T} ability
    counts as a printed one."""
    state = _board({"id": "bear", "card": "Grizzly Bears", "sick": True}, {"id": "mr", "card": "Maze Rusher"},
                   {"id": "rite", "card": "Cryptolith Rite"})
    _refused(state, "{G}", "battlefield[1]", "Maze Rusher", "Grizzly Bears")


def test_302_6_sick_grizzly_bears_without_a_mana_ability_beside_unread_haste_is_answered() -> None:
    state = _board({"id": "bear", "card": "Grizzly Bears", "sick": True}, {"id": "mr", "card": "Maze Rusher"},
                   {"id": "f", "card": "Forest"})
    out = _pay(state, "{G}")
    assert out["payable"] is True and _used(out) == [("f", "{G}")]


# -- CR 602.5: prohibitions ---------------------------------------------------------------------

def test_602_5_null_rod_stops_sol_ring_beside_a_forest() -> None:
    state = _board({"id": "rod", "card": "Null Rod"}, {"id": "ring", "card": "Sol Ring"}, {"id": "f", "card": "Forest"})
    out = _pay(state, "{1}")
    assert out["payable"] is True and _used(out) == [("f", "{G}")]
    assert _pay(state, "{2}")["payable"] is False


def test_602_5_null_rod_stops_diamond_kaleidoscope_beside_a_prism_and_a_forest() -> None:
    """Null Rod stops the Kaleidoscope's "Sacrifice a Prism token: Add one mana of any color." (an
    artifact's activated ability; the Prism token is an artifact too and has none): the Forest
    pays {1}, nothing pays {U}; options and could-produce see the Forest alone, and validate calls
    a payment with the Kaleidoscope's {U} illegal."""
    state = _board({"id": "rod", "card": "Null Rod"}, {"id": "dk", "card": "Diamond Kaleidoscope"},
                   {"id": "f", "card": "Forest"}, {"id": "prism", **PRISM})
    out = _pay(state, "{1}")
    assert out["payable"] is True and _used(out) == [("f", "{G}")]
    assert _pay(state, "{U}")["payable"] is False
    assert answer({"query": "options", "state": state}) == {"options": ["{G}"], "complete": True}
    assert answer({"query": "could_produce", "state": state}) == {"could_produce": {"f": ["G"]}}
    payment = {"total": "{U}", "activations": [{"permanent": "dk", "ability": 0,
                                                "costs": ["sacrifice a prism token"], "mana": "{U}",
                                                "sacrificed": ["prism"]}]}
    check = answer({"query": "validate", "state": state, "cost": "{U}", "payment": payment})
    assert check["legal"] is False and "dk" in check["problems"][0]


def test_602_5_diamond_kaleidoscope_and_a_prism_without_null_rod_pay_blue() -> None:
    """The same board without Null Rod (validated; the brute force's moves don't sacrifice a token
    by subtype)."""
    state = _board({"id": "dk", "card": "Diamond Kaleidoscope"}, {"id": "f", "card": "Forest"},
                   {"id": "prism", **PRISM})
    out = pay_validated(state, "{1}{U}")
    assert out["payable"] is True and sorted(_used(out)) == [("dk", "{U}"), ("f", "{G}")]


def test_602_5_cursed_totem_stops_heritage_druid_and_the_elves() -> None:
    """Cursed Totem ("Activated abilities of creatures can't be activated.") stops the Druid's
    tapping-cost ability and the Elves' own: the Forest pays {G}, nothing pays {G}{G}."""
    state = _board({"id": "totem", "card": "Cursed Totem"}, {"id": "druid", "card": "Heritage Druid"},
                   {"id": "e1", "card": "Elvish Mystic"}, {"id": "e2", "card": "Elvish Mystic"},
                   {"id": "f", "card": "Forest"})
    out = _pay(state, "{G}")
    assert out["payable"] is True and _used(out) == [("f", "{G}")]
    assert _pay(state, "{G}{G}")["payable"] is False
