"""The playground page in a real headless browser, served by a real ``manasolver serve``.

Debian's Chromium (``/usr/bin/chromium``) driven by Playwright through its executable path.
Without the browser (or Playwright) the tests skip, except in CI (``CI`` set), where they fail:
``.ci/run`` installs the browser when it is missing.  Every request the browser makes is
recorded, and the page must never ask anything but the server it came from.

``MANASOLVER_SCREENSHOT=benchmarks/results/playground.png`` keeps a screenshot of the
Commander board with its answer drawn (the committed one was made so).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from served import serving

from manasolver.solver.service.demo import example_state
from manasolver.solver.service.protocol import answer

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
COST = "{2}{W/U}{B/P}"


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why}: CI must run the browser tests (.ci/run installs chromium)")
    pytest.skip(why)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as url:
        yield url.rstrip("/")


class Browser:
    """One browser for the module, and every URL it requested."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.requested: list[str] = []
        context.on("request", lambda request: self.requested.append(request.url))

    def page(self, url: str) -> Any:
        page = self.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.errors = errors
        page.goto(url)
        page.wait_for_selector("body[data-status=ready]")
        return page


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install '.[test]')")
    profile = tempfile.mkdtemp(prefix="playground-profile-")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=FLAGS, viewport={"width": 1500, "height": 1100})
        try:
            yield Browser(context)
        finally:
            context.close()
    shutil.rmtree(profile, ignore_errors=True)


def _ask(page: Any) -> None:
    page.click("#ask")
    page.wait_for_selector("#answer[data-status=answered], #answer[data-status=error]")


def _type_card(page: Any, input_selector: str, name: str) -> None:
    """Type ``name`` and pick it from the completions the server offered (the field is filled up
    to the name's last letter, which is typed as a key press: the completions of every letter
    typed one at a time are the same request, made forty times more often)."""
    field = page.locator(input_selector)
    field.click()
    field.fill(name[:-1])
    field.press_sequentially(name[-1])
    choice = page.locator(f"{input_selector} ~ ul.suggestions li[data-name={json.dumps(name)}]")
    choice.click()


def _set_number(page: Any, selector: str, value: int) -> None:
    page.fill(selector, str(value))
    page.dispatch_event(selector, "change")


def _build_commander(page: Any) -> None:
    """The Commander example, built from the page: every card typed, then toggled and set."""
    example = example_state("commander")
    for i, player in enumerate(example["players"]):
        _set_number(page, f'.player[data-index="{i}"] input[data-field="life"]', player["life"])
        for field in ("hand", "commander", "graveyard"):
            for card in player.get(field, []):
                _type_card(page, f'.player[data-index="{i}"] .cards-line[data-field="{field}"] input.card-add', card)
    for i, perm in enumerate(example["battlefield"]):
        if page.input_value("#add-controller") != perm.get("controller", "you"):
            page.select_option("#add-controller", perm.get("controller", "you"))
        _type_card(page, "#add-card", perm["card"])
        page.wait_for_selector(f'.perm[data-index="{i}"]')
        for flag in ("tapped", "sick"):
            if perm.get(flag):
                page.check(f'.perm[data-index="{i}"] input.{flag}')


def _same_board_but_ids(built: dict[str, Any], example: dict[str, Any]) -> None:
    assert [p["name"] for p in built["players"]] == [p["name"] for p in example["players"]]
    for mine, theirs in zip(built["players"], example["players"]):
        for field in ("life", "hand", "commander", "graveyard"):
            assert mine.get(field) == theirs.get(field), field
    assert len(built["battlefield"]) == len(example["battlefield"])
    for mine, theirs in zip(built["battlefield"], example["battlefield"]):
        for field in ("card", "tapped", "sick"):
            assert mine.get(field) == theirs.get(field), (field, mine, theirs)
        assert mine.get("controller", "you") == theirs.get("controller", "you")


