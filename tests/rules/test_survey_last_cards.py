"""The survey's last cards read exactly: mana by the sacrificed or exiled permanent's mana value,
"could produce" with the costs ignored, and the spell being cast kept out of the hand.

Each card's ability adds what it says and is paid as it says; every payment is given back to
``validate``, which must call it legal, and a payment naming another permanent than the one whose
mana value makes the amount is illegal."""

from __future__ import annotations

from typing import Any

from cards import json_board as _board
from manasolver.solver.service.protocol import answer


def _pay(state: dict[str, Any], cost: str, **kw: Any) -> dict[str, Any]:
    """The ``pay`` answer; a payable one's payment must pass ``validate``."""
    out = answer({"query": "pay", "state": state, "cost": cost, **kw})
    if out.get("payable"):
        check = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"], **kw})
        assert check == {"legal": True, "problems": []}, (out, check)
    return out


def _made(out: dict[str, Any], pid: str = "p0") -> list[tuple[str, list[str]]]:
    """(mana, sacrificed) of each activation of permanent ``pid`` in a payable answer."""
    assert out.get("payable"), out
    return [(a["mana"], a.get("sacrificed", [])) for a in out["payment"]["activations"] if a["permanent"] == pid]


def test_priest_of_yawgmoth_adds_the_sacrificed_artifacts_mana_value_202_3() -> None:
    """Priest of Yawgmoth: "{T}, Sacrifice an artifact: Add an amount of {B} equal to the
    sacrificed artifact's mana value": Wurmcoil Engine gives six, Sol Ring one; seven {B} is more
    than either gives."""
    board = _board("Priest of Yawgmoth", "Sol Ring", "Wurmcoil Engine")
    assert _made(_pay(board, "{B}" * 6)) == [("{B}" * 6, ["p2"])]
    assert _made(_pay(board, "{B}")) == [("{B}", ["p1"])]
    assert _pay(board, "{B}" * 7)["payable"] is False
    x = answer({"query": "max_x", "state": board, "cost": "{X}{B}"})
    assert x["max_x"] == 7  # six {B} for the Engine, {C}{C} from Sol Ring


def test_priest_of_yawgmoth_validate_reads_the_named_sacrifice_202_3() -> None:
    """``validate``: the mana of Priest of Yawgmoth is the named artifact's mana value, so six {B}
    for Sol Ring (mana value 1) is illegal, and an activation naming no artifact can't be checked."""
    board = _board("Priest of Yawgmoth", "Sol Ring", "Wurmcoil Engine")
    payment = _pay(board, "{B}" * 6)["payment"]
    payment["activations"][0]["sacrificed"] = ["p1"]
    wrong = answer({"query": "validate", "state": board, "cost": "{B}" * 6, "payment": payment})
    assert wrong["legal"] is False and "mana value (1)" in wrong["problems"][0]
    del payment["activations"][0]["sacrificed"]
    unnamed = answer({"query": "validate", "state": board, "cost": "{B}" * 6, "payment": payment})
    assert unnamed["legal"] is False and "name the permanent" in unnamed["problems"][0]


def test_red_priest_of_yawgmoth_may_sacrifice_itself_202_3() -> None:
    """Red Priest of Yawgmoth, an artifact creature of mana value 2, alone: "Sacrifice an
    artifact" takes itself, {R}{R}; no more."""
    board = _board("Red Priest of Yawgmoth")
    assert _made(_pay(board, "{R}{R}")) == [("{R}{R}", ["p0"])]
    assert _pay(board, "{R}{R}{R}")["payable"] is False


def test_soldevi_adnate_sacrifices_a_black_or_artifact_creature() -> None:
    """Soldevi Adnate: "Sacrifice a black or artifact creature": Vampire Nighthawk (black, mana
    value 3) gives {B}{B}{B}; Grizzly Bears (green) can't be sacrificed, the Adnate (black) can."""
    assert _made(_pay(_board("Soldevi Adnate", "Vampire Nighthawk"), "{B}{B}{B}")) == [("{B}{B}{B}", ["p1"])]
    board = _board("Soldevi Adnate", "Grizzly Bears")
    assert _made(_pay(board, "{B}{B}")) == [("{B}{B}", ["p0"])]
    assert _pay(board, "{B}{B}{B}")["payable"] is False


