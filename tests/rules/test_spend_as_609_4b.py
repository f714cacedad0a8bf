"""Spending mana as though it were mana of another color or type (CR 609.4b), on real cards.

Each board is board JSON naming cards of the bundled database, asked through
:func:`manasolver.solver.service.protocol.answer`; every payment an answer states is given back to the
protocol's ``validate``, which must call it legal.  Chromatic Orrery and Mycosynth Lattice let any
mana pay a colored symbol, never ``{C}`` ("any color" is not colorless, CR 105.1); Celestial Dawn
lets white mana pay colored symbols and other mana only what colorless mana pays (generic, ``{C}``,
a ``{2/R}``'s ``{2}``); Sunglasses of Urza lets white pay red; Oath of Nissa reaches planeswalker
spells only, Vizier of the Menagerie creature spells (any type: ``{C}`` too).  The hypothesis test
compares ``can_pay``, CP-SAT's ``pay`` and the ``payments`` enumeration on random boards of these
rules with the brute force (:mod:`brute`, which reads the rules from their text on its own).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.solver.service.protocol import answer


def _board(*perms: dict[str, Any], life: int = 20) -> dict[str, Any]:
    return {"players": [{"name": "you", "life": life}, {"name": "opponent"}], "battlefield": list(perms)}


def _perm(pid: str, card: str, **fields: Any) -> dict[str, Any]:
    return {"id": pid, "card": card, "controller": fields.pop("controller", "you"), **fields}


def _pay(state: dict[str, Any], cost: str, **extra: Any) -> dict[str, Any]:
    """``pay``, its payment checked by ``validate``; ``can_pay`` must agree on payability."""
    out = answer({"query": "pay", "state": state, "cost": cost, **extra})
    assert "error" not in out, out
    if out.get("payable"):
        check = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"], **extra})
        assert check == {"legal": True, "problems": []}, (out, check)
    assert answer({"query": "can_pay", "state": state, "cost": cost, **extra})["payable"] == out["payable"]
    return out


def _validate(state: dict[str, Any], cost: str, payment: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return answer({"query": "validate", "state": state, "cost": cost, "payment": payment, **extra})


def _tap(pid: str, mana: str) -> dict[str, Any]:
    return {"permanent": pid, "ability": 0, "costs": ["{T}"], "mana": mana}


# -- Chromatic Orrery: any mana as though it were mana of any color ------------------------------


def test_cr_609_4b_chromatic_orrery_pays_uu_with_mountains() -> None:
    """Orrery (tapped, so its own {C} is not there) lets two Mountains' {R}{R} pay {U}{U}; without
    Orrery they can't.  The total stays {U}{U}: the rule changes what pays, not the cost."""
    state = _board(_perm("o", "Chromatic Orrery", tapped=True), _perm("m1", "Mountain"), _perm("m2", "Mountain"))
    out = _pay(state, "{U}{U}")
    assert out["payable"] and out["payment"]["total"] == "{U}{U}"
    assert sorted(a["mana"] for a in out["payment"]["activations"]) == ["{R}", "{R}"]
    plain = _board(_perm("m1", "Mountain"), _perm("m2", "Mountain"))
    assert _pay(plain, "{U}{U}")["payable"] is False


def test_cr_609_4b_chromatic_orrery_colorless_pays_colored_but_not_c_with_red() -> None:
    """Orrery's own {C}{C}{C}{C}{C} pays {W}{U}{B}{R}{G}; "any color" is never colorless (CR 105.1),
    so a Mountain's {R} still can't pay {C}."""
    assert _pay(_board(_perm("o", "Chromatic Orrery")), "{W}{U}{B}{R}{G}")["payable"] is True
    state = _board(_perm("o", "Chromatic Orrery", tapped=True), _perm("m", "Mountain"))
    assert _pay(state, "{C}")["payable"] is False
    refused = _validate(state, "{C}", {"total": "{C}", "activations": [_tap("m", "{R}")]})
    assert refused["legal"] is False