def _cards_tapped(result: dict[str, Any], board: dict[str, Any]) -> Counter[tuple[str, str]]:
    names = {p["id"]: p["card"] for p in board["battlefield"]}
    return Counter((names[a["permanent"]], a["mana"]) for a in result["payment"]["activations"])


def test_commander_example_typed_in_and_its_payment_drawn(browser: Browser, server: str) -> None:
    """Issue 13's 'done when': the Commander board built by typing card names, {2}{W/U}{B/P}
    asked, and the answer read off the board: what is tapped, for what, what paid each symbol."""
    page = browser.page(server + "/")
    _build_commander(page)
    built = page.evaluate("playground.board()")
    example = example_state("commander")
    _same_board_but_ids(built, example)

    page.fill("#cost", COST)
    drawn = page.eval_on_selector_all("#cost-drawn [data-symbol]", "nodes => nodes.map(n => n.dataset.symbol)")
    assert drawn == ["{2}", "{W/U}", "{B/P}"]
    _ask(page)
    sent = page.evaluate("playground.query()")
    expected = answer({"query": "pay", "state": built, "cost": COST})
    assert sent["cost"] == COST and "policy" not in sent
    assert page.evaluate("playground.answer()") == expected
    # the same board as the bundled file: the same cards tapped for the same mana
    assert _cards_tapped(expected, built) == _cards_tapped(answer({"query": "pay", "state": example, "cost": COST}),
                                                            example)
    payment = expected["payment"]
    acts = {a["permanent"]: a for a in payment["activations"]}
    assert page.get_attribute("#answer .verdict", "data-payable") == "true"
    # the permanents tapped, highlighted on the board with the mana each gave
    paid = page.eval_on_selector_all(
        ".perm.paid", "nodes => nodes.map(n => [n.dataset.id, n.querySelector('.gave').dataset.mana])")
    assert {pid: mana for pid, mana in paid} == {pid: a["mana"] for pid, a in acts.items()}
    unpaid_tapped = page.eval_on_selector_all(".perm:not(.paid)", "nodes => nodes.map(n => n.dataset.id)")
    assert set(unpaid_tapped).isdisjoint(acts)
    # each symbol of the cost linked to what paid it
    links = page.eval_on_selector_all(".cost-sym", "nodes => nodes.map(n => ({...n.dataset}))")
    assert [link["symbol"] for link in links] == ["{2}", "{W/U}", "{B/P}"]
    choices = {c["symbol"]: c["paid_as"] for c in payment["choices"]}
    used: list[str] = []
    for link in links:
        sources = link["sources"].split()
        used += sources
        if link["symbol"] == "{2}":
            assert len(sources) == 2
        else:
            assert link["paidAs"] == choices[link["symbol"]]
            if choices[link["symbol"]] == "life":
                assert sources == [] and link["life"] == "1"
            else:
                assert [acts[s]["mana"] for s in sources] == [choices[link["symbol"]]]
    assert Counter(used) == Counter(a["permanent"] for a in payment["activations"])
    # life and energy paid, floating mana
    assert page.inner_text("dl.facts dd.life") == str(payment["life"])
    assert page.inner_text("dl.facts dd.energy") == str(payment["energy"])
    assert page.get_attribute("dl.facts dd.floating .mana", "data-mana") == payment["floating"]
    # hovering a symbol lights the permanents that paid it
    page.hover('.cost-sym[data-symbol="{2}"]')
    lit = page.eval_on_selector_all(".perm.linked", "nodes => nodes.map(n => n.dataset.id)")
    assert sorted(lit) == sorted(links[0]["sources"].split())
    shot = os.environ.get("MANASOLVER_SCREENSHOT")
    if shot:
        page.mouse.move(0, 0)
        page.screenshot(path=shot)
    assert page.errors == []
    page.close()


