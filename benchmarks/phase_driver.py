"""Drive phase.rs, the peer engine, on the benchmark boards.

phase.rs is a full Magic rules engine in Rust with a heuristic autotapper,
published on PyPI as ``phase-python`` (import name ``phase``).  It has no
"can I pay this cost?" call: a spell is castable when its ``CastSpell``
action is offered in the player's main phase, and casting it with
``payment_mode: Auto`` runs the autotapper.  This module positions a phase.rs
game on a benchmark board (the board's permanents on player 0's battlefield,
untapped and not summoning sick unless the board says so, a one-card hand
holding a sorcery with the benchmark cost) and times those two operations.

It is optional: :func:`phase_missing` says why it cannot run, and nothing in
the engine imports this module.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PeerCard", "PeerPermanent", "PhaseCase", "PhaseDriver", "phase_missing", "phase_version"]

_SUPERTYPES = {"Basic", "Legendary", "Snow", "World", "Ongoing"}
_COLOR_WORDS = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}
_FILLER = "Wastes"


def phase_missing() -> str | None:
    """``None`` when phase.rs can be imported, else the reason it cannot."""
    try:
        import phase  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - any import failure means "skip the peer", never a crash
        return f"phase.rs not importable ({type(exc).__name__}: {exc}); install the `bench` extra"
    return None


def phase_version() -> str:
    """The installed phase-python version, or ``""``."""
    try:
        from importlib.metadata import version
        return version("phase-python")
    except Exception:  # noqa: BLE001
        return ""


@dataclass(frozen=True, slots=True)
class PeerCard:
    """A card's printed characteristics, as both engines read them from the same data."""

    name: str
    mana_cost: str = ""
    type_line: str = ""
    oracle_text: str = ""
    colors: tuple[str, ...] = ()
    power: str | None = None
    toughness: str | None = None

    def mtgjson(self) -> dict[str, Any]:
        """The MTGJSON "atomic card" shape that ``phase.build_oracle_face`` reads."""
        left, _, right = self.type_line.partition("—")
        words = left.split()
        colors = [c for c in "WUBRG" if c in self.colors]
        # color identity (CR 903.4): colors plus every mana symbol in the cost and the rules text
        symbols = "".join(re.findall(r"\{([^}]*)\}", self.mana_cost + self.oracle_text)).upper()
        identity = [c for c in "WUBRG" if c in colors or c in symbols]
        out: dict[str, Any] = {
            "name": self.name, "manaCost": self.mana_cost or None, "type": self.type_line,
            "types": [w for w in words if w not in _SUPERTYPES],
            "subtypes": right.split(), "supertypes": [w for w in words if w in _SUPERTYPES],
            "text": self.oracle_text, "colors": colors, "colorIdentity": identity,
            "identifiers": {}, "manaValue": 0, "layout": "normal",
            "legalities": {"commander": "Legal", "standard": "Legal"},
        }
        if self.power is not None:
            out["power"], out["toughness"] = self.power, self.toughness or "0"
        return out


@dataclass(frozen=True, slots=True)
class PeerPermanent:
    """One permanent of a board, as phase.rs is told about it."""

    name: str
    tapped: bool = False
    sick: bool = False


@dataclass(slots=True)
class PhaseCase:
    """A phase.rs position: the exported state with the spell in hand, and the same without it."""

    state: dict[str, Any]
    state_without: dict[str, Any]
    spell_object: int
    cost: str


def _spell_colors(cost: str) -> tuple[str, ...]:
    inner = cost.upper().replace("{", " ").replace("}", " ").replace("/", " ")
    return tuple(c for c in "WUBRG" if c in inner.split())


