"""Activated abilities as the thing paid for, additional and keyword alternative costs.

Vectors T52 (Roil Cartographer) and T123 (Ancient Ziggurat's mana and
kicker / unearth), CR 302.6, 602.2, 602.5, 118.8, 601.2f, 702.33, 702.103.
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.text.activated import activated_abilities
from manasolver.models.carddb import default_db
from manasolver.models.text.keyword_costs import keyword_costs
from manasolver.solver.service.protocol import answer

ROIL = {"id": "rc", "name": "Roil Cartographer", "type_line": "Creature — Merfolk Scout",
        "mana_cost": "{2}{U}",
        "oracle_text": "Landfall — Whenever a land you control enters, you get {E}.\n"
                       "{T}, Pay six {E}: Draw three cards."}
MAIN = {"active": "you", "step": "main1", "stack_empty": True}


def state(*perms: dict[str, Any], energy: int = 0, life: int = 20, turn: dict[str, Any] | None = None,
          **player: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"players": [{"name": "you", "energy": energy, "life": life, **player},
                                       {"name": "them"}],
                           "battlefield": [dict(p) for p in perms]}
    if turn is not None:
        out["turn"] = turn
    return out


def ask(query: str, st: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return answer({"query": query, "state": st, **fields})


# --- T52: summoning sickness and {T} abilities ---------------------------------------------------

def test_T52_roil_cartographer_summoning_sick_cannot_tap() -> None:
    """T52 (CR 302.6, 602.5a): Roil Cartographer entered this turn, 6 energy, no haste:
    `{T}, Pay six {E}` is illegal whatever the energy."""
    out = ask("pay", state({**ROIL, "sick": True}, energy=6), spell={"permanent": "rc", "ability": 0})
    assert out["payable"] is False
    assert out["reason"]["code"] == "not_castable"
    assert "302.6" in out["reason"]["message"]


def test_T52_roil_cartographer_with_haste_or_not_sick_pays_six_energy() -> None:
    """T52 counterpart (CR 302.6 limits only creatures without haste; 107.14): the same
    ability is legal when the creature is not sick or has haste, and costs 6 energy."""
    for perm in ({**ROIL}, {**ROIL, "sick": True, "haste": True}):
        out = ask("pay", state(perm, energy=6), spell={"permanent": "rc", "ability": 0})
        assert out["payable"] is True, out
        assert out["payment"]["energy"] == 6
        assert out["activating"]["costs"] == ["{T}", "{E}{E}{E}{E}{E}{E}"]


def test_T52_five_energy_is_insufficient_energy() -> None:
    """CR 107.14, 118.3: six {E} can't be paid with five energy, and mana never pays energy."""
    out = ask("can_pay", state(ROIL, {"id": "i", "card": "Island"}, energy=5),
              spell={"permanent": "rc", "ability": 0})
    assert out["payable"] is False
    assert out["reason"]["code"] == "insufficient_energy"


def test_tapped_source_cannot_pay_its_own_t_cost_nor_tap_for_mana() -> None:
    """CR 602.5a, 601.2g–h: Gavony Township's {2}{G}{W}, {T} ability: the Township is tapped
    as a cost, so its own {C} can't help pay the mana part."""
    lands = [{"id": "p", "card": "Plains"}, {"id": "f", "card": "Forest"}, {"id": "w", "card": "Wastes"}]
    township = {"id": "gt", "card": "Gavony Township"}
    out = ask("can_pay", state(township, *lands), spell={"permanent": "gt", "ability": 0})
    assert out["payable"] is False and out["reason"]["code"] == "insufficient_mana"
    out = ask("pay", state(township, *lands, {"id": "w2", "card": "Wastes"}),
              spell={"permanent": "gt", "ability": 0})
    assert out["payable"] is True
    assert "gt" not in {a["permanent"] for a in out["payment"]["activations"]}
    # The same cost given as a plain cost would have let the Township tap for {C}.
    out = ask("can_pay", state(township, *lands), cost="{2}{G}{W}")
    assert out["payable"] is True


