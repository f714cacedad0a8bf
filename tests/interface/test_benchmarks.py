"""The benchmark generators, the phase.rs driver and a quick benchmark run.

Benchmarks check their answers and never assert a wall-clock time:
these tests check that the boards are real and load, that the costs are what
they claim, that the quick run answers every case and that its answers pass
``validate``; no time is compared with anything.
"""

from __future__ import annotations

import json
from collections import Counter

import manasolver.models.board.load as board_mod
import pytest
from manasolver.models.cost import ManaCost
from manasolver.benchmarks import boards as bd
from manasolver.benchmarks import cases as bcases
from manasolver.benchmarks import phase_driver as benchphase
from manasolver.benchmarks import report as benchreport
from manasolver.benchmarks import runner as bench


def _all_boards() -> list[dict]:  # type: ignore[type-arg]
    return [bd.small_board(0), bd.small_board(3), bd.commander_board(0), bd.commander_board(5),
            bd.lands_board(300, 0), bd.lands_board(1000, 1), bd.cataracts_board()]


def test_boards_have_the_sizes_the_figures_name() -> None:
    assert len(bd.small_board(0)["battlefield"]) == 10
    assert len(bd.commander_board(0)["battlefield"]) == 40
    assert len(bd.lands_board(300)["battlefield"]) == 300
    assert len(bd.lands_board(1000)["battlefield"]) == 1000
    cataracts = Counter(p["card"] for p in bd.cataracts_board()["battlefield"])
    assert cataracts["Cascading Cataracts"] == 3 and sum(cataracts.values()) == 33


def test_generators_are_deterministic_per_seed() -> None:
    assert bd.commander_board(4) == bd.commander_board(4)
    assert bd.commander_board(4) != bd.commander_board(5)
    assert bd.lands_board(300, 2) == bd.lands_board(300, 2)
    assert bd.costs_for(9, 20) == bd.costs_for(9, 20)


def test_commander_board_has_the_promised_kinds_of_sources() -> None:
    names = [p["card"] for p in bd.commander_board(0)["battlefield"]]
    assert "Command Tower" in names and "Sol Ring" in names and "Treasure" in names
    assert sum(n in bd.DUALS for n in names) == 6
    assert sum(n in bd.PAIN_LANDS for n in names) == 4
    assert sum(n in bd.FILTER_LANDS for n in names) == 3
    assert sum(n in bd.SIGNETS for n in names) == 3
    assert sum(n in bd.DORKS for n in names) == 3


def test_every_generated_board_loads_with_real_cards(db) -> None:  # type: ignore[no-untyped-def]
    for board in _all_boards():
        state = board_mod.load_state(board, db)
        assert len(state.battlefield) == len(board["battlefield"])
        # every permanent resolved to a real card of the bundled database, by name
        for perm, raw in zip(state.battlefield, board["battlefield"]):
            assert perm.card.name.lower() == raw["card"].lower()


def test_refusal_boards_load(db) -> None:  # type: ignore[no-untyped-def]
    for cards, cost in bd.PEER_REFUSALS:
        board = {"players": [{"name": "you"}], "battlefield": [bd.permanent(f"r{i}", n) for i, n in enumerate(cards)]}
        assert len(board_mod.load_state(board, db).battlefield) == len(cards)
        assert ManaCost.parse(cost).format() == cost


def test_spell_costs_are_the_printed_costs_of_real_cards(db) -> None:  # type: ignore[no-untyped-def]
    for name, cost in bd.SPELL_COSTS:
        card = db.get(name)
        assert card.mana_cost is not None and card.mana_cost.format() == cost, name


def test_tight_cost_needs_all_but_two_lands_and_over_cost_breaks_hall() -> None:
    board = bd.lands_board(300, 0)
    tight = ManaCost.parse(bd.tight_cost(board, 0))
    assert tight.mana_value() == 298
    over = ManaCost.parse(bd.over_cost(board, 0))
    assert over.mana_value() == 298
    # the over cost asks one color of more lands than can make it (Hall's condition fails)
    letters = [s.text.strip("{}") for s in over.symbols if s.text.strip("{}") in "WUBRG"]
    color, asked = Counter(letters).most_common(1)[0]
    able = sum(1 for p in board["battlefield"]
               if color in (bd.COLOR_OF_BASIC.get(p["card"]) or bd.DUALS.get(p["card"], "")))
    assert asked == able + 1


def test_percentile_is_nearest_rank() -> None:
    samples = [float(i) for i in range(1, 101)]
    assert bcases.percentile(samples, 50) == 50.0
    assert bcases.percentile(samples, 99) == 99.0
    assert bcases.percentile([3.0], 99) == 3.0
    assert bcases.percentile([], 99) == 0.0