def test_cr_107_4e_chromatic_orrery_pays_announced_halves() -> None:
    """The mana half of {2/W} and of {W/P} is announced first (CR 601.2b, 107.4e-f) and then paid
    as {W}: one Mountain pays {2/W} announced as {W} and {W/P} without life."""
    state = _board(_perm("o", "Chromatic Orrery", tapped=True), _perm("m", "Mountain"))
    out = _pay(state, "{2/W}")
    assert out["payable"] and out["payment"]["choices"] == [{"symbol": "{2/W}", "paid_as": "{W}"}], out
    out = _pay(state, "{W/P}")
    assert out["payable"] and out["payment"]["life"] == 0, out


def test_cr_609_4b_chromatic_orrery_reaches_only_its_controller() -> None:
    """"You may spend …": an opponent's Orrery changes nothing for you."""
    state = _board(_perm("o", "Chromatic Orrery", controller="opponent"), _perm("m", "Mountain"))
    assert _pay(state, "{U}")["payable"] is False


def test_cr_609_4b_chromatic_orrery_max_x_and_payments() -> None:
    """max_x of {X}{U} with three Mountains is 2; payments lists the Mountains' ways."""
    state = _board(_perm("o", "Chromatic Orrery", tapped=True), *(_perm(f"m{i}", "Mountain") for i in range(3)))
    out = answer({"query": "max_x", "state": state, "cost": "{X}{U}"})
    assert out["max_x"] == 2, out
    listed = answer({"query": "payments", "state": state, "cost": "{U}", "limit": 10})
    assert listed["complete"] and len(listed["payments"]) == 3
    for p in listed["payments"]:
        assert _validate(state, "{U}", p)["legal"] is True


def test_cr_609_4b_chromatic_orrery_pays_a_filter_lands_cost() -> None:
    """The rule reaches every cost its controller pays, a mana ability's too (CR 605.3b, 609.4b): a
    Mountain's {R} pays Mystic Gate's {W/U}, so payments of {W}{W} list the Gate's filter fed by
    the Mountain, each legal.  The options query does not apply it to a cost yet and says so."""
    state = _board(_perm("o", "Chromatic Orrery", tapped=True), _perm("g", "Mystic Gate"), _perm("m", "Mountain"))
    assert _pay(state, "{W}{W}")["payable"] is True
    listed = answer({"query": "payments", "state": state, "cost": "{W}{W}", "limit": 20})
    assert listed["complete"] and all(_validate(state, "{W}{W}", p)["legal"] for p in listed["payments"])
    fed = [p for p in listed["payments"] if any(a["permanent"] == "g" and a["costs"][0] == "{W/U}"
                                                 for a in p["activations"])]
    assert fed and all(any(a["permanent"] == "m" for a in p["activations"]) for p in fed), listed
    out = answer({"query": "options", "state": state})
    assert out["error"]["code"] == "unsupported" and "Mystic Gate" in out["error"]["message"], out
    assert "{W/U}" in out["error"]["message"] and out["error"]["where"] == "battlefield[0]"


def test_cr_609_4b_sunglasses_white_pays_a_filter_lands_red_half() -> None:
    """Graven Cairns' {B/R} cost is paid by a Plains' {W} as though it were red: {B}{B} payable."""
    state = _board(_perm("s", "Sunglasses of Urza"), _perm("c", "Graven Cairns"), _perm("p", "Plains"))
    out = _pay(state, "{B}{B}")
    acts = out["payment"]["activations"]
    assert out["payable"] and [a["permanent"] for a in acts] == ["p", "c"] and acts[1]["mana"] == "{B}{B}", out


# -- Celestial Dawn: white as any color, other mana only as colorless ----------------------------


def _dawn(*perms: dict[str, Any]) -> dict[str, Any]:
    return _board(_perm("cd", "Celestial Dawn"), *perms)


