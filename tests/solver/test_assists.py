"""Convoke, delve and improvise decided inside the payment optimisation (CR 702.51, 702.66, 702.126).

Each vector test is named after its vector and rule.  Every payment is checked by
:func:`manasolver.solver.validate.validate`, and on tiny random boards CP-SAT's
optimum (fewest sources) equals a brute force written here from the rules alone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from manasolver.models.cost import ManaCost
from manasolver.solver.payment import Payment
from manasolver.solver.service.protocol import answer, build_request
from manasolver.solver.validate import validate


def board(*cards: str | dict[str, Any], pool: str = "", graveyard: tuple[str, ...] = (),
          life: int = 20) -> dict[str, Any]:
    perms = []
    for i, c in enumerate(cards):
        perms.append({"id": f"p{i}", "card": c} if isinstance(c, str) else {"id": f"p{i}", **c})
    me: dict[str, Any] = {"name": "you", "life": life, "graveyard": list(graveyard)}
    if pool:
        me["pool"] = pool
    return {"players": [me, {"name": "opp"}], "battlefield": perms}


def ask(query: str, state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    result = answer({"query": query, "state": state, **fields})
    assert "error" not in result, result
    return result


def checked(result: dict[str, Any], state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Validate a payable answer's payment with solver.validate (and the protocol's validate)."""
    if result.get("payable") or result.get("max_x") is not None:
        payment = result["payment"]
        query = {"query": "pay", "state": state, **{k: v for k, v in fields.items() if k != "backend"}}
        if "max_x" in result:
            query["x"] = result["max_x"]
        req = build_request(query)
        verdict = validate(req, Payment.from_json(payment))
        assert verdict.legal, (payment, verdict.problems)
        check = answer({"query": "validate", "state": state, "payment": payment,
                        **{k: v for k, v in query.items() if k not in ("query", "state", "policy")}})
        assert check.get("legal") is True, (payment, check)
    return result