class PhaseDriver:
    """One phase.rs engine holding the board cards and one sorcery per benchmark cost."""

    def __init__(self, cards: Iterable[PeerCard], costs: Iterable[str]) -> None:
        import phase

        self._phase = phase
        faces: dict[str, Any] = {}
        self.skipped: dict[str, str] = {}
        for card in cards:
            try:
                faces[card.name.lower()] = phase.build_oracle_face(card.mtgjson(), None)
            except Exception as exc:  # noqa: BLE001 - phase.rs cannot read the card: record it, never guess
                self.skipped[card.name] = f"{type(exc).__name__}: {exc}"
        if _FILLER.lower() not in faces:
            faces[_FILLER.lower()] = phase.build_oracle_face(
                PeerCard(_FILLER, "", "Basic Land", "{T}: Add {C}.").mtgjson(), None)
        self.spell_names: dict[str, str] = {}
        for i, cost in enumerate(sorted(set(costs))):
            name = f"Bench Spell {i}"
            self.spell_names[cost] = name
            faces[name.lower()] = phase.build_oracle_face(
                PeerCard(name, cost, "Sorcery", "Draw a card.", _spell_colors(cost)).mtgjson(), None)
        self.engine = phase.Engine.from_json(json.dumps(faces))
        self.known = set(faces)

    # -- positioning ------------------------------------------------------
    def _main_phase(self, deck: list[str], seed: int, commander: Sequence[str] = ()) -> Any:
        if commander:  # a Commander game, so "your commander's color identity" means something
            game = self.engine.new_game(
                player={"main_deck": deck, "commander": list(commander)},
                opponent={"main_deck": [_FILLER] * 99, "commander": list(commander)},
                seed=seed, first_player=0, format="Commander")
        else:
            game = self.engine.new_game(player=deck, opponent=[_FILLER] * 60, seed=seed, first_player=0)
        for _ in range(200):
            wait = game.waiting_for()
            if wait["type"] == "Priority" and game.state()["state"]["phase"] == "PreCombatMain":
                return game
            actions = game.actions()
            if wait["type"] == "MulliganDecision":
                seat = wait["data"]["pending"][0]["player"]
                keep = [a for a in actions if a.data["choice"]["type"] == "Keep"]
                game.apply(seat, keep[0])
            else:
                game.apply(game.priority_player(), actions[0])
        raise RuntimeError("phase.rs game never reached the first main phase")

    def position(self, board: Sequence[PeerPermanent], cost: str, life: int = 20,
                 seed: int = 1, commander: Sequence[str] = ()) -> PhaseCase:
        """Player 0's first main phase with ``board`` on the battlefield and a sorcery
        costing ``cost`` as the only card in hand; with ``commander``, a Commander game
        in which player 0's commander is that card."""
        spell = self.spell_names[cost]
        missing = sorted({p.name for p in board if p.name.lower() not in self.known})
        if missing:
            raise ValueError(f"phase.rs cannot build {', '.join(missing)}")
        deck = [p.name for p in board] + [spell] + [_FILLER] * 8
        game = self._main_phase(deck, seed, commander)
        exported = game.state()
        state = exported["state"]
        me = state["players"][0]
        objects = state["objects"]
        wanted: dict[str, list[PeerPermanent]] = {}
        for perm in board:
            wanted.setdefault(perm.name, []).append(perm)
        spell_id = None
        rest: list[int] = []
        for zone in ("hand", "library"):
            for oid in me[zone]:
                obj = objects[str(oid)]
                if spell_id is None and obj["name"] == spell:
                    spell_id = oid
                elif wanted.get(obj["name"]):
                    perm = wanted[obj["name"]].pop()
                    obj["zone"] = "Battlefield"
                    obj["tapped"] = perm.tapped
                    obj["entered_battlefield_turn"] = state["turn_number"] if perm.sick else 0
                    # phase.rs keeps summoning sickness in these two flags (as a cast creature has them)
                    obj["summoning_sick"] = obj["has_summoning_sickness"] = perm.sick
                    state["battlefield"].append(oid)
                else:
                    obj["zone"] = "Library"
                    rest.append(oid)
        if spell_id is None or any(wanted.values()):
            raise RuntimeError("phase.rs deck did not hold the board")
        me["library"] = rest
        me["hand"] = []
        me["life"] = life
        without = json.loads(json.dumps(exported))
        objects[str(spell_id)]["zone"] = "Hand"
        me["hand"] = [spell_id]
        without["state"]["players"][0]["library"] = [spell_id] + rest
        return PhaseCase(exported, without, spell_id, cost)

    # -- the two measured operations ----------------------------------------
    def _cast_action(self, game: Any, spell_id: int) -> Any:
        for action in game.actions():
            if action.kind == "CastSpell" and action.data.get("object_id") == spell_id:
                return action
        return None

    def castable(self, case: PhaseCase, repeats: int = 5) -> tuple[bool, float, float]:
        """Whether phase.rs offers the cast, the median seconds of ``actions()`` with the
        spell in hand, and the same minus ``actions()`` without it (the spell's share)."""
        game = self.engine.load_game(case.state)
        bare = self.engine.load_game(case.state_without)
        with_times, without_times = [], []
        offered = False
        for _ in range(repeats):
            t0 = time.perf_counter()
            actions = game.actions()
            with_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            bare.actions()
            without_times.append(time.perf_counter() - t0)
            offered = any(a.kind == "CastSpell" and a.data.get("object_id") == case.spell_object
                          for a in actions)
        with_med = statistics.median(with_times)
        return offered, with_med, max(0.0, with_med - statistics.median(without_times))

    def cast(self, case: PhaseCase, x: int = 0) -> tuple[bool, float, list[str], int]:
        """Cast the spell with phase.rs's autotap: success, seconds spent in ``apply`` and
        its prompts, the names of the permanents it tapped, and how many mana it left
        floating in the pool (produced and not spent).

        Phyrexian symbols are offered as mana first (as our default policy
        prefers); when that cast fails, the next choice (more life) is tried on
        a fresh copy of the position, and every attempt's time is counted.
        """
        elapsed = 0.0
        for attempt in range(4):
            game = self.engine.load_game(case.state)
            action = self._cast_action(game, case.spell_object)
            if action is None:
                return False, elapsed, [], 0
            t0 = time.perf_counter()
            result = game.apply(0, action)
            elapsed += time.perf_counter() - t0
            phyrexian = False
            for _ in range(20):
                wait = result.waiting_for
                kind = wait.get("type") if isinstance(wait, dict) else None
                if kind in (None, "Priority"):
                    break
                phyrexian = phyrexian or kind == "PhyrexianPayment"
                choice = self._answer_prompt(game, kind, x, attempt)
                if choice is None:
                    break
                t0 = time.perf_counter()
                result = game.apply(0, choice)
                elapsed += time.perf_counter() - t0
            if any(entry.get("id") == case.spell_object or f'"id": {case.spell_object},' in json.dumps(entry)
                   for entry in game.stack()):
                tapped = [o["name"] for o in game.battlefield() if o.get("controller") == 0 and o.get("tapped")]
                floating = len(game.player(0).get("mana_pool", {}).get("mana", []))
                return True, elapsed, tapped, floating
            if not phyrexian:
                break
        return False, elapsed, [], 0

    @staticmethod
    def _answer_prompt(game: Any, kind: str, x: int, attempt: int) -> Any:
        """Answer a casting prompt: choose ``x`` for X; for Phyrexian symbols the
        ``attempt``-th choice in order of life paid (mana first).  Anything else: give up."""
        actions = [a for a in game.actions() if a.kind != "CancelCast"]
        if kind == "ChooseXValue":
            return next((a for a in actions if a.kind == "ChooseX" and a.data.get("value") == x), None)
        if kind == "PhyrexianPayment":
            ranked = sorted(actions, key=lambda a: json.dumps(a.data).count("PayLife"))
            return ranked[min(attempt, len(ranked) - 1)] if ranked else None
        return None