def test_phyrexian_life_paid_is_drawn(browser: Browser, server: str) -> None:
    """The phyrexian example's Gitaxian Probe under the policy min_sources: {U/P} paid with
    2 life, drawn on its symbol and in the life paid (and the policy sent as the page shows it)."""
    page = browser.page(server + "/")
    page.click('button.example[data-name="phyrexian"]')
    page.click('#questions button.question:has-text("Gitaxian Probe")')
    page.wait_for_selector("#answer[data-status=answered]")
    query = page.evaluate("playground.query()")
    assert query["cost"] == "{U/P}" and query["policy"] == ["min_sources"]
    assert page.is_checked('#policy li[data-name="min_sources"] input')
    assert not page.is_checked('#policy li[data-name="min_life"] input')
    expected = answer({"query": "pay", "state": example_state("phyrexian"), "cost": "{U/P}",
                       "policy": ["min_sources"]})
    assert page.evaluate("playground.answer()") == expected
    payment = expected["payment"]
    assert payment["life"] == 2 and payment["activations"] == []
    assert page.inner_text("dl.facts dd.life") == "2"
    assert page.get_attribute('.cost-sym[data-symbol="{U/P}"]', "data-life") == "1"
    assert page.locator(".perm.paid").count() == 0
    page.close()


def test_an_unpayable_cost_shows_what_is_missing(browser: Browser, server: str) -> None:
    page = browser.page(server + "/")
    page.click('button.example[data-name="basics"]')
    page.select_option("#query-kind", "pay")
    cost = "{W}{W}{U}{U}"
    page.fill("#cost", cost)
    _ask(page)
    expected = answer({"query": "pay", "state": example_state("basics"), "cost": cost})
    assert expected["payable"] is False and expected["reason"]["missing"]
    assert page.evaluate("playground.answer()") == expected
    assert page.get_attribute("#answer .verdict", "data-payable") == "false"
    assert page.get_attribute(".reason", "data-code") == expected["reason"]["code"]
    assert page.get_attribute(".missing .mana", "data-mana") == expected["reason"]["missing"]
    drawn = page.eval_on_selector_all(".missing .mana [data-symbol]", "nodes => nodes.map(n => n.dataset.symbol)")
    assert "".join(drawn) == expected["reason"]["missing"]
    assert page.locator(".perm.paid").count() == 0
    page.close()


def test_errors_are_shown_at_the_field_they_name(browser: Browser, server: str) -> None:
    """A bad symbol at its place in the cost (``cost[1]``); an unknown card (in a board given as a
    link: the card fields add only names the search knows) on its tile."""
    page = browser.page(server + "/")
    page.click('button.example[data-name="basics"]')
    page.select_option("#query-kind", "pay")
    page.fill("#cost", "{2}{K}")
    _ask(page)
    expected = answer({"query": "pay", "state": example_state("basics"), "cost": "{2}{K}"})
    where = expected["error"]["where"]
    assert where == "cost[1]"
    assert page.get_attribute(".field-error", "data-where") == where
    assert "has-error" in (page.get_attribute("#cost", "class") or "")
    assert "has-error" in (page.get_attribute('#cost-drawn [data-index="1"]', "class") or "")
    assert expected["error"]["message"] in page.inner_text(".field-error")

    page.close()

    board = example_state("basics")  # an unknown card comes only in a board given whole, as a link
    count = len(board["battlefield"])
    board["battlefield"].append({"id": "typo", "card": "Forrest"})
    page = browser.page(server + "/#" + urlencode({"board": json.dumps(board), "cost": "{G}"}))
    _ask(page)
    error = page.evaluate("playground.answer()")["error"]
    assert error["code"] == "unknown_card" and error["where"] == f"battlefield[{count}].card"
    tile = page.locator(f'.perm[data-index="{count}"]')
    assert tile.locator(".field-error").count() == 1 and "Forest" in tile.locator(".field-error").inner_text()
    assert "has-error" in (tile.locator(".perm-name").get_attribute("class") or "")
    page.close()