def test_cr_609_4b_celestial_dawn_red_mana_cannot_pay_r() -> None:
    """Fire Diamond's {R} may be spent only as though it were colorless: it can't pay {R}, and
    validate names the symbol."""
    state = _dawn(_perm("fd", "Fire Diamond"))
    assert _pay(state, "{R}")["payable"] is False
    refused = _validate(state, "{R}", {"total": "{R}", "activations": [_tap("fd", "{R}")]})
    assert refused["legal"] is False
    assert any("{R} of the total" in p and "{W}" in p and "609.4b" in p for p in refused["problems"]), refused


def test_cr_609_4b_celestial_dawn_white_mana_pays_b() -> None:
    """White mana may be spent as though it were mana of any color: a Plains pays {B}."""
    out = _pay(_dawn(_perm("p", "Plains")), "{B}")
    assert out["payable"] and out["payment"]["activations"][0]["mana"] == "{W}"


def test_cr_609_4b_celestial_dawn_red_mana_pays_generic_and_c() -> None:
    """Red mana spent as though it were colorless pays {1} and {C}."""
    out = _pay(_dawn(_perm("f1", "Fire Diamond"), _perm("f2", "Fire Diamond")), "{1}{C}")
    assert out["payable"] and out["payment"]["total"] == "{1}{C}"


def test_cr_609_4b_celestial_dawn_white_mana_cannot_pay_c() -> None:
    """White mana is spent as white or as a color, never as colorless: a Plains can't pay {C}."""
    assert _pay(_dawn(_perm("p", "Plains")), "{C}")["payable"] is False


def test_cr_305_7_celestial_dawn_lands_are_plains() -> None:
    """"Lands you control are Plains." (layer 4, CR 305.7): a Mountain taps for {W} only, which
    then pays {R} by the spending rule."""
    out = _pay(_dawn(_perm("m", "Mountain")), "{R}")
    assert out["payable"] and out["payment"]["activations"][0]["mana"] == "{W}"


def test_cr_609_4b_celestial_dawn_hybrid_and_phyrexian_symbols() -> None:
    """Red mana can't pay {R/G} (both halves colored) nor the mana half of {R/P} (2 life still
    does, CR 107.4f); it pays {2/R} announced as {2}; white pays {R/G}."""
    one = _dawn(_perm("fd", "Fire Diamond"))
    assert _pay(one, "{R/G}")["payable"] is False
    out = _pay(one, "{R/P}")
    assert out["payable"] and out["payment"]["life"] == 2
    two = _dawn(_perm("f1", "Fire Diamond"), _perm("f2", "Fire Diamond"))
    out = _pay(two, "{2/R}")
    assert out["payable"] and out["payment"]["choices"] == [{"symbol": "{2/R}", "paid_as": "{2}"}]
    out = _pay(_dawn(_perm("p", "Plains")), "{R/G}")
    assert out["payable"] and out["payment"]["choices"][0]["paid_as"] in ("{R}", "{G}")


def test_cr_609_4b_celestial_dawn_beside_orrery_is_refused() -> None:
    """Dawn restricts the non-white mana that Orrery widens: which wins is not modelled, and the
    answer says so naming Dawn."""
    state = _dawn(_perm("o", "Chromatic Orrery"))
    out = answer({"query": "can_pay", "state": state, "cost": "{G}"})
    assert out["error"]["code"] == "unsupported" and "Celestial Dawn" in out["error"]["message"], out


# -- Sunglasses of Urza, Oath of Nissa, Vizier of the Menagerie ----------------------------------