def test_slobad_mana_only_for_artifact_spells_106_6() -> None:
    """Slobad, Iron Goblin: the sacrificed artifact's mana value in {R}, spent only on artifact
    spells or abilities of artifacts (CR 106.6)."""
    board = _board("Slobad, Iron Goblin", "Wurmcoil Engine")
    assert _made(_pay(board, "{6}", spell={"card": "Wurmcoil Engine"})) == [("{R}" * 6, ["p1"])]
    assert _pay(board, "{6}", spell={"card": "Craw Wurm"})["payable"] is False


def test_food_chain_adds_one_plus_the_exiled_creatures_mana_value() -> None:
    """Food Chain: "Exile a creature you control: Add X mana of any one color, where X is 1 plus
    the exiled creature's mana value. Spend this mana only to cast creature spells.": Grizzly
    Bears gives three of one color, for a creature spell only."""
    board = _board("Food Chain", "Grizzly Bears")
    out = _pay(board, "{2}{G}", spell={"card": "Craw Wurm"})
    assert _made(out) == [("{G}{G}{G}", ["p1"])]
    assert out["payment"]["activations"][0]["costs"] == ["exile a creature you control"]
    assert _pay(board, "{3}", spell={"card": "Craw Wurm"})["payable"] is True
    assert _pay(board, "{4}", spell={"card": "Craw Wurm"})["payable"] is False
    assert _pay(board, "{1}", spell={"card": "Lightning Bolt"})["payable"] is False


def test_could_produce_ignores_the_costs_106_7() -> None:
    """CR 106.7 ignores costs: Calciform Pools without storage counters could produce {W}, {U} and
    {C} (its storage ability's {W}/{U} need only a counter removed, a cost), so Reflecting Pool
    beside it could too; Priest of Yawgmoth without an artifact could produce {B}."""
    board = _board("Calciform Pools", "Reflecting Pool", "Priest of Yawgmoth")
    got = answer({"query": "could_produce", "state": board})["could_produce"]
    assert got == {"p0": ["W", "U", "C"], "p1": ["W", "U", "C"], "p2": ["B"]}
    assert _made(_pay(board, "{U}"), "p1") == [("{U}", [])]
    assert _pay(board, "{W}{U}")["payable"] is False  # the Pools have no counter to remove


def _with_hand(state: dict[str, Any], *cards: str) -> dict[str, Any]:
    state["players"][0]["hand"] = list(cards)
    return state


def test_metalworker_cannot_reveal_the_spell_being_cast_601_2a() -> None:
    """Metalworker: "Reveal any number of artifact cards in your hand. Add {C}{C} for each card
    revealed this way.": the spell being cast is on the stack (CR 601.2a), so casting the hand's
    only Wurmcoil Engine it reveals nothing, and with two it reveals one; ``validate`` agrees."""
    one = _with_hand(_board("Metalworker"), "Wurmcoil Engine")
    wurm = {"card": "Wurmcoil Engine"}
    assert _made(_pay(one, "{2}")) == [("{C}{C}", [])]  # no spell named: the card may be revealed
    assert _pay(one, "{2}", spell=wurm)["payable"] is False
    plain = _pay(one, "{2}")["payment"]
    check = answer({"query": "validate", "state": one, "cost": "{2}", "payment": plain, "spell": wurm})
    assert check["legal"] is False
    two = _with_hand(_board("Metalworker"), "Wurmcoil Engine", "Wurmcoil Engine")
    assert _made(_pay(two, "{2}", spell=wurm)) == [("{C}{C}", [])]
    assert _pay(two, "{4}", spell=wurm)["payable"] is False