def test_sources_left_out_as_unsupported_are_named_on_the_board(browser: Browser, server: str) -> None:
    """The protocol: Deranged Assistant's "{T}, Mill a card" is not modelled (no library on the board);
    the payment is legal and the answer names it under ``unsupported``, listed and marked on its
    tile."""
    page = browser.page(server + "/")
    page.click("#new-board")
    _type_card(page, "#add-card", "Deranged Assistant")
    _type_card(page, "#add-card", "Forest")
    page.wait_for_selector('.perm[data-index="1"]')
    page.fill("#cost", "{G}")
    _ask(page)
    board = page.evaluate("playground.board()")
    assert [p["card"] for p in board["battlefield"]] == ["Deranged Assistant", "Forest"]
    expected = answer({"query": "pay", "state": board, "cost": "{G}"})
    assert page.evaluate("playground.answer()") == expected
    named = [u["permanent"] for u in expected["unsupported"]]
    assert named == [board["battlefield"][0]["id"]]
    assert page.eval_on_selector_all(".unsupported li", "nodes => nodes.map(n => n.dataset.permanent)") == named
    assert page.eval_on_selector_all(".perm.unsupported", "nodes => nodes.map(n => n.dataset.id)") == named
    page.close()


def test_the_board_in_the_address_reproduces_it(browser: Browser, server: str) -> None:
    page = browser.page(server + "/")
    page.click('button.example[data-name="commander"]')
    page.check('.perm[data-index="0"] input.tapped')
    page.fill('.perm[data-index="1"] input.counters', "charge=2")
    page.dispatch_event('.perm[data-index="1"] input.counters', "change")
    page.fill("#cost", "{X}{G}")
    page.select_option("#query-kind", "max_x")
    page.click("#policy-box summary")
    page.uncheck('#policy li[data-name="keep_castable"] input')
    page.click('#policy li[data-name="min_sources"] button.up')  # before prefer_lands now
    page.evaluate("playground.flushAddress()")
    board = page.evaluate("playground.board()")
    assert board["battlefield"][0]["tapped"] is True and board["battlefield"][1]["counters"] == {"charge": 2}
    url = page.url
    assert "#board=" in url
    query = page.evaluate("playground.query()")
    assert query["policy"] == ["no_sacrifice", "min_life", "keep_colors", "min_waste", "min_sources",
                               "prefer_lands", "use_pool"]
    page.close()

    again = browser.page(url)  # a new tab from the link
    assert again.evaluate("playground.board()") == board
    assert again.evaluate("playground.query()") == query
    assert again.is_checked('.perm[data-index="0"] input.tapped')
    assert again.input_value("#cost") == "{X}{G}" and again.input_value("#query-kind") == "max_x"
    again.reload()
    again.wait_for_selector("body[data-status=ready]")
    assert again.evaluate("playground.board()") == board
    _ask(again)
    expected = answer(query)
    assert again.evaluate("playground.answer()") == expected
    assert again.inner_text(".max-x") == f"Largest X: {expected['max_x']}"
    again.close()


def test_the_page_asks_only_its_own_server(browser: Browser, server: str) -> None:
    """Runs last: every request of every test above went to the server's own origin."""
    page = browser.page(server + "/")
    page.click('button.example[data-name="filters"]')
    _type_card(page, "#add-card", "Sol Ring")
    _ask(page)
    page.close()
    assert browser.requested
    assert [url for url in browser.requested if not url.startswith(server + "/")] == []
    assert any(url.endswith("/static/fonts/mana.woff2") for url in browser.requested)
    assert any("/v1/cards?" in url for url in browser.requested)