def test_cr_609_4b_sunglasses_of_urza_white_pays_red_only() -> None:
    """White mana as though it were red: a Plains pays {R} and {B/R} (announced {R}), not {U} nor
    {C}; red mana does not pay white."""
    plains = _board(_perm("s", "Sunglasses of Urza"), _perm("p", "Plains"))
    assert _pay(plains, "{R}")["payable"] is True
    out = _pay(plains, "{B/R}")
    assert out["payable"] and out["payment"]["choices"] == [{"symbol": "{B/R}", "paid_as": "{R}"}]
    assert _pay(plains, "{U}")["payable"] is False
    assert _pay(plains, "{C}")["payable"] is False
    assert _pay(_board(_perm("s", "Sunglasses of Urza"), _perm("m", "Mountain")), "{W}")["payable"] is False


def test_cr_609_4b_oath_of_nissa_only_for_planeswalker_spells() -> None:
    """"… to cast planeswalker spells": a Forest pays {U} for a planeswalker spell, not for a
    creature spell nor for a cost of no named spell."""
    state = _board(_perm("oath", "Oath of Nissa"), _perm("f", "Forest"))
    assert _pay(state, "{U}", spell={"types": ["Planeswalker"]})["payable"] is True
    assert _pay(state, "{U}", spell={"types": ["Creature"]})["payable"] is False
    assert _pay(state, "{U}")["payable"] is False


def test_cr_609_4b_oath_of_nissa_in_a_plan_reaches_only_its_planeswalker_spell() -> None:
    """A plan of a planeswalker spell's {U} and another spell's {G} with two Forests: the Oath
    pays the first; two {U} can't both be paid (the second spell is no planeswalker).  Each cost's
    payment passes validate."""
    state = _board(_perm("oath", "Oath of Nissa"), _perm("f1", "Forest"), _perm("f2", "Forest"))
    costs = [{"cost": "{U}", "spell": {"types": ["Planeswalker"]}}, {"cost": "{G}"}]
    out = answer({"query": "plan", "state": state, "costs": costs})
    assert out["payable"] is True, out
    for c, p in zip(costs, out["payments"]):
        assert _validate(state, c["cost"], p, **({"spell": c["spell"]} if "spell" in c else {}))["legal"] is True
    costs[1] = {"cost": "{U}"}
    out = answer({"query": "plan", "state": state, "costs": costs})
    assert out["payable"] is False and out["index"] == 1, out


def test_cr_609_4b_vizier_of_the_menagerie_any_type_for_creature_spells() -> None:
    """"… mana of any type to cast creature spells": a Forest pays {C} and {U} for a creature
    spell, neither for an instant."""
    state = _board(_perm("v", "Vizier of the Menagerie"), _perm("f1", "Forest"), _perm("f2", "Forest"))
    assert _pay(state, "{C}{U}", spell={"types": ["Creature"]})["payable"] is True
    assert _pay(state, "{C}", spell={"types": ["Instant"]})["payable"] is False


# -- Mycosynth Lattice ---------------------------------------------------------------------------


def test_cr_609_4b_mycosynth_lattice_reaches_every_player() -> None:
    """"Players may spend mana as though it were mana of any color.": an opponent's Lattice lets
    your Forests pay {U}{B}; {C} still needs colorless mana."""
    state = _board(_perm("l", "Mycosynth Lattice", controller="opponent"), _perm("f1", "Forest"),
                   _perm("f2", "Forest"))
    assert _pay(state, "{U}{B}")["payable"] is True
    assert _pay(state, "{C}")["payable"] is False


def test_cr_613_1d_mycosynth_lattice_makes_permanents_colorless_among_colors() -> None:
    """"All cards …, spells, and permanents are colorless." (layer 5): no color among your
    permanents beside a Lattice."""
    state = _board(_perm("l", "Mycosynth Lattice"), _perm("e", "Llanowar Elves"))
    assert answer({"query": "counts", "state": state})["colors_among_permanents"] == []


def test_cr_613_1d_mycosynth_lattice_artifacts_beside_null_rod_are_refused() -> None:
    """"All permanents are artifacts …" (layer 4) with Null Rod would stop every mana ability
    (CR 602.5): the engine does not apply the type change, so it refuses naming the clause."""
    state = _board(_perm("l", "Mycosynth Lattice"), _perm("n", "Null Rod"), _perm("f", "Forest"))
    out = answer({"query": "can_pay", "state": state, "cost": "{G}"})
    assert out["error"]["code"] == "unsupported", out
    assert "All permanents are artifacts" in out["error"]["message"] and out["error"]["where"] == "battlefield[0]"


