"""The playground as a client of the plan: the activations in executable order, each symbol linked
to what paid it by the engine's allocation, the warnings, sources clicked to require, exclude or
preserve, and the Commander example paid by hand with only the sources ``guide`` allows lit.

The same real server and Debian Chromium as tests/interface/test_playground.py (its fixtures).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from manasolver.solver.service.demo import example_state
from manasolver.solver.payment import Payment
from manasolver.solver.service.protocol import answer, build_request
from manasolver.solver.validate import validate

# The browser and server fixtures of the playground's own tests, loaded from their file.
_SPEC = importlib.util.spec_from_file_location("playground_fixtures", Path(__file__).with_name("test_playground.py"))
assert _SPEC is not None and _SPEC.loader is not None
_FIXTURES = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_FIXTURES)
Browser = _FIXTURES.Browser
browser = _FIXTURES.browser
server = _FIXTURES.server
_ask = _FIXTURES._ask


def _example(page: Any, name: str) -> None:
    page.click(f'button.example[data-name="{name}"]')
    page.select_option("#query-kind", "pay")


def test_filter_plan_drawn_in_executable_order_with_its_allocation(browser: Browser, server: str) -> None:
    page = browser.page(server + "/")
    _example(page, "filters")
    page.fill("#cost", "{U}{U}{R}{R}")
    _ask(page)
    payment = page.evaluate("playground.answer()")["payment"]
    order = page.eval_on_selector_all("ol.activations li", "nodes => nodes.map(n => n.dataset.permanent)")
    assert order == [a["permanent"] for a in payment["activations"]] == ["island", "bluffs", "thicket", "gate"]
    steps = page.eval_on_selector_all(".perm.paid",
                                      "nodes => nodes.map(n => [n.dataset.id, n.querySelector('.step').textContent])")
    assert dict(steps) == {"island": "1", "bluffs": "2", "thicket": "3", "gate": "4"}
    # each symbol linked to the permanent the engine's allocation names
    links = page.eval_on_selector_all(".cost-sym", "nodes => nodes.map(n => [n.dataset.symbol, n.dataset.sources])")
    paid_by = [payment["activations"][e["paid_by"]["activation"]]["permanent"] for e in payment["allocation"]]
    assert [sources for _s, sources in links] == paid_by
    assert page.errors == []
    page.close()


def test_warnings_are_listed_before_confirming(browser: Browser, server: str) -> None:
    page = browser.page(server + "/")
    page.click('button.example[data-name="phyrexian"]')
    page.click('#questions button.question:has-text("Gitaxian Probe")')
    page.wait_for_selector("#answer[data-status=answered]")
    codes = page.eval_on_selector_all("ul.warnings li", "nodes => nodes.map(n => n.dataset.code)")
    assert codes == page.evaluate("playground.answer()")["payment"]["warnings"] == ["pays_life"]
    page.close()


def test_clicking_sources_requires_excludes_and_preserves_them(browser: Browser, server: str) -> None:
    page = browser.page(server + "/")
    _example(page, "basics")
    page.fill("#cost", "{G}")
    page.click('.perm[data-id="forest"] button.src[data-kind="exclude"]')
    assert page.evaluate("playground.query()")["sources"] == {"exclude": ["forest"]}
    assert "src-exclude" in (page.get_attribute('.perm[data-id="forest"]', "class") or "")
    _ask(page)
    got = page.evaluate("playground.answer()")
    assert [a["permanent"] for a in got["payment"]["activations"]] == ["everywhere"]
    page.click('.perm[data-id="forest"] button.src[data-kind="preserve"]')  # one list at a time
    assert page.evaluate("playground.query()")["sources"] == {"preserve": ["forest"]}
    page.click('.perm[data-id="forest"] button.src[data-kind="require"]')
    query = page.evaluate("playground.query()")
    assert query["sources"] == {"require": ["forest"]}
    _ask(page)
    assert page.evaluate("playground.answer()") == answer(query)
    assert [a["permanent"] for a in page.evaluate("playground.answer()")["payment"]["activations"]] == ["forest"]
    page.close()


def test_the_commander_example_paid_by_hand_with_only_legal_sources_lit(browser: Browser, server: str) -> None:
    """Issue's 'done when': a person pays the Commander example by hand; at every click exactly the
    sources ``guide`` allows are lit, and the payment made is legal."""
    page = browser.page(server + "/")
    _example(page, "commander")
    cost = "{2}{W}{U}{B}"
    page.fill("#cost", cost)
    page.click("#by-hand")
    state = example_state("commander")
    for _click in range(12):
        page.wait_for_selector("#answer[data-status=answered] .verdict[data-completable]")
        partial = page.evaluate("playground.partial()")
        expected = answer({"query": "guide", "state": state, "cost": cost, "partial": partial})
        assert page.evaluate("playground.answer()") == expected
        lit = set(page.eval_on_selector_all(".perm.lit", "nodes => nodes.map(n => n.dataset.id)"))
        assert lit == {n["permanent"] for n in expected["next"]}
        if page.get_attribute("#answer .verdict", "data-done") == "true":
            break
        # the player follows the engine's best completion, one activation at a time
        step = expected["completion"]["activations"][len(partial)]
        pid = step["permanent"]
        assert pid in lit
        button = page.locator(f'.perm[data-id="{pid}"] button.hand-step[data-mana="{step["mana"]}"]'
                              f'[data-ability="{step["ability"]}"]')
        button.click()
    assert page.get_attribute("#answer .verdict", "data-done") == "true"
    final = page.evaluate("playground.answer()")["completion"]
    made = page.evaluate("playground.partial()")
    assert [(a["permanent"], a["mana"]) for a in final["activations"][:len(made)]] == \
        [(s["permanent"], s["mana"]) for s in made]
    req = build_request({"query": "pay", "state": state, "cost": cost})
    assert validate(req, Payment.from_json(final)).legal
    assert page.errors == []
    page.close()
