"""Effects of other permanents and payment rules on real cards, asked through the JSON protocol.

Each board is board JSON naming cards of the bundled database; each answer comes from
:func:`manasolver.solver.service.protocol.answer`, and every payment it states is given back to the
protocol's ``validate``, which must call it legal.  The rules: haste given by another permanent
(CR 302.6, 702.10, 613.1f), convoke given to a spell (Chief Engineer, CR 702.51), a spell's own
spending rule (Myr Superion), "rather than pay that mana" (K'rrik), Celestial Dawn's spending
rule (CR 609.4b, applied) and its color-changing effect on colors among permanents (CR 105.2, 613.1d).
"""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer


def _board(*perms: dict[str, Any], life: int = 20, pool: str = "") -> dict[str, Any]:
    player: dict[str, Any] = {"name": "you", "life": life}
    if pool:
        player["pool"] = pool
    return {"players": [player, {"name": "opponent"}], "battlefield": list(perms)}


def _perm(pid: str, card: str, **fields: Any) -> dict[str, Any]:
    return {"id": pid, "card": card, "controller": fields.pop("controller", "you"), **fields}


def _pay(state: dict[str, Any], cost: str, **extra: Any) -> dict[str, Any]:
    out = answer({"query": "pay", "state": state, "cost": cost, **extra})
    if out.get("payable"):
        check = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"], **extra})
        assert check == {"legal": True, "problems": []}, check
    return out


def _tapped(out: dict[str, Any]) -> set[str]:
    return {a["permanent"] for a in out["payment"]["activations"]}


# -- haste given by another permanent (CR 302.6, 702.10) ---------------------------------------

def test_fervor_gives_a_sick_llanowar_elves_haste_so_it_taps_for_mana() -> None:
    """Fervor: "Creatures you control have haste." A summoning-sick Llanowar Elves may {T}."""
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("fervor", "Fervor"))
    out = _pay(state, "{G}")
    assert out["payable"] is True and _tapped(out) == {"elf"}
    assert answer({"query": "can_pay", "state": state, "cost": "{G}"})["payable"] is True


def test_without_fervor_the_sick_elves_pay_nothing() -> None:
    state = _board(_perm("elf", "Llanowar Elves", sick=True))
    assert _pay(state, "{G}")["payable"] is False


def test_concordant_crossroads_gives_every_creature_haste() -> None:
    """Concordant Crossroads: "All creatures have haste." — an opponent's Crossroads too."""
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("cc", "Concordant Crossroads",
                                                                      controller="opponent"))
    out = _pay(state, "{G}")
    assert out["payable"] is True and _tapped(out) == {"elf"}


def test_fervor_of_an_opponent_gives_my_creatures_nothing() -> None:
    """"Creatures you control" are the Fervor's controller's (CR 109.5)."""
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("fervor", "Fervor", controller="opponent"))
    assert _pay(state, "{G}")["payable"] is False


def test_goblin_warchief_gives_haste_to_goblins_only() -> None:
    """Goblin Warchief: "Goblins you control have haste." Llanowar Elves is an Elf."""
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("gw", "Goblin Warchief"))
    assert _pay(state, "{G}")["payable"] is False


def test_lightning_greaves_gives_the_equipped_elves_haste() -> None:
    """Lightning Greaves: "Equipped creature has haste and shroud." Only what it is attached to."""
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("elf2", "Fyndhorn Elves", sick=True),
                   _perm("lg", "Lightning Greaves", attached_to="elf"))
    out = _pay(state, "{G}")
    assert out["payable"] is True and _tapped(out) == {"elf"}
    assert _pay(state, "{G}{G}")["payable"] is False


def test_fervor_haste_is_seen_by_validate_of_a_payment_tapping_the_elves() -> None:
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("fervor", "Fervor"))
    payment = {"total": "{G}", "activations": [{"permanent": "elf", "ability": 0, "costs": ["{T}"],
                                                "mana": "{G}"}]}
    out = answer({"query": "validate", "state": state, "cost": "{G}", "payment": payment})
    assert out == {"legal": True, "problems": []}
    alone = _board(_perm("elf", "Llanowar Elves", sick=True))
    out = answer({"query": "validate", "state": alone, "cost": "{G}", "payment": payment})
    assert out["legal"] is False and "302.6" in out["problems"][0]