def test_rosheen_reveals_cards_with_x_but_not_the_spell_being_cast_107_3() -> None:
    """Rosheen, Roaring Prophet: "Reveal any number of cards with {X} in their mana cost in your
    hand. Add {C}{C} for each card revealed this way. Spend this mana only on costs that contain
    {X}.": with two Fireballs and an Island in hand, casting one Fireball reveals the other."""
    board = _with_hand(_board("Rosheen, Roaring Prophet", "Mountain"), "Fireball", "Fireball", "Island")
    fireball = {"card": "Fireball"}
    out = _pay(board, "{X}{R}", x=2, spell=fireball)
    assert _made(out) == [("{C}{C}", [])] and _made(out, "p1") == [("{R}", [])]
    assert _pay(board, "{X}{R}", x=4, spell=fireball)["payable"] is False
    assert _pay(board, "{2}{R}", spell={"card": "Hill Giant"})["payable"] is False  # no {X}: 106.6


_GOAT = {"card": "Mountain Goat", "token": True}
_BEAR_TOKEN = {"card": "Grizzly Bears", "token": True}


def test_springjack_pasture_sacrifices_x_goats_for_x_mana_107_3() -> None:
    """Springjack Pasture: "{T}, Sacrifice X Goats: Add X mana of any one color. You gain X life.":
    two Goats give two mana of one color, never of two colors nor three; a Grizzly Bears is no
    Goat; ``validate`` reads X from the Goats it names."""
    board = _board("Springjack Pasture", _GOAT, _GOAT, "Grizzly Bears")
    out = _pay(board, "{R}{R}")
    assert _made(out) == [("{R}{R}", ["p1", "p2"])]
    assert _pay(board, "{R}{R}{R}")["payable"] is False
    assert _pay(board, "{R}{G}")["payable"] is False
    payment = out["payment"]
    payment["activations"][0]["sacrificed"] = ["p1"]
    check = answer({"query": "validate", "state": board, "cost": "{R}{R}", "payment": payment})
    assert check["legal"] is False and "X is the number of permanents sacrificed (1)" in check["problems"][0]
    payment["activations"][0]["sacrificed"] = ["p1", "p3"]
    assert answer({"query": "validate", "state": board, "cost": "{R}{R}", "payment": payment})["legal"] is False


def test_hazel_of_the_rootbloom_taps_x_tokens_for_x_mana_107_3() -> None:
    """Hazel of the Rootbloom: "{T}, Pay 2 life, Tap X untapped tokens you control: Add X mana in any
    combination of colors": two creature tokens and a Treasure (a token too) give at most three
    mana with the Treasure's own; a nontoken Grizzly Bears can't be tapped for it; 2 life paid."""
    board = _board("Hazel of the Rootbloom", _BEAR_TOKEN, _BEAR_TOKEN, "Grizzly Bears", "Treasure")
    out = _pay(board, "{R}{U}")
    assert out["payment"]["life"] == 2
    hazel = [a for a in out["payment"]["activations"] if a["permanent"] == "p0"][0]
    assert hazel["costs"] == ["{T}", "pay 2 life", "tap x untapped tokens you control"]
    assert len(hazel["tapped"]) == 2 and "p3" not in hazel["tapped"]
    assert _pay(board, "{R}{U}{B}")["payable"] is True
    assert _pay(board, "{R}{U}{B}{G}")["payable"] is False
    hazel["tapped"] = hazel["tapped"][:1]
    check = answer({"query": "validate", "state": board, "cost": "{R}{U}", "payment": out["payment"]})
    assert check["legal"] is False


def test_master_of_dark_rites_sacrifices_another_creature() -> None:
    """Master of Dark Rites: "{T}, Sacrifice another creature: Add {B}{B}{B}. Spend this mana only to
    cast Vampire, Cleric, and/or Demon spells.": alone it can't sacrifice itself; beside Grizzly
    Bears it pays a Vampire spell, not a Wurm; ``validate`` refuses a payment sacrificing itself."""
    vampire = {"card": "Vampire Nighthawk"}
    assert _pay(_board("Master of Dark Rites"), "{B}{B}{B}", spell=vampire)["payable"] is False
    board = _board("Master of Dark Rites", "Grizzly Bears")
    out = _pay(board, "{B}{B}{B}", spell=vampire)
    assert _made(out) == [("{B}{B}{B}", ["p1"])]
    assert _pay(board, "{B}{B}{B}", spell={"card": "Craw Wurm"})["payable"] is False
    out["payment"]["activations"][0]["sacrificed"] = ["p0"]
    check = answer({"query": "validate", "state": board, "cost": "{B}{B}{B}", "payment": out["payment"],
                    "spell": vampire})
    assert check["legal"] is False and "cannot sacrifice itself" in " ".join(check["problems"])


