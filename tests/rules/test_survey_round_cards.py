"""Mana text the survey left refused or left out, read exactly: each card's ability adds what it
says and is paid as it says, every payment checked by ``validate`` (tap-cost filters, grants,
activation conditions, amounts, the worst-case reading of chance and other players' choices)."""

from __future__ import annotations

from typing import Any

from cards import json_board as _board
from cards import pay_validated as _pay



def _mana(out: dict[str, Any], pid: str = "p0") -> str:
    """The mana the activations of permanent ``pid`` added in a payable answer."""
    return "".join(a["mana"] for a in out["payment"]["activations"] if a["permanent"] == pid)


_BEAR_TOKEN = {"card": "Grizzly Bears", "token": True}


def test_baylen_the_haymaker_taps_two_tokens_111_1() -> None:
    """Baylen, the Haymaker: "Tap two untapped tokens you control: Add one mana of any color"."""
    out = _pay(_board("Baylen, the Haymaker", _BEAR_TOKEN, _BEAR_TOKEN), "{U}")
    assert _mana(out) == "{U}"
    assert _pay(_board("Baylen, the Haymaker", _BEAR_TOKEN, "Grizzly Bears"), "{U}")["payable"] is False


def test_meria_taps_a_nontoken_artifact() -> None:
    """Meria, Scholar of Antiquity: "Tap an untapped nontoken artifact you control: Add {G}"."""
    assert _mana(_pay(_board("Meria, Scholar of Antiquity", "Ornithopter"), "{G}")) == "{G}"
    token = {"card": "Ornithopter", "token": True}
    assert _pay(_board("Meria, Scholar of Antiquity", token), "{G}")["payable"] is False


def test_relic_of_legends_taps_a_legendary_creature_205_4d() -> None:
    """Relic of Legends: "Tap an untapped legendary creature you control: Add one mana of any
    color" beside its own "{T}: Add one mana of any color"."""
    assert _mana(_pay(_board("Relic of Legends", "Isamaru, Hound of Konda"), "{W}{W}")) == "{W}{W}"
    assert _pay(_board("Relic of Legends", "Grizzly Bears"), "{W}{W}")["payable"] is False


def test_gene_pollinator_taps_another_permanent_110_1() -> None:
    """Gene Pollinator: "{T}, Tap an untapped permanent you control: Add one mana of any color":
    a land may be tapped for the cost, the Pollinator itself can't be tapped twice."""
    assert _mana(_pay(_board("Gene Pollinator", "Plains"), "{G}")) == "{G}"
    assert _pay(_board("Gene Pollinator"), "{G}")["payable"] is False


def test_insidious_roots_and_springleaf_parade_grant_to_creature_tokens_613_1f() -> None:
    """Insidious Roots, Springleaf Parade: "Creature tokens you control have "{T}: Add one mana of
    any color."" (layer 6, CR 613.1f): a creature token taps for it, a nontoken creature does not,
    nor a summoning-sick token (CR 302.6)."""
    for name in ("Insidious Roots", "Springleaf Parade"):
        assert _mana(_pay(_board(name, _BEAR_TOKEN), "{U}"), "p1") == "{U}"
        assert _pay(_board(name, "Grizzly Bears"), "{U}")["payable"] is False
        assert _pay(_board(name, {**_BEAR_TOKEN, "sick": True}), "{U}")["payable"] is False


def test_lavinia_only_during_an_opponents_turn_602_5b() -> None:
    """Lavinia, Foil to Conspiracy: "{T}: Add {C}{C}. Activate only during an opponent's turn"."""
    board = _board("Lavinia, Foil to Conspiracy")
    assert _pay(board, "{2}")["payable"] is False
    theirs = {**board, "turn": {"active": "opp"}}
    assert _mana(_pay(theirs, "{2}")) == "{C}{C}"