def test_phase_driver_positions_boards_and_autotaps() -> None:
    if benchphase.phase_missing():
        pytest.skip(benchphase.phase_missing())
    cards = [benchphase.PeerCard("Plains", "", "Basic Land — Plains", "({T}: Add {W}.)"),
             benchphase.PeerCard("Island", "", "Basic Land — Island", "({T}: Add {U}.)")]
    driver = benchphase.PhaseDriver(cards, ["{W}{W/U}", "{3}"])
    board = [benchphase.PeerPermanent("Plains"), benchphase.PeerPermanent("Island")]
    pos = driver.position(board, "{W}{W/U}")
    offered, _, _ = driver.castable(pos, repeats=1)
    assert offered
    ok, _, tapped, floating = driver.cast(pos)
    assert ok and sorted(tapped) == ["Island", "Plains"] and floating == 0
    # two lands can't pay three mana, and phase.rs agrees
    offered, _, _ = driver.castable(driver.position(board, "{3}"), repeats=1)
    assert not offered
    # a tapped land is really tapped in the position
    tapped_board = [benchphase.PeerPermanent("Plains", tapped=True), benchphase.PeerPermanent("Island")]
    offered, _, _ = driver.castable(driver.position(tapped_board, "{W}{W/U}"), repeats=1)
    assert not offered


def test_phase_driver_carries_summoning_sickness() -> None:
    """CR 302.6: a creature's {T} mana ability can't be activated unless its controller has
    controlled it continuously since their most recent turn began; the driver must tell
    phase.rs which creatures are sick, or the peer would be compared on a different board."""
    if benchphase.phase_missing():
        pytest.skip(benchphase.phase_missing())
    cards = [benchphase.PeerCard("Forest", "", "Basic Land — Forest", "({T}: Add {G}.)"),
             benchphase.PeerCard("Llanowar Elves", "{G}", "Creature — Elf Druid", "{T}: Add {G}.", ("G",), "1", "1")]
    driver = benchphase.PhaseDriver(cards, ["{G}{G}"])
    for sick, castable in ((False, True), (True, False)):
        board = [benchphase.PeerPermanent("Forest"), benchphase.PeerPermanent("Llanowar Elves", sick=sick)]
        offered, _, _ = driver.castable(driver.position(board, "{G}{G}"), repeats=1)
        assert offered is castable


def test_quick_bench_answers_every_case_and_every_payment_validates(tmp_path) -> None:  # type: ignore[no-untyped-def]
    status = bench.main(["--quick", "--out", str(tmp_path), "--no-plots", "--json"])
    results = json.loads((tmp_path / "results.json").read_text())
    checks = results["checks"]
    assert checks["answered"] + checks["errors"] + checks["skipped_for_time_budget"] == checks["cases"]
    assert checks["answered"] > 0
    assert checks["invalid"] == 0 and checks["with_problems"] == 0, checks["problems"]
    assert checks["validated"] + checks["validate_unavailable"] == checks["payable"]
    # every cost phase.rs refuses is payable by the rules (CR 107.4e, 107.4f, 601.2f)
    refusals = [c for c in results["cases"] if c["kind"] == "refusal"]
    assert refusals and all(c["payable"] for c in refusals), refusals
    batch = results["batch"]
    assert batch["errors"] == 0 and batch["answers"] == batch["lines"]
    assert batch["process_vs_in_process_mismatches"] == 0
    assert results["startup"]["card Forest"]["answer_ok"]
    assert (tmp_path / "results.md").read_text().startswith("# manasolver benchmarks")
    assert status == 0


def test_report_writes_json_markdown_and_plots(tmp_path) -> None:  # type: ignore[no-untyped-def]
    case = bcases.Case(40, "commander-0", bd.commander_board(0), "{1}{U}", "real", payable=True, valid=True,
                      can_pay_s=[1e-4, 2e-4], pay_s=[1e-3, 2e-3])
    results = {"machine": benchreport.machine(), "engine": "ok", "phase": "skipped",
               "cases": [case.summary()], "disagreements": [],
               "figures": benchreport.figures([case], []), "checks": benchreport.checks([case], 50.0),
               "startup": {"card Forest": {"median_s": 0.1, "first_s": 0.1, "runs": 1, "answer_ok": True}}}
    paths = benchreport.write(results, tmp_path, plots=True)
    names = {p.name for p in paths}
    assert {"results.json", "results.md"} <= names
    assert any(n.startswith("pay_40.") for n in names) and any(n.startswith("startup.") for n in names)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["figures"]["pay 40"]["median_ms"] == 1.5 and "_samples" not in saved["figures"]["pay 40"]
    assert "Xeon" in saved["machine"]["cpu"] or saved["machine"]["cpu"]


