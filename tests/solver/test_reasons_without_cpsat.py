"""The REASON of an unpayable cost found without CP-SAT (solver/reasons.py, the flow's shortfall and
converter search in solver/backends/flow/converters.py), against the CP-SAT path on the same queries: boards
sampled from games of the real decks (benchmarks/deck_boards.py), with the permanents these paths
were made for added to the player's side: mana with a spending restriction (Unclaimed Territory,
Secluded Courtyard, Giada; CR 106.6), horizon lands and Spire of Industry (life paid on
activation, CR 119.4), Pentad Prism's counters (a free repeatable ability), Coveted Jewel (three
mana of one color), Signets and filter lands (abilities whose cost is mana, CR 605.3).

The CP-SAT path is the query asked of the ``cpsat`` backend with the flow's shortfall declined, so
that the REASON comes from the slack models.  The decision, the code and the size of ``missing``
(total and colored part) must be the same; which colors go missing among equally small answers may
differ (as on plain boards), so ``missing`` is also checked to suffice: with that mana floating in
the player's pool the cost is payable."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from manasolver.benchmarks import deck_boards as db
from manasolver.models.carddb import default_db
from manasolver.solver import backends, reasons
from manasolver.solver.backends import Declined, Shortfall
from manasolver.solver.backends.problem import Problem
from manasolver.solver.service.protocol import answer

#: Permanents the paths without CP-SAT were made for, as a client sends them.
ADDED: tuple[dict[str, Any], ...] = (
    {"card": "Unclaimed Territory", "chosen": {"type": "Elf"}},
    {"card": "Secluded Courtyard", "chosen": {"type": "Human"}},
    {"card": "Giada, Font of Hope"},
    {"card": "Primal Beyond"},
    {"card": "Horizon Canopy"},
    {"card": "Shefet Dunes"},
    {"card": "Spire of Industry"},
    {"card": "Pentad Prism", "counters": {"charge": 2}},
    {"card": "Coveted Jewel"},
    {"card": "Golgari Signet"},
    {"card": "Izzet Signet"},
    {"card": "Mossfire Valley"},
    {"card": "Graven Cairns"},
    {"card": "Sol Ring"},
    {"card": "Nomadic Elf"},
    {"card": "Skyshroud Elf"},
    {"card": "Viridian Acolyte"},
    {"card": "Vedalken Engineer"},
)
#: Spells with convoke, improvise or delve (CR 702.51, 702.126, 702.66), and permanents to help pay them.
ASSISTED = ("Stoke the Flames", "Chord of Calling", "Treasure Cruise", "Metallic Rebuke", "Whir of Invention",
            "Conclave Tribunal", "Murderous Cut")
HELPERS = ("Llanowar Elves", "Ornithopter", "Memnite", "Grizzly Bears", "Serra Angel", "Sol Ring", "Golgari Signet")


class _Declines:
    """An explainer that declines every problem: the REASON then comes from the slack models."""

    def shortfall(self, problem: Problem) -> Shortfall | Declined:
        return Declined("declined for the comparison")


@contextlib.contextmanager
def _cpsat_reasons() -> Iterator[None]:
    original = reasons.explainer
    reasons.explainer = lambda name="flow": _Declines()  # type: ignore[assignment]
    try:
        yield
    finally:
        reasons.explainer = original


@contextlib.contextmanager
def _slack_calls(seen: list[tuple[str, bool]]) -> Iterator[None]:
    """Note each call of CP-SAT's slack model in ``seen``: the cost and whether convoke, improvise
    or delve may help pay it (the flow's shortfall then counts only plain boards)."""
    cls = type(backends.relaxer("cpsat"))
    original = cls.relaxed

    def counted(self: Any, problem: Problem, *args: Any, **kw: Any) -> Any:
        seen.append((problem.req.cost.format(), problem.has_assists))
        return original(self, problem, *args, **kw)

    cls.relaxed = counted  # type: ignore[method-assign]
    try:
        yield
    finally:
        cls.relaxed = original  # type: ignore[method-assign]


def _query(family: db.Family, seed: int, added: list[int]) -> dict[str, Any]:
    """A deck-board ``can_pay`` line with the permanents ``added`` (indices into :data:`ADDED`) on
    the player's side, untapped."""
    q = db.query(family, "can_pay", seed)
    for i, a in enumerate(added):
        q["state"]["battlefield"].append({"id": f"added{i}", "controller": "you", **ADDED[a]})
    return q


def _size(missing: str) -> tuple[int, int]:
    """(total, colored) of a ``missing`` cost text."""
    generic = sum(int(n) for n in re.findall(r"\{(\d+)\}", missing))
    colored = len(re.findall(r"\{[^0-9}][^}]*\}", missing))
    return generic + colored, colored


def _suffices(q: dict[str, Any], missing: str) -> bool | None:
    """Is the cost payable with ``missing`` floating in the player's pool (generic as {C})?  None
    when ``missing`` has a symbol no pool holds (hybrid, snow)."""
    if "/" in missing or "{S}" in missing:
        return None
    pool = re.sub(r"\{(\d+)\}", lambda m: "{C}" * int(m.group(1)), missing)
    state = json.loads(json.dumps(q["state"]))
    you = state["players"][0]
    you["pool"] = you.get("pool", "") + pool
    return answer({**q, "state": state}).get("payable") is True


def _compare(q: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``q`` checked against the CP-SAT path (see the module docstring)."""
    got = answer(q)
    with _cpsat_reasons():
        want = answer({**q, "backend": "cpsat"})
    if "error" in want:
        assert "error" in got, (q["id"], got, want)
        return got
    assert got.get("payable") == want.get("payable"), (q["id"], got, want)
    if want["payable"]:
        return got
    g, w = got["reason"], want["reason"]
    assert g["code"] == w["code"], (q["id"], g, w)
    assert ("missing" in g) == ("missing" in w), (q["id"], g, w)
    if "missing" in w:
        assert _size(g["missing"]) == _size(w["missing"]), (q["id"], g, w)
        assert _suffices(q, g["missing"]) is not False, (q["id"], g)
    return got


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(db.FAMILIES), st.integers(0, 10**6),
       st.lists(st.integers(0, len(ADDED) - 1), min_size=0, max_size=3))
def test_reasons_on_deck_boards_match_the_cpsat_path(family: db.Family, seed: int, added: list[int]) -> None:
    _compare(_query(family, seed, added))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(db.FAMILIES), st.integers(0, 10**6),
       st.lists(st.integers(0, len(ADDED) - 1), min_size=0, max_size=3), st.sampled_from(ASSISTED),
       st.lists(st.sampled_from(HELPERS), min_size=0, max_size=4), st.integers(0, 3))
def test_convoke_improvise_and_delve_on_deck_boards_match_the_cpsat_path(
        family: db.Family, seed: int, added: list[int], spell: str, helpers: list[str], x: int) -> None:
    q = _query(family, seed, added)
    q["spell"] = {"card": spell}
    cost = default_db().get(spell).mana_cost
    assert cost is not None
    q["cost"] = cost.format()
    q.pop("x", None)
    if "X" in q["cost"]:
        q["x"] = x
    for i, name in enumerate(helpers):
        q["state"]["battlefield"].append({"id": f"helper{i}", "controller": "you", "card": name})
    _compare(q)


def test_restricted_horizon_prism_and_signet_boards_are_explained_without_the_slack_model() -> None:
    """Commander deck boards with one of Unclaimed Territory (CR 106.6), Horizon Canopy (CR 119.4,
    the player's life far above what the lands could pay), Pentad Prism or Golgari Signet added:
    every unpayable line's REASON matches the CP-SAT path and none calls the slack model but for
    costs with convoke, improvise or delve (two of these lines)."""
    rng = random.Random(22)
    seen: list[tuple[str, bool]] = []
    unpayable = 0
    for seed in range(40):
        q = _query("commander", 9000 + seed, [rng.choice([0, 4, 7, 9])])
        with _slack_calls(seen):
            got = answer(q)
        assert "error" in got or got["payable"] or "reason" in got
        if got.get("payable") is False:
            unpayable += 1
            _compare(q)
    assert unpayable >= 10
    assert all(assisted for _, assisted in seen), seen


def test_unclaimed_territory_of_another_type_is_restricted_mana() -> None:
    """Unclaimed Territory naming Elf and a Forest: {G}{G} for Troll Ascetic (a Troll) lacks {G}
    with the restriction kept (the land's colored mana pays only Elf spells, CR 106.6), and is
    payable without it: restricted_mana, missing {G}, without the slack model; for Elvish Mystic
    the same cost is payable."""
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "t", "card": "Unclaimed Territory", "chosen": {"type": "Elf"}}, {"id": "f", "card": "Forest"}]}
    q = {"query": "can_pay", "id": 1, "state": board, "cost": "{G}{G}", "spell": {"card": "Troll Ascetic"}}
    seen: list[tuple[str, bool]] = []
    with _slack_calls(seen):
        got = answer(q)
    assert _compare(q) == got
    assert got["reason"]["code"] == "restricted_mana" and got["reason"]["missing"] == "{G}", got
    assert seen == []
    assert answer({**q, "spell": {"card": "Elvish Mystic"}})["payable"] is True


def test_horizon_canopy_at_full_life_pays_as_a_free_land() -> None:
    """Horizon Canopy ({T}, Pay 1 life: Add {G} or {W}) at 20 life: {W}{W}{U} lacks {W}{U}, and the
    life it could pay never limits the payment (CR 119.4): insufficient_mana without the slack
    model."""
    board = {"players": [{"name": "you", "life": 20}], "battlefield": [{"id": "h", "card": "Horizon Canopy"}]}
    q = {"query": "can_pay", "id": 2, "state": board, "cost": "{W}{W}{U}"}
    seen: list[tuple[str, bool]] = []
    with _slack_calls(seen):
        got = answer(q)
    assert _compare(q) == got
    assert got["reason"] == {"code": "insufficient_mana", "message": "{W}{U} more mana is needed",
                             "missing": "{W}{U}"}, got
    assert seen == []


def test_pentad_prism_counters_are_units_of_any_color() -> None:
    """Pentad Prism with two charge counters (remove one: add one mana of any color) and a Forest:
    {W}{U}{G} is payable, {W}{U}{B}{G} lacks one colored mana, explained without the slack model."""
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "p", "card": "Pentad Prism", "counters": {"charge": 2}}, {"id": "f", "card": "Forest"}]}
    seen: list[tuple[str, bool]] = []
    with _slack_calls(seen):
        assert answer({"query": "can_pay", "state": board, "cost": "{W}{U}{G}"})["payable"] is True
        got = answer({"query": "can_pay", "id": 3, "state": board, "cost": "{W}{U}{B}{G}"})
    assert _compare({"query": "can_pay", "id": 3, "state": board, "cost": "{W}{U}{B}{G}"}) == got
    assert got["reason"]["code"] == "insufficient_mana" and _size(got["reason"]["missing"]) == (1, 1), got
    assert seen == []


def test_coveted_jewel_adds_three_of_one_color() -> None:
    """Coveted Jewel ({T}: add three mana of any one color) and a Forest: {W}{U}{G}{G} lacks two
    mana, one of {W} and {U} and one {G} or the other (the Jewel's three are of one color)."""
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "j", "card": "Coveted Jewel"}, {"id": "f", "card": "Forest"}]}
    got = _compare({"query": "can_pay", "id": 4, "state": board, "cost": "{W}{U}{B}{G}"})
    assert got["reason"]["code"] == "insufficient_mana" and _size(got["reason"]["missing"]) == (2, 2), got


@contextlib.contextmanager
def _cpsat_calls(seen: list[str]) -> Iterator[None]:
    """Note each CP-SAT decision, payment and slack model in ``seen``."""
    cls = type(backends.backend("cpsat"))
    originals = {name: getattr(cls, name) for name in ("decide", "solve", "relaxed")}

    def noted(name: str) -> Any:
        def call(self: Any, problem: Problem, *args: Any, **kw: Any) -> Any:
            seen.append(name)
            return originals[name](self, problem, *args, **kw)
        return call

    for name in originals:
        setattr(cls, name, noted(name))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(cls, name, original)


def test_nomadic_elf_turns_two_mana_into_one_of_any_color() -> None:
    """Two Forests and Nomadic Elf ({1}{G}: add one mana of any color, as often as it is paid):
    {B} is payable (both Forests pay the Elf), {B}{B}{G}{G} lacks {B}{B} (the Forests pay {G}{G}
    better than one {B}), decided and explained without CP-SAT, as the CP-SAT path finds (a payable
    cost is left to the backends that write its payment)."""
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "e", "card": "Nomadic Elf"}]}
    assert answer({"query": "can_pay", "state": board, "cost": "{B}"})["payable"] is True
    seen: list[str] = []
    with _cpsat_calls(seen):
        got = answer({"query": "can_pay", "id": 5, "state": board, "cost": "{B}{B}{G}{G}"})
    assert seen == []
    assert got["reason"]["missing"] == "{B}{B}", got
    assert _compare({"query": "can_pay", "id": 5, "state": board, "cost": "{B}{B}{G}{G}"}) == got


def test_improvise_beside_a_signet_cr_702_126a() -> None:
    """A Forest, Golgari Signet and Ornithopter, Metallic Rebuke ({2}{U}, improvise): the Forest
    pays the Signet ({B}{G}) and Ornithopter improvises {1} (CR 702.126a): three mana, no {U};
    {2}{B} is payable.  The first decided and explained without CP-SAT, as the CP-SAT path finds."""
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "f", "card": "Forest"}, {"id": "s", "card": "Golgari Signet"}, {"id": "o", "card": "Ornithopter"}]}
    spell = {"card": "Metallic Rebuke"}
    assert answer({"query": "can_pay", "state": board, "cost": "{2}{B}", "spell": spell})["payable"] is True
    seen: list[str] = []
    with _cpsat_calls(seen):
        got = answer({"query": "can_pay", "id": 6, "state": board, "cost": "{2}{U}", "spell": spell})
    assert seen == []
    assert got["reason"]["missing"] == "{U}", got
    assert _compare({"query": "can_pay", "id": 6, "state": board, "cost": "{2}{U}", "spell": spell}) == got