def test_fervor_haste_is_seen_by_options() -> None:
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("fervor", "Fervor"))
    assert answer({"query": "options", "state": state})["options"] == ["{G}"]


def test_maze_rusher_grant_not_read_is_refused_when_a_sick_creature_could_tap() -> None:
    """Maze Rusher: "Multicolored creatures you control have haste." — a qualifier the engine does
    not check: refused naming the card and clause, never answered as if the creature were sick."""
    state = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("mr", "Maze Rusher"))
    out = answer({"query": "pay", "state": state, "cost": "{G}"})
    assert out["error"]["code"] == "unsupported"
    assert "Maze Rusher" in out["error"]["message"] and "Multicolored" in out["error"]["message"]


# -- convoke given to a spell (Chief Engineer, CR 702.51) --------------------------------------

def test_chief_engineer_gives_an_artifact_spell_convoke() -> None:
    """Chief Engineer: "Artifact spells you cast have convoke." Two untapped creatures pay Sol
    Ring's {1} with no land (convoke is on without the query asking)."""
    state = _board(_perm("ce", "Chief Engineer"), _perm("bear", "Grizzly Bears"))
    out = _pay(state, "{1}", spell={"card": "Sol Ring"})
    assert out["payable"] is True and len(out["payment"]["convoked"]) == 1


def test_chief_engineer_gives_a_creature_spell_no_convoke() -> None:
    state = _board(_perm("ce", "Chief Engineer"), _perm("bear", "Grizzly Bears"))
    assert _pay(state, "{1}{G}", spell={"card": "Grizzly Bears"})["payable"] is False


def test_chief_engineer_of_an_opponent_gives_my_artifact_spells_no_convoke() -> None:
    state = _board(_perm("ce", "Chief Engineer", controller="opponent"), _perm("bear", "Grizzly Bears"))
    assert _pay(state, "{1}", spell={"card": "Sol Ring"})["payable"] is False


# -- rules of paying the engine refuses rather than ignores -------------------------------------

def _refused(query: dict[str, Any], *words: str) -> None:
    out = answer(query)
    assert "error" in out, out
    assert out["error"]["code"] == "unsupported", out
    for word in words:
        assert word in out["error"]["message"], out


def test_myr_superion_spending_rule_is_applied_not_ignored() -> None:
    """Myr Superion: "Spend only mana produced by creatures to cast this spell." Two Forests can't
    cast it (tests/rules/test_myr_superion_own_spending.py checks every query)."""
    state = _board(_perm("f1", "Forest"), _perm("f2", "Forest"))
    for kind in ("pay", "can_pay"):
        out = answer({"query": kind, "state": state, "spell": {"card": "Myr Superion"}})
        assert out["payable"] is False and out["reason"]["code"] == "restricted_mana"


def test_krrik_life_for_black_pays_a_black_symbol_with_two_life() -> None:
    """K'rrik, Son of Yawgmoth: "For each {B} in a cost, you may pay 2 life rather than pay that
    mana." {B} is payable with 2 life beside a Forest (validated); a hybrid symbol with a black
    half is still refused rather than answered unpayable."""
    state = _board(_perm("k", "K'rrik, Son of Yawgmoth"), _perm("f", "Forest"))
    out = _pay(state, "{B}")
    assert out["payable"] is True and out["payment"]["life"] == 2, out
    _refused({"query": "can_pay", "state": state, "cost": "{1}{B/G}"}, "K'rrik")


def test_krrik_does_not_touch_a_cost_without_black() -> None:
    state = _board(_perm("k", "K'rrik, Son of Yawgmoth"), _perm("f", "Forest"))
    assert _pay(state, "{G}")["payable"] is True