def test_cr_613_1d_spell_colors_of_dawn_and_lattice_are_refused_where_read() -> None:
    """Celestial Dawn makes your spells white and Mycosynth Lattice every spell colorless; the
    engine reads a spell's colors as printed, so beside Pillar of the Paruns (mana only for
    multicolored spells) a named spell is refused naming the clause; a spell of no restriction's
    interest is answered."""
    spell = {"types": ["Instant"], "colors": ["U", "R"]}
    for rule, words in (("Celestial Dawn", "spells you control"), ("Mycosynth Lattice", "spells, and permanents")):
        state = _board(_perm("r", rule), _perm("p", "Pillar of the Paruns"))
        out = answer({"query": "pay", "state": state, "cost": "{U}{R}", "spell": spell})
        assert out["error"]["code"] == "unsupported" and words in out["error"]["message"], out
    out = _pay(_dawn(_perm("p", "Plains")), "{G}", spell={"types": ["Instant"], "colors": ["G"]})
    assert out["payable"] is True


def test_cr_702_51a_convoke_of_a_recolored_creature_is_refused() -> None:
    """Convoke pays by the creature's colors, which Celestial Dawn changes to white: refused, naming
    Dawn; convoke beside Chromatic Orrery (the Elves' green pays no {U}: not mana) and Lattice's
    artifacts with improvise likewise."""
    state = _dawn(_perm("e", "Llanowar Elves"))
    out = answer({"query": "pay", "state": state, "cost": "{1}", "convoke": True})
    assert out["error"]["code"] == "unsupported" and "Celestial Dawn" in out["error"]["message"], out
    assert "error" not in answer({"query": "can_pay", "state": state, "cost": "{1}"})  # convoke not asked
    state = _board(_perm("o", "Chromatic Orrery", tapped=True), _perm("e", "Llanowar Elves"))
    out = answer({"query": "pay", "state": state, "cost": "{U}", "convoke": True})
    assert out["error"]["code"] == "unsupported" and "convoked creature" in out["error"]["message"], out
    assert "error" not in answer({"query": "can_pay", "state": state, "cost": "{U}", "convoke": False})
    state = _board(_perm("l", "Mycosynth Lattice"), _perm("f", "Forest"))
    out = answer({"query": "pay", "state": state, "cost": "{1}", "improvise": True})
    assert out["error"]["code"] == "unsupported" and "improvise" in out["error"]["message"], out
    board = answer({"query": "open", "state": state})["board"]  # a kept board asked first without it
    assert answer({"query": "pay", "board": board, "cost": "{1}"})["payable"] is True
    out = answer({"query": "pay", "board": board, "cost": "{1}", "improvise": True})
    assert out["error"]["code"] == "unsupported" and "improvise" in out["error"]["message"], out
    answer({"query": "close", "board": board})
    assert _pay(state, "{U}", convoke=True)["payable"] is True  # no creature to convoke: nothing refused


# -- the brute force ---------------------------------------------------------------------------

_RULES = ("Chromatic Orrery", "Sunglasses of Urza", "Celestial Dawn", "Mycosynth Lattice", "Oath of Nissa",
          "Vizier of the Menagerie")
_SOURCES = ("Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Fire Diamond", "Sol Ring",
            "Llanowar Elves", "Birds of Paradise", "Mystic Gate", "Graven Cairns", "Rakdos Signet")
_SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{1}", "{W/U}", "{R/G}", "{2/W}", "{B/P}", "{C/G}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.lists(st.tuples(st.sampled_from(_RULES), st.booleans()), min_size=1, max_size=2),
       sources=st.lists(st.sampled_from(_SOURCES), min_size=1, max_size=4),
       cost=st.lists(st.sampled_from(_SYMBOLS), min_size=1, max_size=3),
       spell=st.sampled_from([None, "creature", "planeswalker", "instant"]),
       criteria=st.sampled_from([("min_life", "min_waste", "min_sources"), ("min_sources", "min_life"),
                                 ("prefer_lands", "min_waste", "min_life")]))
def test_cr_609_4b_random_spend_as_boards_agree_with_the_brute_force(
        rules: list[tuple[str, bool]], sources: list[str], cost: list[str], spell: str | None,
        criteria: tuple[str, ...]) -> None:
    """can_pay, CP-SAT's and the default chain's pay (validated, their optimum the brute
    force's) and the payments listed equal the brute force's under random 609.4b rules (theirs
    or an opponent's) beside random sources; a board whose rules clash (Celestial Dawn's "only
    as colorless" beside a rule widening other mana) is refused by the engine and skipped."""
    from backends import assert_agrees_with_brute
    from brute import brute
    from manasolver.models.board.load import load_state
    from manasolver.models.cost import ManaCost
    from manasolver.models.errors import Unsupported
    from manasolver.solver.request import PaymentRequest, Policy, SpellInfo

    perms = [_perm(f"r{i}", name, controller="opponent" if theirs else "you") for i, (name, theirs) in enumerate(rules)]
    perms += [_perm(f"s{i}", name) for i, name in enumerate(sources)]
    state = load_state(_board(*perms))
    info = SpellInfo(types=frozenset({spell})) if spell else None
    req = PaymentRequest(state, ManaCost.parse("".join(cost)), "you", spell=info, policy=Policy(criteria=criteria))
    where = f"{rules} {sources} {''.join(cost)} {spell} {criteria}"
    try:
        from manasolver.solver import queries
        queries.can_pay(req)
    except Unsupported as err:
        assert "Celestial Dawn" in err.message and ("widens" in err.message or "Lattice" in where), (where, err)
        return
    assert_agrees_with_brute(req, where, brute(req, criteria), limit=200, validated=20, check_default=True)


def test_609_4b_chromatic_orrery_missing_mana_is_written_as_generic() -> None:
    """CR 609.4b: under Chromatic Orrery any mana pays {U}, so what is missing for {U}{U} from one
    Mountain is one more mana of any type, written {1} (not a six-type hybrid, which no cost has);
    a {C} still needs colorless mana."""
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you"}, {"name": "opponent"}],
             "battlefield": [{"id": "o", "card": "Chromatic Orrery", "tapped": True},
                             {"id": "m", "card": "Mountain"}]}
    out = answer({"query": "can_pay", "state": state, "cost": "{U}{U}"})
    assert out["payable"] is False and out["reason"]["missing"] == "{1}"
    out = answer({"query": "can_pay", "state": state, "cost": "{U}{C}"})
    assert out["payable"] is False and out["reason"]["missing"] == "{C}"


def test_609_4b_chromatic_orrery_beside_plaza_of_harmony_is_answered() -> None:
    """Plaza of Harmony mirrors what lands could produce (CR 106.7); Chromatic Orrery changes what
    mana pays (609.4b), not what a land could produce, so the Plaza is read, not refused, and its
    {C} pays a {U} under the Orrery."""
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you"}, {"name": "opponent"}],
             "battlefield": [{"id": "o", "card": "Chromatic Orrery", "tapped": True},
                             {"id": "m", "card": "Mountain"}, {"id": "s", "card": "Plaza of Harmony"}]}
    out = answer({"query": "pay", "state": state, "cost": "{U}{U}"})
    assert out["payable"] is True
    assert {a["permanent"] for a in out["payment"]["activations"]} == {"m", "s"}
    check = answer({"query": "validate", "state": state, "cost": "{U}{U}", "payment": out["payment"]})
    assert check["legal"] is True