def pay(state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return checked(ask("pay", state, **fields), state, **fields)


CHORD = {"card": "Chord of Calling"}
CRUISE = {"card": "Treasure Cruise"}
WHIR = {"card": "Whir of Invention"}


# --- Convoke (702.51) ------------------------------------------------------------------------

def test_t71_chord_convoking_two_green_two_red_leaves_1g_702_51a() -> None:
    """T71 (702.51a; Chord of Calling ruling): X=3, total {3}{G}{G}{G}; two green and two red
    creatures convoke {G}{G} and {2}, leaving {1}{G} for two Forests; one Forest is {1} short."""
    creatures = ("Grizzly Bears", "Grizzly Bears", "Raging Goblin", "Raging Goblin")
    state = board(*creatures, "Forest", "Forest")
    result = pay(state, spell=CHORD, x=3)
    assert result["payable"] is True
    payment = result["payment"]
    assert payment["total"] == "{3}{G}{G}{G}"
    assert sorted(payment["convoked"]) == ["p0", "p1", "p2", "p3"]
    assert sorted(a["permanent"] for a in payment["activations"]) == ["p4", "p5"]
    short = ask("pay", board(*creatures, "Forest"), spell=CHORD, x=3)
    assert short["payable"] is False and short["reason"]["missing"] == "{1}"


def test_t72_summoning_sick_creature_may_convoke_302_6() -> None:
    """T72 (Siege Wurm ruling; 302.6 limits only the creature's own {T} abilities)."""
    state = board({"card": "Llanowar Elves", "sick": True})
    result = pay(state, cost="{G}", convoke=True)
    assert result["payable"] is True and result["payment"]["convoked"] == ["p0"]
    assert result["payment"]["activations"] == []
    assert ask("can_pay", state, cost="{G}")["payable"] is False  # no convoke: sick, no mana


def test_t73_convoke_cannot_pay_colorless_702_51a() -> None:
    """T73 (702.51a lists only colored and generic mana): total {C}{G}, one green creature, empty pool."""
    state = board("Grizzly Bears")
    assert ask("can_pay", state, cost="{C}{G}", convoke=True)["payable"] is False
    assert pay(state, cost="{C}{G}", convoke=True)["payable"] is False
    with_c = board("Grizzly Bears", pool="{C}")
    result = pay(with_c, cost="{C}{G}", convoke=True)
    assert result["payable"] is True and result["payment"]["convoked"] == ["p0"]
    assert result["payment"]["pool_used"] == "{C}"


def test_t74_creature_tapped_for_mana_cannot_also_convoke_118_10() -> None:
    """T74 (Chord ruling; 601.2g, 118.10): Llanowar Elves taps once: for {G} or to convoke."""
    state = board("Llanowar Elves")
    assert pay(state, cost="{G}{G}", convoke=True)["payable"] is False
    one = pay(state, cost="{G}", convoke=True)
    assert one["payable"] is True
    used = one["payment"]["convoked"] + [a["permanent"] for a in one["payment"]["activations"]]
    assert used == ["p0"]
    two_elves = board("Llanowar Elves", "Llanowar Elves")
    both = pay(two_elves, cost="{G}{G}", convoke=True)
    assert both["payable"] is True
    assert pay(two_elves, cost="{G}{G}{G}", convoke=True)["payable"] is False
    tapped = board({"card": "Llanowar Elves", "tapped": True})
    assert pay(tapped, cost="{G}", convoke=True)["payable"] is False  # 702.51a: untapped only


def test_t75_multicolored_creature_pays_exactly_one_of_its_colors_702_51a() -> None:
    """T75 (Siege Wurm / Chord ruling): a white-blue creature pays {W} or {U} (or {1}), one of them."""
    familiar = "Judge's Familiar"
    assert pay(board(familiar), cost="{W}{U}", convoke=True)["payable"] is False
    for land, paid in (("Island", "{W}"), ("Plains", "{U}")):
        result = pay(board(familiar, land), cost="{W}{U}", convoke=True)
        assert result["payable"] is True and result["payment"]["convoked"] == ["p0"]
        assert result["payment"]["activations"][0]["mana"] != paid
    hybrid = pay(board(familiar), cost="{W/U}", convoke=True)
    assert hybrid["payable"] is True and hybrid["payment"]["total"] in ("{W}", "{U}")
    generic = pay(board(familiar), cost="{1}", convoke=True)
    assert generic["payable"] is True and generic["payment"]["convoked"] == ["p0"]


def test_convoke_and_springleaf_drum_share_the_creature_118_10() -> None:
    """118.10: a creature tapped for Springleaf Drum's cost can't also convoke."""
    state = board("Springleaf Drum", "Grizzly Bears")
    assert pay(state, cost="{G}{G}", convoke=True)["payable"] is False
    assert pay(state, cost="{G}", convoke=True)["payable"] is True
    assert pay(board("Springleaf Drum", "Grizzly Bears", "Grizzly Bears"), cost="{G}{G}",
               convoke=True)["payable"] is True


def test_artifact_creature_convokes_or_improvises_not_both_118_10() -> None:
    """702.51a, 702.126a, 118.10: Ornithopter taps once, for convoke or improvise."""
    state = board("Ornithopter")
    assert pay(state, cost="{2}", convoke=True, improvise=True)["payable"] is False
    one = pay(state, cost="{1}", convoke=True, improvise=True)
    assert one["payable"] is True
    assert len(one["payment"]["convoked"]) + len(one["payment"]["improvised"]) == 1


def test_default_policy_taps_lands_before_convoking_spec_6() -> None:
    """Policy prefer_lands ("tap lands before creatures"): a convoked creature counts as a
    non-land source, so lands pay first unless an earlier criterion gains from convoking:
    with two Forests, keep_colors keeps one Forest (green) untapped by convoking the Bears."""
    state = board("Grizzly Bears", "Forest", "Forest", "Forest")
    result = pay(state, cost="{1}{G}", convoke=True)
    assert result["payable"] is True and result["payment"]["convoked"] == []
    two = pay(board("Grizzly Bears", "Forest", "Forest"), cost="{1}{G}", convoke=True)
    assert two["payment"]["convoked"] == ["p0"] and len(two["payment"]["activations"]) == 1
    named = pay(state, cost="{1}{G}", convoke=True, policy=["min_convoke"])
    assert named["payment"]["convoked"] == []
    convoke_first = pay(state, cost="{1}{G}", convoke=True, policy=["min_sources"])
    assert convoke_first["payable"] is True


def test_chord_max_x_counts_convoke_702_51a() -> None:
    """702.51a with 601.2f: three Grizzly Bears and two Forests: X=2 at most."""
    state = board("Grizzly Bears", "Grizzly Bears", "Grizzly Bears", "Forest", "Forest")
    result = checked(ask("max_x", state, spell=CHORD), state, spell=CHORD)
    assert result["max_x"] == 2
    assert len(result["payment"]["convoked"]) == 3
    bears = board(*["Grizzly Bears"] * 6)  # no mana at all: X comes from convoke alone
    only = checked(ask("max_x", bears, spell=CHORD), bears, spell=CHORD)
    assert only["max_x"] == 3 and len(only["payment"]["convoked"]) == 6
    yard = board("Island", graveyard=("Opt",) * 5)
    dig = checked(ask("max_x", yard, cost="{X}{U}", delve=True), yard, cost="{X}{U}", delve=True)
    assert dig["max_x"] == 5 and len(dig["payment"]["delved"]) == 5


def test_convoking_a_mana_creature_keeps_it_out_of_keep_castable_spec_6() -> None:
    """A convoked Llanowar Elves is tapped (118.10): the payment it leaves can't still count it."""
    state = board("Llanowar Elves", "Grizzly Bears", "Forest")
    result = pay(state, cost="{G}{G}", convoke=True,
                 policy={"criteria": ["keep_castable"], "keep_castable": ["{G}"]})
    assert result["payable"] is True
    payment = result["payment"]
    used = set(payment["convoked"]) | {a["permanent"] for a in payment["activations"]}
    assert len(used) == 2  # exactly one of the three green sources stays untapped


# --- Delve (702.66) ------------------------------------------------------------------------

def test_t76_treasure_cruise_exiles_seven_and_pays_u_702_66a() -> None:
    """T76 (702.66a; Treasure Cruise ruling): ten cards in the graveyard, pool {U}."""
    state = board(pool="{U}", graveyard=("Forest",) * 10)
    result = pay(state, spell=CRUISE)
    assert result["payable"] is True
    assert result["payment"]["delved"] == ["Forest"] * 7
    assert result["payment"]["pool_used"] == "{U}"


def test_t77_delve_cannot_pay_colored_702_66a() -> None:
    """T77 (Treasure Cruise ruling): ten cards, empty pool: {U} can't be delved."""
    state = board(graveyard=("Forest",) * 10)
    result = ask("pay", state, spell=CRUISE)
    assert result["payable"] is False and result["reason"]["missing"] == "{U}"
    assert ask("can_pay", state, spell=CRUISE)["payable"] is False


def test_t78_reduction_then_delve_at_most_six_702_66b_601_2f() -> None:
    """T78 (702.66b, 601.2f): with {1} off the total is {6}{U}; at most six cards are exiled."""
    state = board(pool="{U}", graveyard=("Forest",) * 10)
    fields: dict[str, Any] = {"spell": CRUISE, "modifiers": [{"reduce": "{1}"}]}
    result = pay(state, **fields)
    assert result["payable"] is True
    assert result["payment"]["total"] == "{6}{U}"
    assert len(result["payment"]["delved"]) == 6
    many = pay(state, **fields, policy=["min_waste"])  # no criterion can ask for a seventh card
    assert len(many["payment"]["delved"]) == 6
    on_board = board("Goblin Electromancer", pool="{U}", graveyard=("Forest",) * 10)
    derived = pay(on_board, spell=CRUISE)  # the reduction read from the battlefield (601.2f)
    assert derived["payment"]["total"] == "{6}{U}" and len(derived["payment"]["delved"]) == 6


def test_delve_names_graveyard_cards_in_order_702_66a() -> None:
    """Delved cards are named as validate expects (graveyard names), generic only."""
    state = board("Island", "Island", graveyard=("Opt", "Forest", "Shock"))
    result = pay(state, cost="{3}{U}", delve=True)
    assert result["payable"] is True
    assert sorted(result["payment"]["delved"]) == ["Forest", "Opt", "Shock"]


# --- Improvise (702.126) ---------------------------------------------------------------------

def test_t79_whir_improvising_two_artifacts_702_126a() -> None:
    """T79 (702.126a; Whir of Invention ruling): X=3, two artifacts, pool {U}{U}{U}{C}."""
    state = board("Millstone", "Millstone", pool="{U}{U}{U}{C}")
    result = pay(state, spell=WHIR, x=3)
    assert result["payable"] is True
    payment = result["payment"]
    assert payment["total"] == "{3}{U}{U}{U}"
    assert sorted(payment["improvised"]) == ["p0", "p1"]
    assert payment["pool_used"] == "{U}{U}{U}{C}"


def test_t80_improvise_cannot_pay_blue_702_126a() -> None:
    """T80 (Whir ruling): five artifacts, pool {C}{C}, X=2: {U}{U}{U} can't be improvised."""
    state = board(*["Millstone"] * 5, pool="{C}{C}")
    result = ask("pay", state, spell=WHIR, x=2)
    assert result["payable"] is False
    assert result["reason"]["missing"] == "{U}{U}{U}"


def test_improvise_with_a_mana_rock_taps_it_once_118_10() -> None:
    """A Mind Stone taps for {C} or improvises, never both (118.10)."""
    state = board("Mind Stone", pool="{U}")
    assert pay(state, cost="{2}{U}", improvise=True)["payable"] is False
    result = pay(state, cost="{1}{U}", improvise=True)
    assert result["payable"] is True


# --- Brute force on tiny boards ----------------------------------------------------------------

#: Permanents that tap for one mana (lands, Llanowar Elves, Mind Stone): whether they tap for
#: it, convoke or improvise, they pay that type or one generic, once (118.10).
LANDS = {"Plains": "W", "Island": "U", "Mountain": "R", "Forest": "G", "Wastes": "C",
         "Llanowar Elves": "G", "Mind Stone": "C"}
CREATURES = {"Grizzly Bears": "G", "Raging Goblin": "R", "Judge's Familiar": "WU", "Ornithopter": ""}
ARTIFACTS = ("Millstone", "Ornithopter")


def _can(resource: tuple[str, str], symbol: str, flags: dict[str, bool]) -> bool:
    """Can this resource pay this symbol of the total (702.51a, 702.66a, 702.126a, 106)?"""
    kind, what = resource
    if kind in ("land", "pool"):
        return symbol == "1" or symbol == what
    if kind == "delve":
        return symbol == "1"
    if kind == "creature":  # what: colors; artifact creatures may also improvise
        convoke = flags["convoke"] and (symbol == "1" or (symbol != "C" and symbol in what))
        improvise = flags["improvise"] and what == "" and symbol == "1"
        return convoke or improvise
    return flags["improvise"] and symbol == "1"  # noncreature artifact


def brute_min_sources(resources: list[tuple[str, str]], symbols: list[str],
                      flags: dict[str, bool]) -> int | None:
    """Fewest counted resources (everything but pool mana) covering every symbol, each resource
    paying at most one symbol; None when impossible.  Exhaustive, for tiny boards only."""
    best: list[int | None] = [None]
    used = [False] * len(resources)

    def go(i: int, count: int) -> None:
        if best[0] is not None and count >= best[0]:
            return
        if i == len(symbols):
            best[0] = count
            return
        for r, res in enumerate(resources):
            if not used[r] and _can(res, symbols[i], flags):
                used[r] = True
                go(i + 1, count + (res[0] != "pool"))
                used[r] = False

    go(0, 0)
    return best[0]


def _random_case(rng: random.Random) -> tuple[dict[str, Any], list[tuple[str, str]], str, dict[str, bool]]:
    cards: list[str] = []
    resources: list[tuple[str, str]] = []
    flags = {"convoke": rng.random() < 0.7, "improvise": rng.random() < 0.5, "delve": rng.random() < 0.5}
    for _ in range(rng.randint(0, 2)):
        land = rng.choice(list(LANDS))
        cards.append(land)
        resources.append(("land", LANDS[land]))
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(list(CREATURES) + list(ARTIFACTS))
        cards.append(name)
        if name in CREATURES:
            resources.append(("creature", CREATURES[name]))
        elif flags["improvise"]:
            resources.append(("artifact", ""))
    graveyard = ("Opt",) * rng.randint(0, 3)
    if flags["delve"]:
        resources.extend(("delve", "") for _ in graveyard)
    pool = "".join("{" + rng.choice("WUGC") + "}" for _ in range(rng.randint(0, 1)))
    resources.extend(("pool", p[1]) for p in pool.split("}")[:-1] if p)
    generic = rng.randint(0, 3)
    colored = [rng.choice("WURGC") for _ in range(rng.randint(0, 2))]
    cost = ("{" + str(generic) + "}" if generic or not colored else "") + "".join(
        "{" + c + "}" for c in colored)
    symbols = colored + ["1"] * generic
    state = board(*cards, pool=pool, graveyard=graveyard)
    return state, resources, cost, {**flags, "_symbols": symbols}  # type: ignore[dict-item]


@pytest.mark.parametrize("seed", range(100))
def test_cpsat_equals_brute_force_on_tiny_boards(seed: int) -> None:
    """CP-SAT's fewest-sources payment with assists equals an exhaustive search (702.51a,
    702.66a, 702.126a, 118.10), and every payment is legal by validate."""
    result, want, case = _solve_case(seed)
    state, resources, cost, flags = case
    assert result["payable"] is (want is not None), (cost, resources, flags, result)
    assert ask("can_pay", state, cost=cost, **flags)["payable"] is (want is not None)
    if want is not None:
        p = result["payment"]
        got = len(p["activations"]) + len(p["convoked"]) + len(p["improvised"]) + len(p["delved"])
        assert got == want, (cost, resources, flags, p)


def _solve_case(seed: int) -> tuple[dict[str, Any], int | None, tuple[Any, ...]]:
    """CP-SAT's answer (fewest sources, validated) and the brute force's optimum for one seed."""
    state, resources, cost, flags = _random_case(random.Random(seed))
    symbols: list[str] = flags.pop("_symbols")  # type: ignore[assignment]
    want = brute_min_sources(resources, symbols, flags)
    fields = {"cost": cost, "policy": ["min_sources"], "backend": "cpsat", **flags}
    result = checked(ask("pay", state, **fields), state, **fields)
    return result, want, (state, resources, cost, flags)


def test_brute_force_cases_use_every_assist() -> None:
    """A guard on the generator: its boards make the optimiser convoke, improvise and delve."""
    seen = {"convoked": 0, "improvised": 0, "delved": 0}
    for seed in range(100):
        result, _, _ = _solve_case(seed)
        if result["payable"]:
            for key in seen:
                seen[key] += bool(result["payment"][key])
    assert min(seen.values()) >= 3, seen


def test_cost_text_round_trips() -> None:
    """The brute force's costs parse (a guard on the generator itself)."""
    assert ManaCost.parse("{2}{W}{C}").format() == "{2}{W}{C}"


def test_to_payment_gives_activations_the_members_no_assist_tapped_118_10() -> None:
    """Two Llanowar Elves in one class: one convokes, the other taps for {G}; the payment
    names two different permanents whichever member the solution's activation indexed."""
    from manasolver.solver.backends.problem import Solution, to_payment
    from manasolver.solver.queries import prepare

    state = board("Llanowar Elves", "Llanowar Elves")
    req = build_request({"query": "pay", "state": state, "cost": "{G}{G}", "convoke": True})
    problem = prepare(req, "optimal", 0)
    (k,) = [i for i, cls in enumerate(problem.supply.classes) if cls.creature]
    (g,) = [i for i, grp in enumerate(problem.assists.groups) if grp.cls == k]
    assert problem.assists.class_untapped[k] == 2 and problem.has_assists
    sol = Solution(0, 0, [(k, 0, 0)], [(("act", k, 0, 16), 16, ("spell", 16), 1),
                                       (("convoke", g), 16, ("spell", 16), 1)],
                   assists=[("convoke", g, 1)])
    payment = to_payment(problem, sol)
    assert payment.convoked == ("p0",)
    assert [a.permanent for a in payment.activations] == ["p1"]
    assert validate(req, payment).legal


def test_convoke_is_not_mana_spent_for_adamant_or_converge_702_51a() -> None:
    """702.51a: a convoking creature is tapped "rather than pay that mana", so it spends no
    mana: adamant (spend_color) and converge (max_colors_spent) count only real mana."""
    state = board("Forest", "Forest", "Grizzly Bears")
    adamant = ask("pay", state, cost="{G}{G}{G}", convoke=True, policy={"spend_color": {"G": 3}})
    assert adamant["payable"] is False
    assert pay(state, cost="{G}{G}{G}", convoke=True)["payable"] is True
    colors = board("Forest", "Judge's Familiar", "Plains")
    result = pay(colors, cost="{2}", convoke=True, policy=["max_colors_spent"])
    payment = result["payment"]
    assert payment["convoked"] == [] and len(payment["activations"]) == 2  # {G} and {W} spent