def test_commander_board_names_a_five_color_commander(db) -> None:  # type: ignore[no-untyped-def]
    """CR 903.4: Command Tower and Arcane Signet make mana of the commander's color identity,
    so the Commander board names one (Kenrith: {R}, {G}, {W}, {U}, {B} in its abilities)."""
    board = bd.commander_board(0)
    you = board["players"][0]
    assert you["commander"] == [bd.COMMANDER] and you["life"] == 40
    state = board_mod.load_state(board, db)
    assert [c.name for c in state.players[0].commander] == [bd.COMMANDER]
    assert bd.COMMANDER in bd.board_cards(board)


def test_phase_driver_plays_commander_for_command_tower() -> None:
    """phase.rs reads the commander's color identity from the card (CR 903.4), cost and rules
    text both; without a commander, Command Tower adds nothing (CR 903.4f)."""
    if benchphase.phase_missing():
        pytest.skip(benchphase.phase_missing())
    kenrith = benchphase.PeerCard(
        "Kenrith, the Returned King", "{4}{W}", "Legendary Creature — Human Noble",
        "{R}: All creatures gain trample and haste until end of turn.\n{1}{G}: Put a +1/+1 counter on "
        "target creature.\n{3}{U}: Target player draws a card.\n{4}{B}: Put target creature card from a "
        "graveyard onto the battlefield under its owner's control.", ("W",), "5", "5")
    assert kenrith.mtgjson()["colorIdentity"] == ["W", "U", "B", "R", "G"]
    tower = benchphase.PeerCard("Command Tower", "", "Land",
                                "{T}: Add one mana of any color in your commander's color identity.")
    forest = benchphase.PeerCard("Forest", "", "Basic Land — Forest", "({T}: Add {G}.)")
    driver = benchphase.PhaseDriver([kenrith, tower, forest], ["{U}{G}"])
    board = [benchphase.PeerPermanent("Forest"), benchphase.PeerPermanent("Command Tower")]
    with_commander = driver.position(board, "{U}{G}", life=40, commander=(kenrith.name,))
    assert driver.castable(with_commander, repeats=1)[0]
    assert not driver.castable(driver.position(board, "{U}{G}"), repeats=1)[0]


def test_parser_coverage_writes_its_report_in_a_folder_given_as_out(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``parser_coverage --out DIR`` writes ``parser_coverage.md`` in the folder (a file path is
    the report's own name), on a card file of two real cards, one with a mana ability."""
    import gzip

    from manasolver.benchmarks import parser_coverage
    data = tmp_path / "cards.jsonl.gz"
    rows = [{"name": "Llanowar Elves", "mana_cost": "{G}", "type_line": "Creature — Elf Druid", "colors": ["G"],
             "oracle_text": "{T}: Add {G}.", "layout": "normal", "mana_value": 1, "power": "1", "toughness": "1"},
            {"name": "Grizzly Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "colors": ["G"],
             "oracle_text": "", "layout": "normal", "mana_value": 2, "power": "2", "toughness": "2"}]
    with gzip.open(data, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(json.dumps(r) for r in rows) + "\n")
    folder = tmp_path / "out"
    folder.mkdir()
    assert parser_coverage.main(["--data", str(data), "--out", str(folder)]) == 0
    report = (folder / "parser_coverage.md").read_text(encoding="utf-8")
    assert report.startswith("# Oracle parser coverage") and "**1**" in report
    named = tmp_path / "report.md"
    assert parser_coverage.main(["--data", str(data), "--out", str(named)]) == 0 and named.exists()


def test_answers_compare_names_each_kind_of_difference() -> None:
    """`answers --compare` names what differs: the same activations with the symbols matched otherwise
    is a tie; a refusal that is now an answer, a reworded refusal and an older enumeration format are
    named as such; a payment spending other sources, or another payability, has changed."""
    from manasolver.benchmarks.answers import difference
    act = [{"permanent": "a", "ability": 0, "costs": ["{T}"], "mana": "{G}"},
           {"permanent": "b", "ability": 0, "costs": ["{T}"], "mana": "{R}"}]
    old = {"payable": True, "payment": {"activations": act, "allocation": [{"symbol": "{1}", "paid_by": 0}]}}
    same = {"payable": True, "payment": {"activations": act[::-1], "life": 0,
                                         "allocation": [{"symbol": "{1}", "paid_by": 1}]}}
    other = {"payable": True, "payment": {"activations": act[:1] + [{**act[1], "permanent": "c"}]}}
    refused = {"payable": None, "unsupported": [{"card": "Kadena", "clause": "x"}]}
    assert difference(old, same) == "tie"
    assert difference(old, other) == "changed"
    assert difference(old, {"payable": False}) == "changed"
    assert difference(refused, old) == "answered now"
    assert difference(refused, {**refused, "unsupported": [{"card": "Kadena", "clause": "y"}]}) == "refusal reworded"
    assert difference({"time_bound": True, "payable": None}, {"complete": False}) == "format"