def test_tapped_permanent_and_other_controller_cannot_activate() -> None:
    """CR 602.5a ({T} needs an untapped permanent) and CR 602.2 (only the controller activates)."""
    out = ask("pay", state({**ROIL, "tapped": True}, energy=6), spell={"permanent": "rc", "ability": 0})
    assert out["reason"]["code"] == "not_castable" and "tapped" in out["reason"]["message"]
    out = ask("pay", state({**ROIL, "controller": "them"}, energy=6), spell={"permanent": "rc", "ability": 0})
    assert out["reason"]["code"] == "not_castable" and "602.2" in out["reason"]["message"]


def test_remove_counter_cost_needs_the_counters() -> None:
    """CR 602.2b, 118.3: Mikaeus, the Lunarch's second ability removes a +1/+1 counter from it."""
    mik = {"id": "m", "card": "Mikaeus, the Lunarch"}
    out = ask("pay", state(mik), spell={"permanent": "m", "ability": 1})
    assert out["reason"]["code"] == "not_castable" and "counter" in out["reason"]["message"]
    out = ask("pay", state({**mik, "counters": {"+1/+1": 2}}), spell={"permanent": "m", "ability": 1})
    assert out["payable"] is True


def test_pay_life_ability_needs_the_life_and_reports_it() -> None:
    """CR 119.4: a player can pay N life only with a life total of N or more; the life paid
    is part of the payment's life."""
    card = {"id": "c", "name": "Test Shrine", "type_line": "Artifact", "mana_cost": "{1}",
            "oracle_text": "{1}, Pay 3 life: Draw a card."}
    land = {"id": "w", "card": "Wastes"}
    out = ask("pay", state(card, land, life=3), spell={"permanent": "c", "ability": 0})
    assert out["payable"] is True and out["payment"]["life"] == 3
    out = ask("pay", state(card, land, life=2), spell={"permanent": "c", "ability": 0})
    assert out["reason"]["code"] == "insufficient_life"


# --- timing of abilities ---------------------------------------------------------------------------

def test_equip_only_as_a_sorcery() -> None:
    """CR 702.6a, 602.5d: equip only as a sorcery: not in the opponent's turn, not in combat,
    not with a nonempty stack; fine in the controller's main phase."""
    perms = ({"id": "b", "card": "Bonesplitter"}, {"id": "m", "card": "Mountain"})
    ok = ask("can_pay", state(*perms, turn=MAIN), spell={"permanent": "b", "ability": "equip"})
    assert ok["payable"] is True
    for turn in ({**MAIN, "active": "them"}, {**MAIN, "step": "declare_attackers"},
                 {**MAIN, "stack_empty": False}):
        out = ask("can_pay", state(*perms, turn=turn), spell={"permanent": "b", "ability": "equip"})
        assert out["reason"]["code"] == "timing", out


def test_no_ability_without_priority() -> None:
    """CR 502.4: nobody has priority in the untap step, so not even an instant-speed ability."""
    out = ask("can_pay", state({**ROIL}, energy=6, turn={**MAIN, "step": "untap"}),
              spell={"permanent": "rc", "ability": 0})
    assert out["reason"]["code"] == "timing"


# --- T123: Ancient Ziggurat, kicker and unearth ------------------------------------------------------

ZIGGURAT = {"id": "z", "card": "Ancient Ziggurat"}


def test_T123_ziggurat_pays_the_kicker_of_a_creature_spell() -> None:
    """T123 (CR 106.6, 118.8, 601.2f): the kicker is part of the creature spell's total cost,
    so Ziggurat mana pays it: Goblin Bushwhacker kicked is {R}{R}."""
    out = ask("pay", state(ZIGGURAT, {"id": "m", "card": "Mountain"}),
              spell={"card": "Goblin Bushwhacker"}, additional=["kicker"])
    assert out["payable"] is True, out
    assert out["payment"]["total"] == "{R}{R}"
    assert {a["permanent"] for a in out["payment"]["activations"]} == {"z", "m"}


def test_T123_ziggurat_cannot_pay_a_noncreature_spell_kicked_or_not() -> None:
    """T123 (CR 106.6): Burst Lightning is an instant: Ziggurat mana pays none of it."""
    mountains = [{"id": f"m{i}", "card": "Mountain"} for i in range(4)]
    out = ask("can_pay", state(ZIGGURAT, *mountains), spell={"card": "Burst Lightning"},
              additional=["kicker"])
    assert out["payable"] is False
    out = ask("can_pay", state(ZIGGURAT, *mountains, {"id": "m9", "card": "Mountain"}),
              spell={"card": "Burst Lightning"}, additional=["kicker"])
    assert out["payable"] is True