def test_completions_stay_open_when_the_card_field_is_left_and_taken_back(browser: Browser, server: str) -> None:
    """Leaving the card field closes its completions a moment later (a click on one lands
    first); taking the field back and typing within that moment keeps the new completions open
    (toggling a permanent's checkbox, then typing the next card at once, lost them)."""
    page = browser.page(server + "/")
    field = page.locator("#add-card")
    field.click()
    field.fill("Forest")
    page.wait_for_selector('#add-card ~ ul.suggestions li[data-name="Forest"]')
    page.locator("#cost").click()  # the field is left: its list closes in 150 ms
    field.click()
    field.fill("Flooded Grov")
    field.press_sequentially("e")
    page.wait_for_timeout(400)  # past the blur's close
    assert page.is_visible('#add-card ~ ul.suggestions li[data-name="Flooded Grove"]')


def _offered(page: Any, input_selector: str, typed: str) -> list[str]:
    """Type ``typed`` into the field and read the names its completions offer, in order."""
    field = page.locator(input_selector)
    field.click()
    field.fill(typed[:-1])
    field.press_sequentially(typed[-1])
    box = f"{input_selector} ~ ul.suggestions"
    page.wait_for_selector(f"{box}[data-query={json.dumps(typed)}]")
    names: list[str] = page.eval_on_selector_all(f"{box} li[role=option]", "nodes => nodes.map(n => n.dataset.name)")
    return names


def test_card_search_offers_llanowar_elves_lightning_bolt_for_a_hand_and_swamp_first(
        browser: Browser, server: str) -> None:
    """What a player means comes first: "llanowar" a permanent (Llanowar Elves, not the plane
    Llanowar), "bolt" in a hand (Lightning Bolt; as a permanent no instant is offered), "swmp"
    misspelt (Swamp)."""
    page = browser.page(server + "/")
    page.click("#new-board")
    hand = '.player[data-index="0"] .cards-line[data-field="hand"] input.card-add'
    llanowar = _offered(page, "#add-card", "llanowar")
    assert llanowar[0] == "Llanowar Elves" and "Llanowar" not in llanowar
    assert _offered(page, hand, "bolt")[0] == "Lightning Bolt"
    as_permanents = _offered(page, "#add-card", "bolt")
    assert as_permanents and "Lightning Bolt" not in as_permanents
    assert _offered(page, "#add-card", "swmp")[0] == "Swamp"
    assert page.is_visible('#add-card ~ ul.suggestions li.active[data-name="Swamp"]')  # what Enter takes
    assert page.errors == []
    page.close()


def test_enter_and_add_take_a_known_name_and_never_add_an_unknown_one(browser: Browser, server: str) -> None:
    page = browser.page(server + "/")
    page.click("#new-board")
    page.fill("#add-card", "swmp")
    page.press("#add-card", "Enter")  # before the completions arrive: the search answers first
    page.wait_for_selector('.perm[data-index="0"]')
    hand = '.player[data-index="0"] .cards-line[data-field="hand"] input.card-add'
    page.fill(hand, "lightning bolt")
    page.press(hand, "Enter")
    page.wait_for_selector('.cards-line[data-field="hand"] .chip')
    page.fill("#add-card", "Zzqxjv Nothing")
    page.click("#add-card-button")
    page.wait_for_selector('#add-card ~ ul.suggestions li.none')
    page.press("#add-card", "Enter")
    assert "no card named" in page.inner_text("#add-card ~ ul.suggestions li.none")
    board = page.evaluate("playground.board()")
    assert [p["card"] for p in board["battlefield"]] == ["Swamp"]
    assert board["players"][0]["hand"] == ["Lightning Bolt"]
    assert page.input_value("#add-card") == "Zzqxjv Nothing"  # kept, to be corrected
    page.close()


def test_no_tile_placeholder_looks_like_a_value(browser: Browser, server: str) -> None:
    """An empty field of a permanent's tile shows what it is for, not a value it seems to hold
    (a grey ``charge=2`` read as two charge counters)."""
    page = browser.page(server + "/")
    page.click('button.example[data-name="commander"]')
    shown = page.eval_on_selector_all(".perm input[placeholder]", "nodes => nodes.map(n => n.placeholder)")
    assert shown and all(not any(c.isdigit() for c in text) and "=" not in text for text in shown), shown
    page.close()