def test_illuminor_szeras_another_creature_by_mana_value_207_2c() -> None:
    """Illuminor Szeras: "Secrets of the Soul — {T}, Sacrifice another creature: Add an amount of {B}
    equal to the sacrificed creature's mana value." (the flavor word has no rules meaning, CR
    207.2c): Wurmcoil Engine gives six, Illuminor itself nothing; two Szeras, each may sacrifice
    the other: the second is left out, named."""
    assert _pay(_board("Illuminor Szeras"), "{B}")["payable"] is False
    assert _made(_pay(_board("Illuminor Szeras", "Wurmcoil Engine"), "{B}" * 6)) == [("{B}" * 6, ["p1"])]
    two = _pay(_board("Illuminor Szeras", "Illuminor Szeras"), "{B}{B}{B}")
    assert _made(two) == [("{B}{B}{B}", ["p1"])]
    assert [u["permanent"] for u in two["unsupported"]] == ["p1"]


def test_reflective_gate_a_color_of_any_players_permanent_105_2() -> None:
    """Reflective Gate: "{T}: Add one mana of any color that shares a color with a permanent a player
    controls": an opponent's Grizzly Bears gives {G}, no permanent is red; {C} from its first
    ability; could-produce says the same."""
    board = _board("Reflective Gate", {"card": "Grizzly Bears", "controller": "opp"})
    assert _made(_pay(board, "{G}")) == [("{G}", [])]
    assert _pay(board, "{R}")["payable"] is False
    assert answer({"query": "could_produce", "state": board})["could_produce"]["p0"] == ["G", "C"]


def test_chea_counts_familiars_by_subtype_or_name() -> None:
    """Chea, Friend to Maybe Too Many: "{T}: Add X {G} and each opponent loses X life, where X is the
    number of familiars you control" (Cats, Birds … and any creature with "Familiar" in its name):
    Drake Familiar (a Drake, by name) and Savannah Lions (a Cat) make two, Grizzly Bears none, an
    opponent's Birds of Paradise none."""
    board = _board("Chea, Friend to Maybe Too Many", "Drake Familiar", "Savannah Lions", "Grizzly Bears",
                   {"card": "Birds of Paradise", "controller": "opp"})
    assert _made(_pay(board, "{G}{G}")) == [("{G}{G}", [])]
    assert _pay(board, "{G}{G}{G}")["payable"] is False


def test_command_power_plant_grant_names_its_card_201_2() -> None:
    """Command Power Plant: Command Towers you control have "{T}: If you control a Command Mine and a
    Command Power Plant, add three mana of any color in your commander's color identity." (a name,
    CR 201.2, not a self reference of the Tower): with all three and Atraxa as commander, the Tower
    adds three; without the Mine its granted ability adds nothing."""
    def board(*names: str) -> dict[str, Any]:
        out = _board(*names)
        out["players"][0]["commander"] = ["Atraxa, Praetors' Voice"]
        return out

    full = board("Command Tower", "Command Mine", "Command Power Plant")
    out = _pay(full, "{W}{U}{B}")
    assert [(a["permanent"], a["ability"], a["mana"]) for a in out["payment"]["activations"]] == [
        ("p0", 1, "{W}{U}{B}")]
    assert _pay(full, "{W}{U}{B}{G}{G}{G}{B}")["payable"] is True
    assert _pay(board("Command Tower", "Command Power Plant"), "{W}{U}{B}")["payable"] is False