def test_T123_ziggurat_cannot_pay_unearth() -> None:
    """T123 (CR 106.6, 702.84a): unearth is an activated ability, not a creature spell."""
    grave = ["Dregscape Zombie"]
    out = ask("can_pay", state(ZIGGURAT, graveyard=grave), spell={"card": "Dregscape Zombie", "ability": "unearth"})
    assert out["payable"] is False
    out = ask("pay", state(ZIGGURAT, {"id": "s", "card": "Swamp"}, graveyard=grave),
              spell={"card": "Dregscape Zombie", "ability": "unearth"})
    assert out["payable"] is True
    assert out["activating"]["zone"] == "graveyard"
    assert [a["permanent"] for a in out["payment"]["activations"]] == ["s"]


def test_multikicker_times_and_single_kicker_once() -> None:
    """CR 702.33c: multikicker any number of times; 702.33a: kicker once."""
    plains = [{"id": f"p{i}", "card": "Plains"} for i in range(9)]
    out = ask("pay", state(*plains), spell={"card": "Apex Hawks"},
              additional=[{"name": "multikicker", "times": 3}])
    assert out["payment"]["total"] == "{5}{W}{W}{W}{W}"  # {2}{W} + 3 × {1}{W}
    out = ask("pay", state(*plains), spell={"card": "Goblin Bushwhacker"}, additional=["kicker", "kicker"])
    assert out["error"]["code"] == "bad_query" and out["error"]["where"] == "additional[1]"
    out = ask("pay", state(*plains), spell={"card": "Goblin Bushwhacker"}, additional=["buyback"])
    assert out["error"]["where"] == "additional[0]" and "kicker" in out["error"]["message"]


def test_flashback_alternative_cost() -> None:
    """CR 702.34a, 118.9: Lingering Souls for its flashback cost {1}{B}."""
    lands = ({"id": "s", "card": "Swamp"}, {"id": "p", "card": "Plains"})
    out = ask("pay", state(*lands, graveyard=["Lingering Souls"]), spell={"card": "Lingering Souls"},
              alternative="flashback")
    assert out["payable"] is True and out["payment"]["total"] == "{1}{B}"
    out = ask("pay", state(*lands), spell={"card": "Lingering Souls"}, alternative="flashback")
    assert out["reason"]["code"] == "not_castable" and "graveyard" in out["reason"]["message"]


def test_abilities_from_the_hand_or_graveyard_need_the_card_there() -> None:
    """CR 702.84a (unearth from the graveyard), 702.29a (cycling from the hand): the card must
    be in that zone; the spell being cast has left the hand (CR 601.2a) and can't exile itself."""
    swamp = {"id": "s", "card": "Swamp"}
    out = ask("can_pay", state(swamp), spell={"card": "Dregscape Zombie", "ability": "unearth"})
    assert out["reason"]["code"] == "not_castable"
    out = ask("can_pay", state({"id": "p", "card": "Plains"}, hand=["Akroma's Blessing"]),
              spell={"card": "Akroma's Blessing", "ability": "cycling"})
    assert out["payable"] is True
    mountains = [{"id": f"m{i}", "card": "Mountain"} for i in range(2)]
    out = ask("can_pay", state(*mountains, hand=["Elvish Spirit Guide"]), spell={"card": "Elvish Spirit Guide"})
    assert out["payable"] is False
    out = ask("can_pay", state(*mountains, hand=["Elvish Spirit Guide", "Elvish Spirit Guide"]),
              spell={"card": "Elvish Spirit Guide"})
    assert out["payable"] is True


def test_activation_conditions_and_ninjutsu_timing() -> None:
    """CR 602.5b: "Activate only if …" is refused, not ignored; CR 702.49a: ninjutsu needs an
    unblocked attacker, so only from the declare blockers step of the player's own turn."""
    keeper = {"id": "k", "card": "Bloodline Keeper"}
    out = ask("pay", state(keeper, {"id": "s", "card": "Swamp"}), spell={"permanent": "k", "ability": 1})
    assert out["error"]["code"] == "unsupported" and "602.5b" in out["error"]["message"]
    islands = [{"id": f"i{i}", "card": "Island"} for i in range(2)]
    hand = ["Ninja of the Deep Hours"]
    spell = {"card": "Ninja of the Deep Hours", "ability": "ninjutsu"}
    out = ask("can_pay", state(*islands, hand=hand, turn=MAIN), spell=spell)
    assert out["reason"]["code"] == "timing"
    out = ask("can_pay", state(*islands, hand=hand, turn={**MAIN, "step": "declare_blockers", "stack_empty": False}),
              spell=spell)
    assert out["payable"] is True


