"""``manasolver demo``: real questions on the bundled example boards, answered.

Each question is an ordinary protocol query on a board from
``solver/service/examples/``; the demo prints the question, the command line that asks
it (flags that work, so it can be copied), and the answer as the CLI would, but
with each permanent named by its card ("Watery Grave", not the board's id
``grave``; "Forest (forest2)" where the board holds that card more than once).
"""

from __future__ import annotations

import json
import shlex
import time
from importlib import resources
from collections import Counter
from collections.abc import Mapping
from typing import Any

__all__ = ["QUESTIONS", "card_labels", "command_args", "example_state", "main", "named_by_card"]

#: (example board, question in words, protocol query without the state).
QUESTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("commander", "Autotap {2}{W/U}{B/P} on a 40-permanent Commander board (default policy)",
     {"query": "pay", "cost": "{2}{W/U}{B/P}"}),
    ("commander", "What is the most X for {X}{G}{G} (Genesis Hydra's cost)?",
     {"query": "max_x", "cost": "{X}{G}{G}"}),
    ("commander", "Can it pay {W}{U}{B}{R}{G}{C}{C} this turn?",
     {"query": "can_pay", "cost": "{W}{U}{B}{R}{G}{C}{C}"}),
    ("commander", "Crack Mind Stone ({1}, {T}, sacrifice it: draw a card): tapped for its own cost, it "
                  "can't also tap for the {1} (CR 602.2b, 601.2h)",
     {"query": "pay", "spell": {"permanent": "mindstone", "ability": 0}}),
    ("reaper", "Reaper King under Etherium Sculptor, Foundry Inspector, Helm of Awakening and Heartless "
               "Summoning: the generic reductions need halves announced as {2} (Reaper King ruling)",
     {"query": "pay", "spell": {"card": "Reaper King"}}),
    ("pools", "What could each land produce (Reflecting Pool, Exotic Orchard: CR 106.7)?",
     {"query": "could_produce"}),
    ("pools", "Pay {U}{U}{G} with the pools",
     {"query": "pay", "cost": "{U}{U}{G}"}),
    ("phyrexian", "Dismember {1}{B/P}{B/P} at 3 life: how much life, how much mana?",
     {"query": "pay", "cost": "{1}{B/P}{B/P}"}),
    ("phyrexian", "Gitaxian Probe {U/P} tapping the fewest sources (policy min_sources): 2 life, "
                  "not the Island",
     {"query": "pay", "cost": "{U/P}", "policy": ["min_sources"]}),
    ("filters", "Pay {U}{U}{R}{R} through filter lands",
     {"query": "pay", "cost": "{U}{U}{R}{R}"}),
    ("filters", "Why can't it pay nine white mana through four white filter lands?",
     {"query": "can_pay", "cost": "{W}{W}{W}{W}{W}{W}{W}{W}{W}"}),
    ("basics", "Colors, card types and domain with the Everywhere token (Happily Ever After)",
     {"query": "counts"}),
]


def example_state(name: str) -> Any:
    """The bundled example board ``name`` as JSON."""
    path = resources.files("manasolver.solver.service").joinpath("examples", f"{name}.json")
    return json.loads(path.read_text(encoding="utf-8"))


def command_args(board: str, query: dict[str, Any]) -> list[str]:
    """The command line (after ``manasolver``) that asks ``query`` on the example ``board``.
    A field without a flag is a ``ValueError``: the demo prints only commands that work."""
    args = [query["query"].replace("_", "-"), f"example:{board}"]
    if "cost" in query:
        args.append(query["cost"])
    for key, value in query.items():
        if key in ("query", "cost"):
            continue
        if key == "spell" and "ability" in value and "permanent" in value:
            args += ["--activate", f"{value['permanent']}:{value['ability']}"]
        elif key == "spell" and "ability" in value:
            args += ["--spell", value["card"], "--activate", str(value["ability"])]
        elif key == "spell" and set(value) == {"card"}:
            args += ["--spell", value["card"]]
        elif key == "policy":
            args += ["--policy", ",".join(value) if isinstance(value, list) else value]
        elif key in ("x", "limit", "alternative"):
            args += [f"--{key}", str(value)]
        elif key == "additional":
            for name in value:
                args += ["--additional", name]
        else:
            raise ValueError(f"the demo has no command-line flag for {key!r}")
    return args


def _quote(arg: str) -> str:
    """An argument as a shell reads it: costs and names in double quotes, as the README writes them."""
    if arg and all(c.isalnum() or c in "-_:.,/=" for c in arg):
        return arg
    if any(c in arg for c in '"$`\\!'):
        return shlex.quote(arg)
    return f'"{arg}"'


def _command(board: str, query: dict[str, Any]) -> str:
    return " ".join(["manasolver", *(_quote(a) for a in command_args(board, query))])


def card_labels(state: Mapping[str, Any]) -> dict[str, str]:
    """Each permanent's id -> the name to print: its card, with the id after it where the board
    holds that card more than once ("Forest (forest2)")."""
    perms = [p for p in state.get("battlefield", []) if isinstance(p, dict) and isinstance(p.get("id"), str)]
    cards = Counter(str(p.get("card") or p.get("name") or p["id"]) for p in perms)
    labels: dict[str, str] = {}
    for p in perms:
        card = str(p.get("card") or p.get("name") or p["id"])
        labels[p["id"]] = card if cards[card] == 1 else f"{card} ({p['id']})"
    return labels


def named_by_card(result: dict[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """``result`` with the permanents it names by id named by :func:`card_labels` instead: the
    activations, convoked and improvised permanents of its payments, the keys of ``could_produce``
    and the permanent being activated.  The answer itself is left as it was (a copy is changed)."""
    labels = card_labels(state)

    def label(pid: Any) -> Any:
        return labels.get(pid, pid) if isinstance(pid, str) else pid

    def payment(p: dict[str, Any]) -> dict[str, Any]:
        out = dict(p)
        out["activations"] = [{**a, "permanent": label(a.get("permanent"))} for a in p.get("activations", [])]
        for key in ("convoked", "improvised"):
            if key in p:
                out[key] = [label(pid) for pid in p[key]]
        return out

    named = dict(result)
    if isinstance(result.get("payment"), dict):
        named["payment"] = payment(result["payment"])
    if isinstance(result.get("payments"), list):
        named["payments"] = [payment(p) for p in result["payments"]]
    if isinstance(result.get("could_produce"), dict):
        named["could_produce"] = {label(pid): types for pid, types in result["could_produce"].items()}
    if isinstance(result.get("activating"), dict) and "permanent" in result["activating"]:
        named["activating"] = {**result["activating"], "permanent": label(result["activating"]["permanent"])}
    return named


def main() -> int:
    """Print every question and its answer; exit 1 if any answer is an error."""
    from manasolver.solver.service.protocol import answer
    from manasolver.solver.service.render import answer_text
    failures = 0
    for board, question, query in QUESTIONS:
        print(f"== {question}")
        print(f"   $ {_command(board, query)}")
        start = time.perf_counter()
        state = example_state(board)
        result = answer({**query, "state": state})
        elapsed = (time.perf_counter() - start) * 1000
        for line in answer_text(named_by_card(result, state)).splitlines():
            print("   " + line)
        print(f"   ({elapsed:.1f} ms)")
        print()
        failures += "error" in result
    return 1 if failures else 0