def test_sceptre_of_eternal_glory_three_lands_with_the_same_name_201_2() -> None:
    """Sceptre of Eternal Glory: "{T}: Add three mana of any one color. Activate only if you
    control three or more lands with the same name"; its "{T}: Add one mana of any color" always."""
    three = _board("Sceptre of Eternal Glory", {"card": "Plains", "tapped": True},
                   {"card": "Plains", "tapped": True}, {"card": "Plains", "tapped": True})
    assert _mana(_pay(three, "{R}{R}{R}")) == "{R}{R}{R}"
    mixed = _board("Sceptre of Eternal Glory", {"card": "Plains", "tapped": True},
                   {"card": "Plains", "tapped": True}, {"card": "Island", "tapped": True})
    assert _pay(mixed, "{R}{R}{R}")["payable"] is False
    assert _mana(_pay(mixed, "{R}")) == "{R}"


def test_flywheel_racer_only_while_a_creature_301_7b() -> None:
    """Flywheel Racer: "{T}: Add one mana of any color. Activate only if this permanent is a
    creature": a Vehicle is a creature only while crewed (CR 301.7b), as its type line on the
    board says."""
    assert _pay(_board("Flywheel Racer"), "{G}")["payable"] is False
    crewed = {"card": "Flywheel Racer", "type_line": "Artifact Creature — Vehicle"}
    assert _mana(_pay(_board(crewed), "{G}")) == "{G}"


def _schema_valid(out: dict[str, Any]) -> bool:
    from jsonschema import Draft202012Validator

    from manasolver.solver.service.schema.jsonschema import json_schema

    schema = json_schema()
    return Draft202012Validator({"$ref": "#/$defs/answer.pay", "$defs": schema["$defs"]}).is_valid(out)


def test_rhystic_cave_counted_as_nothing_and_named_uncertain_118_12() -> None:
    """Rhystic Cave: "{T}: Choose a color. Add one mana of that color unless any player pays {1}":
    any player may pay so that it adds nothing (CR 118.12), so it is counted as adding nothing and
    the answer names it under ``uncertain``, payable or not; could-produce still sees its colors
    (CR 106.7)."""
    from manasolver.solver.service.protocol import answer

    alone = _pay(_board("Rhystic Cave"), "{G}")
    assert alone["payable"] is False
    assert [u["permanent"] for u in alone["uncertain"]] == ["p0"] and "{1}" in alone["uncertain"][0]["reason"]
    assert _schema_valid(alone)
    beside = _pay(_board("Rhystic Cave", "Forest"), "{G}")
    assert _mana(beside, "p1") == "{G}" and not _mana(beside)
    assert [u["permanent"] for u in beside["uncertain"]] == ["p0"] and _schema_valid(beside)
    tapped = _pay(_board({"card": "Rhystic Cave", "tapped": True}, "Forest"), "{G}")
    assert "uncertain" not in tapped and _schema_valid(tapped)
    could = answer({"query": "could_produce", "state": _board("Rhystic Cave", "Reflecting Pool")})
    assert could["could_produce"] == {"p0": list("WUBRG"), "p1": list("WUBRG")}


def test_gem_bazaar_adds_the_color_last_chosen_else_uncertain() -> None:
    """Gem Bazaar: "{T}: Add to your mana pool one mana of the color last chosen. Then choose a
    random color": the board's chosen color is the one last chosen, the next random choice comes
    after the mana is added; with none given, the color was chance: counted as nothing, named
    under ``uncertain``."""
    chosen = _pay(_board({"card": "Gem Bazaar", "chosen": {"color": "G"}}), "{G}")
    assert _mana(chosen) == "{G}" and "uncertain" not in chosen
    assert _pay(_board({"card": "Gem Bazaar", "chosen": {"color": "G"}}), "{U}")["payable"] is False
    unknown = _pay(_board("Gem Bazaar", "Forest"), "{1}")
    assert _mana(unknown, "p1") == "{G}" and [u["permanent"] for u in unknown["uncertain"]] == ["p0"]
    assert _schema_valid(unknown)