def test_bestowed_spell_is_not_a_creature_spell() -> None:
    """CR 702.103b: cast for bestow it is an Aura spell, so Ancient Ziggurat (creature spells
    only) can't pay it, though it pays the same card cast as a creature."""
    zigs = [{"id": f"z{i}", "card": "Ancient Ziggurat"} for i in range(5)]
    out = ask("can_pay", state(*zigs), spell={"card": "Baleful Eidolon"})
    assert out["payable"] is True
    out = ask("can_pay", state(*zigs), spell={"card": "Baleful Eidolon"}, alternative="bestow")
    assert out["payable"] is False


def test_bad_ability_references_are_errors_naming_the_field() -> None:
    st = state(ROIL, energy=6)
    cases = [
        ({"permanent": "nope", "ability": 0}, "spell.permanent"),
        ({"permanent": "rc", "ability": 7}, "spell.ability"),
        ({"permanent": "rc", "ability": "equip"}, "spell.ability"),
        ({"permanent": "rc", "ability": 0, "colour": "U"}, "spell.colour"),
        ({"card": "Bonesplitter", "ability": "equip"}, "spell.ability"),
        ({"card": "No Such Card Here", "ability": "unearth"}, "spell.card"),
    ]
    for spell, where in cases:
        out = ask("pay", st, spell=spell)
        assert "error" in out, (spell, out)
        assert out["error"]["where"] == where, (spell, out)
    out = ask("pay", st, spell={"permanent": "rc", "ability": 0}, cost="{1}")
    assert out["error"]["where"] == "cost"


def test_unsupported_ability_costs_are_reported() -> None:
    """Costs that spend other permanents are refused as unsupported, never answered wrongly."""
    out = ask("pay", state({"id": "r", "card": "Arcbound Ravager"}), spell={"permanent": "r", "ability": 0})
    assert out["error"]["code"] == "unsupported"
    out = ask("pay", state({"id": "g", "card": "Grim Lavamancer"}), spell={"permanent": "g", "ability": 0})
    assert out["error"]["code"] == "unsupported"


# --- the readers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ("Bonesplitter", [("equip", ["{1}"], "battlefield", True)]),
    ("Dregscape Zombie", [("unearth", ["{B}"], "graveyard", True)]),
    ("Akroma's Blessing", [("cycling", ["{W}"], "hand", False)]),
    ("Abzan Battle Priest", [("outlast", ["{W}", "{T}"], "battlefield", True)]),
    ("Gavony Township", [("", ["{2}{G}{W}", "{T}"], "battlefield", False)]),
])
def test_activated_abilities_read_from_oracle_text(name: str, expected: list[Any]) -> None:
    """CR 602.1: non-mana activated abilities in printed order, mana abilities left out."""
    got = [(a.keyword, a.cost.parts() if a.cost else None, a.zone, a.sorcery_speed)
           for a in activated_abilities(default_db().get(name))]
    assert got == expected


def test_keyword_costs_read_from_oracle_text() -> None:
    """CR 702.33 (kicker), 702.34 (flashback), 702.103 (bestow)."""
    db = default_db()
    assert [(k.name, k.kind, k.cost.format()) for k in keyword_costs(db.get("Burst Lightning"))] == \
        [("kicker", "additional", "{4}")]
    assert [(k.name, k.kind, k.zone) for k in keyword_costs(db.get("Lingering Souls"))] == \
        [("flashback", "alternative", "graveyard")]
    assert keyword_costs(db.get("Grizzly Bears")) == ()