def test_celestial_dawn_spending_rule_applies_to_payments() -> None:
    """Celestial Dawn: "You may spend other mana only as though it were colorless mana." Llanowar
    Elves' {G} can't pay {G} under it (CR 609.4b), and validate says which symbol; it pays {1}."""
    state = _board(_perm("cd", "Celestial Dawn"), _perm("elf", "Llanowar Elves"))
    assert _pay(state, "{G}")["payable"] is False
    assert _pay(state, "{1}")["payable"] is True
    payment = {"total": "{G}", "activations": [{"permanent": "elf", "ability": 0, "costs": ["{T}"],
                                                "mana": "{G}"}]}
    out = answer({"query": "validate", "state": state, "cost": "{G}", "payment": payment})
    assert out["legal"] is False and any("{G} of the total" in p for p in out["problems"]), out


def test_celestial_dawn_makes_nonland_permanents_white_among_colors() -> None:
    """Celestial Dawn: "Nonland permanents you control are white." (layer 5, CR 613.1d): Llanowar
    Elves is white, not green; a land stays colorless; an opponent's Elves stay green."""
    state = _board(_perm("cd", "Celestial Dawn"), _perm("elf", "Llanowar Elves"), _perm("f", "Forest"),
                   _perm("elf2", "Llanowar Elves", controller="opponent"))
    out = answer({"query": "counts", "state": state})
    assert out["colors_among_permanents"] == ["W"]
    out = answer({"query": "counts", "state": state, "player": "opponent"})
    assert out["colors_among_permanents"] == ["G"]


# -- the brute force sees the same haste -------------------------------------------------------

def test_fervor_boards_agree_with_the_brute_force() -> None:
    """With and without Fervor, sick Llanowar Elves and Birds of Paradise beside a Forest: the
    brute force (written from CR 302.6 with the same rules function) and ``payments`` list the
    same payments, and ``pay`` finds one exactly when the brute force does."""
    from brute import brute
    from manasolver.models.board.load import load_state
    from manasolver.models.cost import ManaCost
    from manasolver.solver.payment import Payment
    from manasolver.solver.request import PaymentRequest

    for extra in ([], [_perm("fervor", "Fervor")]):
        raw = _board(_perm("elf", "Llanowar Elves", sick=True), _perm("bop", "Birds of Paradise", sick=True),
                     _perm("f", "Forest"), *extra)
        state = load_state(raw)
        for cost in ("{G}", "{1}{G}", "{G}{U}{1}"):
            expected = brute(PaymentRequest(state, ManaCost.parse(cost), "you"))
            listed = answer({"query": "payments", "state": raw, "cost": cost, "limit": 100})
            assert listed["complete"] is True
            assert {Payment.from_json(p) for p in listed["payments"]} == set(expected.payments), (extra, cost)
            assert _pay(raw, cost)["payable"] is expected.payable
            assert expected.payable is (bool(extra) or cost == "{G}"), (extra, cost)  # haste matters


def test_thran_lens_makes_every_permanent_colorless_among_colors() -> None:
    """Thran Lens: "All permanents are colorless." (layer 5): no colors among permanents."""
    state = _board(_perm("lens", "Thran Lens"), _perm("elf", "Llanowar Elves"),
                   _perm("elf2", "Llanowar Elves", controller="opponent"))
    assert answer({"query": "counts", "state": state})["colors_among_permanents"] == []
    assert answer({"query": "counts", "state": state, "player": "opponent"})["colors_among_permanents"] == []


def test_fervor_lets_a_sick_prodigal_sorcerer_activate_its_tap_ability() -> None:
    """Prodigal Sorcerer: "{T}: ~ deals 1 damage to any target." Summoning sick, it can't be
    activated (CR 302.6, 602.5a); under Fervor it can, and costs nothing more."""
    sorcerer = _perm("ps", "Prodigal Sorcerer", sick=True)
    out = answer({"query": "pay", "state": _board(sorcerer), "spell": {"permanent": "ps", "ability": 0}})
    assert out["payable"] is False and "302.6" in out["reason"]["message"]
    out = answer({"query": "pay", "state": _board(sorcerer, _perm("fervor", "Fervor")),
                  "spell": {"permanent": "ps", "ability": 0}})
    assert out["payable"] is True and out["payment"]["activations"] == []