def test_validate_an_ability_payment() -> None:
    """CR 602.2b, 601.2h: a payment for Gavony Township's ability that taps the Township for
    mana is illegal (it is tapped for the cost); the engine's own payment validates, and the
    ability's "Pay N life" counts in the payment's life (CR 119.4)."""
    lands = [{"id": "p", "card": "Plains"}, {"id": "f", "card": "Forest"}, {"id": "w", "card": "Wastes"},
             {"id": "w2", "card": "Wastes"}]
    st = state({"id": "gt", "card": "Gavony Township"}, *lands)
    spell = {"permanent": "gt", "ability": 0}
    paid = ask("pay", st, spell=spell)["payment"]
    assert ask("validate", st, spell=spell, payment=paid)["legal"] is True
    cheat = {**paid, "activations": [a for a in paid["activations"] if a["permanent"] != "w2"]
             + [{"permanent": "gt", "ability": 0, "costs": ["{T}"], "mana": "{C}"}]}
    assert ask("validate", st, spell=spell, payment=cheat)["legal"] is False
    shrine = {"id": "c", "name": "Test Shrine", "type_line": "Artifact", "mana_cost": "{1}",
              "oracle_text": "{1}, Pay 3 life: Draw a card."}
    st = state(shrine, {"id": "w", "card": "Wastes"})
    spell = {"permanent": "c", "ability": 0}
    paid = ask("pay", st, spell=spell)["payment"]
    assert ask("validate", st, spell=spell, payment=paid)["legal"] is True
    assert ask("validate", st, spell=spell, payment={**paid, "life": 0})["legal"] is False


def test_the_engine_payment_carries_the_ability_life() -> None:
    """CR 602.2b, 119.4: the request carries the ability's "Pay 3 life" once: every payment the
    engine builds (optimised, enumerated) includes it in ``life``, and the checker expects it
    there, refusing a payment whose life is less before anything else."""
    import dataclasses
    from manasolver.solver import queries
    from manasolver.solver.service.protocol import build_request
    from manasolver.solver.validate import validate
    shrine = {"id": "c", "name": "Test Shrine", "type_line": "Artifact", "mana_cost": "{1}",
              "oracle_text": "{1}, Pay 3 life: Draw a card."}
    lands = [{"id": "w", "card": "Wastes"}, {"id": "lw", "card": "Llanowar Wastes"}]
    req = build_request({"query": "pay", "state": state(shrine, *lands, life=5),
                         "spell": {"permanent": "c", "ability": 0}})
    assert req.ability_life == 3 and req.state.player("you").life == 2
    paid = queries.pay(req).payment
    assert paid is not None and paid.life == 3
    listed = queries.payments(req).payments
    assert listed and {p.life for p in listed} == {3} and {p.damage for p in listed} == {0, 1}
    for p in (paid, *listed):
        assert validate(req, p).legal
    short = validate(req, dataclasses.replace(paid, life=2))
    assert short.problems == ["the ability's cost includes paying 3 life; the payment's life is 2"]
    over = validate(req, dataclasses.replace(paid, life=4))
    assert over.problems == ["life: the payment says 1 life, but it pays 0"]


def test_escalate_at_most_once_per_mode_beyond_the_first() -> None:
    """CR 702.120a: Blessed Alliance has three modes, so escalate is paid at most twice."""
    plains = [{"id": f"p{i}", "card": "Plains"} for i in range(6)]
    out = ask("pay", state(*plains), spell={"card": "Blessed Alliance"},
              additional=[{"name": "escalate", "times": 2}])
    assert out["payable"] is True and out["payment"]["total"] == "{5}{W}"
    out = ask("pay", state(*plains), spell={"card": "Blessed Alliance"},
              additional=[{"name": "escalate", "times": 3}])
    assert out["error"]["where"] == "additional[0]" and "702.120a" in out["error"]["message"]


def test_unmodelled_sources_are_named_never_silently_ignored() -> None:
    """Never answer wrongly without saying so: Deranged Assistant's "{T}, Mill a card"
    is not modelled (the board has no library).  pay still gives a legal payment and names it
    under ``unsupported``; max_x refuses (it could make X larger); payments says it is incomplete."""
    board = state({"id": "g", "card": "Deranged Assistant"}, {"id": "f", "card": "Forest"})
    out = ask("pay", board, cost="{G}")
    assert out["payable"] is True and [u["permanent"] for u in out["unsupported"]] == ["g"]
    assert ask("max_x", board, cost="{X}")["error"]["code"] == "unsupported"
    assert ask("payments", board, cost="{G}")["complete"] is False
    plain = state({"id": "f", "card": "Forest"})
    assert "unsupported" not in ask("pay", plain, cost="{G}")
    assert ask("payments", plain, cost="{G}")["complete"] is True
