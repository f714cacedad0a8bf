"""Game events that change a board: a permanent entering, a step ending, an upkeep trigger.

* :func:`enter` puts a permanent onto the battlefield and resolves the triggered
  abilities it causes (its own ETB, landfall of the lands' controllers'
  permanents), recursively: a land token created by a trigger causes landfall in
  turn (Lotus Cobra ruling 2009-10-01).  Triggers go on the stack
  in APNAP order (CR 603.3b), each player's in board order with the first on top,
  and the stack resolves last in, first out (405.5), so the order is deterministic.
  Energy is a player's counters (107.14), damage and life change the life total,
  mana from a trigger goes to the pool (a landfall or ETB "add" is not a mana
  ability, 605.5a).  What the engine cannot resolve (a trigger it does not read, a
  choice of mana color) is returned in ``unresolved``, never guessed.
* :func:`advance_step` moves to another step or phase: every mana pool empties
  (CR 106.4, 500.4), energy stays (CR 106.4, 107.14).
* :func:`intervening_if` decides a trigger with an intervening "if" (CR 603.4): it
  triggers only if the condition holds as the event happens, and does something only
  if it still holds on resolution (Happily Ever After, CR 603.4).

>>> from manasolver.models.state import GameState, Player, Turn
>>> s = GameState((Player("you"),), Turn("you"))
>>> r = enter(s, "Everywhere")
>>> r.state.battlefield[0].card.name, r.state.battlefield[0].tapped
('Everywhere', False)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery, BadState, Unsupported
from manasolver.models.state import STEPS, GameState, Permanent
from manasolver.models.symbols import mask_letters, type_bit
from manasolver.models.text.triggers import (
    Trigger,
    TriggerEffect,
    enters_tapped,
    hurt_when_tapped,
    impending_counters,
    triggers_of,
)

if TYPE_CHECKING:  # the card database is imported only when a card is named
    from manasolver.models.carddb import CardDB

__all__ = [
    "CONDITION_TESTS",
    "MAX_EVENTS",
    "EnterResult",
    "Happening",
    "IfOutcome",
    "TapDamage",
    "Unresolved",
    "advance_step",
    "condition_holds",
    "condition_parts",
    "damage_when_tapped",
    "enter",
    "intervening_if",
    "wins_at_upkeep",
]

#: A bound on the permanents entering and triggers resolving in one :func:`enter`: a loop of
#: triggers that create permanents is refused rather than run forever.
MAX_EVENTS = 10_000


def _happily_ever_after(state: GameState, player: str) -> dict[str, bool]:
    from manasolver.models.rules.counts import happily_ever_after_conditions
    return happily_ever_after_conditions(state, player)


#: Evaluators of the intervening conditions :data:`manasolver.models.text.triggers.CONDITIONS` names:
#: each gives its parts by name, and the condition holds when every part does.
CONDITION_TESTS: dict[str, Callable[[GameState, str], dict[str, bool]]] = {
    "happily_ever_after": _happily_ever_after,
}


def condition_parts(condition: str, state: GameState, player: str) -> dict[str, bool]:
    """The parts of the intervening condition ``condition`` (a name of
    :data:`CONDITION_TESTS`; "" is none, with no parts) for ``player`` on ``state``."""
    if not condition:
        return {}
    test = CONDITION_TESTS.get(condition)
    if test is None:
        raise Unsupported(f"the condition {condition!r} is not one the engine evaluates", "condition")
    return test(state, player)


def condition_holds(condition: str, state: GameState, player: str) -> bool:
    """Whether the intervening condition ``condition`` holds for ``player`` on ``state``."""
    return all(condition_parts(condition, state, player).values())


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Happening:
    """One thing that happened, in order.

    ``kind``: ``"enters"`` (``permanent`` entered, ``tapped`` or not; ``source`` is the
    trigger that created it, "" for the permanent put onto the battlefield), ``"energy"``,
    ``"damage"``, ``"lose_life"``, ``"life"`` (``amount`` for ``player``), ``"mana"`` (``mana`` added to
    ``player``'s pool) or ``"win"``.  ``source`` is the id of the permanent whose
    trigger did it; ``text`` the effect's sentence.
    """

    kind: str
    source: str
    player: str
    amount: int = 0
    permanent: str = ""
    tapped: bool = False
    mana: str = ""
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        """The protocol form: the fields that apply to the kind."""
        out: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.source:
            out["source"] = self.source
        if self.kind == "enters":
            out["permanent"] = self.permanent
            out["tapped"] = self.tapped
        elif self.kind == "mana":
            out["mana"] = self.mana
        elif self.kind != "win":
            out["amount"] = self.amount
        return out


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A trigger (or a part of one) the engine did not resolve: ``source`` permanent id,
    the ability's ``text`` and the ``reason``."""

    source: str
    text: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"source": self.source, "text": self.text, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class EnterResult:
    """The board after :func:`enter`, what happened in order, and what was not resolved."""

    state: GameState
    happened: tuple[Happening, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()

    def energy_gained(self, player: str | None = None) -> int:
        """Energy ``player`` (default: the first player) got."""
        name = player or self.state.players[0].name
        return sum(h.amount for h in self.happened if h.kind == "energy" and h.player == name)

    def energy_by_source(self) -> dict[str, int]:
        """Energy got per source permanent id."""
        out: dict[str, int] = {}
        for h in self.happened:
            if h.kind == "energy":
                out[h.source] = out.get(h.source, 0) + h.amount
        return out

    def entered(self) -> tuple[Permanent, ...]:
        """The permanents that entered, in order (the first one, then the tokens created)."""
        ids = [h.permanent for h in self.happened if h.kind == "enters"]
        return tuple(self.state.permanent(i) for i in ids if any(p.id == i for p in self.state.battlefield))

    @property
    def complete(self) -> bool:
        """True when every trigger that may have triggered was resolved."""
        return not self.unresolved

    def to_json(self) -> dict[str, Any]:
        """``happened`` and ``unresolved`` as the protocol would print them (the board is the
        caller's: :func:`manasolver.models.board.dump.state_to_json`)."""
        return {"happened": [h.to_json() for h in self.happened],
                "unresolved": [u.to_json() for u in self.unresolved],
                "complete": self.complete}


# -- entering -----------------------------------------------------------------------------------

_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(name: str) -> str:
    return _SLUG.sub("-", name.lower()).strip("-") or "permanent"


def _token_card(name: str) -> Card:
    from manasolver.models.card_build import card_from_record
    from manasolver.models.tokens import token_record
    record = token_record(name)
    if record is None:  # pragma: no cover - triggers only name predefined tokens
        raise Unsupported(f"no predefined token named {name!r}", "token")
    return card_from_record(record, where=f"token {name}")


_TOKEN_CARDS: dict[str, Card] = {}


def _token(name: str) -> Card:
    card = _TOKEN_CARDS.get(name)
    if card is None:
        card = _TOKEN_CARDS[name] = _token_card(name)
    return card


def _triggers_on_entering(trig: Trigger, source: Permanent, entering: Permanent) -> bool:
    """Whether ``trig`` of ``source`` triggers when ``entering`` enters: its own ETB, or a
    landfall ability of a permanent whose controller controls the land (603.6a)."""
    if trig.event == "enters":
        return source.id == entering.id
    return trig.event == "landfall" and entering.is_land and source.controller == entering.controller


class _Run:
    """One resolution of :func:`enter`: the board so far, the stack, what happened."""

    def __init__(self, state: GameState, choices: Mapping[str, str] | None = None) -> None:
        self.choices = dict(choices or {})
        self.players = {p.name: p for p in state.players}
        self.order = [p.name for p in state.players]
        self.turn = state.turn
        self.battlefield = list(state.battlefield)
        self.ids = {p.id for p in self.battlefield}
        self.stack: list[tuple[Permanent, Trigger]] = []
        self.happened: list[Happening] = []
        self.unresolved: list[Unresolved] = []
        self.steps = 0
        self.current = ""  # the text of the trigger resolving

    def state(self) -> GameState:
        return GameState(tuple(self.players[n] for n in self.order), self.turn, tuple(self.battlefield))

    def fresh_id(self, name: str) -> str:
        base = _slug(name)
        k = 1
        while f"{base}-{k}" in self.ids:
            k += 1
        return f"{base}-{k}"

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_EVENTS:
            raise Unsupported(f"more than {MAX_EVENTS} permanents entering and triggers resolving: "
                              "a loop the engine does not follow", "battlefield")

    def put(self, perm: Permanent, source: str) -> None:
        """``perm`` enters; the triggers it causes go on the stack (603.3)."""
        self.tick()
        tapped = enters_tapped(perm.card)
        if tapped:
            perm = perm._replace(tapped=True)
        elif tapped is None:
            self.unresolved.append(Unresolved(perm.id, perm.card.name,
                                              "it may enter tapped (a conditional replacement the "
                                              "engine does not read); its tapped state is as given"))
        self.battlefield.append(perm)
        self.ids.add(perm.id)
        self.happened.append(Happening("enters", source, perm.controller, permanent=perm.id,
                                       tapped=perm.tapped, text=perm.card.name))
        found: dict[str, list[tuple[Permanent, Trigger]]] = {}
        for q in self.battlefield:
            for trig in triggers_of(q.card):
                if trig.event == "other" and "enter" in trig.text:
                    self.unresolved.append(Unresolved(q.id, trig.text, "a triggered ability the engine "
                                                      "does not read may have triggered"))
                    continue
                if not _triggers_on_entering(trig, q, perm):
                    continue
                if not trig.supported:
                    self.unresolved.append(Unresolved(q.id, trig.text, trig.unsupported))
                    continue
                if trig.condition and not condition_holds(trig.condition, self.state(), q.controller):
                    continue  # an intervening "if" false as it would trigger: no trigger (603.4)
                found.setdefault(q.controller, []).append((q, trig))
        active = self.turn.active
        for name in sorted(found, key=lambda n: (n != active, self.order.index(n) if n in self.order else 0)):
            # APNAP (603.3b): the active player's go on the stack first; in board order, first on top
            self.stack.extend(reversed(found[name]))

    def resolve(self, source: Permanent, trig: Trigger) -> None:
        self.tick()
        you = source.controller
        self.current = trig.text
        if trig.condition and not condition_holds(trig.condition, self.state(), you):
            return  # 603.4: the condition is checked again on resolution
        for effect in trig.effects:
            self.apply(source, you, effect)

    def _player(self, name: str, **changes: Any) -> None:
        self.players[name] = self.players[name]._replace(**changes)

    def apply(self, source: Permanent, you: str, effect: TriggerEffect) -> None:
        kind = effect.kind
        if kind == "energy":
            self._player(you, energy=self.players[you].energy + effect.amount)
            self.happened.append(Happening("energy", source.id, you, effect.amount, text=effect.text))
        elif kind in ("damage", "lose_life") and effect.who != "you":  # pragma: no cover - not on entering
            self.unresolved.append(Unresolved(source.id, self.current, "damage to another player"))
        elif kind in ("damage", "lose_life"):
            self._player(you, life=self.players[you].life - effect.amount)
            self.happened.append(Happening(kind, source.id, you, effect.amount, text=effect.text))
        elif kind == "life":
            for name in (self.order if effect.who == "each" else [you]):
                self._player(name, life=self.players[name].life + effect.amount)
                self.happened.append(Happening("life", source.id, name, effect.amount, text=effect.text))
        elif kind == "win":
            self.happened.append(Happening("win", source.id, you, text=effect.text))
        elif kind == "mana":
            self.add_mana(source, you, effect)
        elif kind == "token":
            card = _token(effect.token)
            for _ in range(effect.amount):
                token = Permanent(self.fresh_id(card.name), card, you, tapped=effect.tapped, sick=True,
                                  token=True)
                self.put(token, source.id)
        else:  # pragma: no cover - triggers.py makes only the kinds above
            self.unresolved.append(Unresolved(source.id, effect.text, f"effect kind {kind!r} not resolved"))

    def add_mana(self, source: Permanent, you: str, effect: TriggerEffect) -> None:
        """Mana from a trigger goes to the pool when there is nothing to choose; a choice
        (one mana of any color) is the player's, so it is reported, not made."""
        production = effect.production
        options = production.options if production is not None else ()
        if source.id in self.choices:
            mana = _chosen_mana(self.choices[source.id], options, source.id)
        elif len(options) != 1 or any(slot & (slot - 1) for slot in options[0]):  # one type per slot
            self.unresolved.append(Unresolved(source.id, self.current, "the player chooses the mana it adds; "
                                              "give it in choices"))
            return
        else:
            mana = ManaCost.parse("".join("{" + mask_letters(slot) + "}" for slot in options[0]))
        self._player(you, pool=self.players[you].pool + mana)
        self.happened.append(Happening("mana", source.id, you, len(mana), mana=mana.format(),
                                       text=effect.text))


def _chosen_mana(text: str, options: tuple[tuple[int, ...], ...], source: str) -> ManaCost:
    """The mana a player chose for a trigger's "add …" (``choices[source]``), checked against
    the trigger's options: one mana of a type each slot allows (CR 106.1)."""
    where = f"choices.{source}"
    mana = ManaCost.parse(text, where=where) if isinstance(text, str) else None
    if mana is None:
        raise BadQuery("a mana choice is a string of mana symbols such as \"{G}\"", where)
    bits = []
    for sym in mana.symbols:
        if sym.colorless and not sym.colors and not sym.generic:
            bits.append(type_bit("C"))
        elif sym.colors and not (sym.colors & (sym.colors - 1)) and not sym.generic and not sym.phyrexian:
            bits.append(sym.colors)
        else:
            raise BadQuery(f"{sym.text} is not one mana of one type", where)
    for option in options:
        if len(option) == len(bits) and any(all(b & slot for b, slot in zip(order, option))
                                            for order in itertools.permutations(bits)):
            return mana
    shown = " or ".join("".join("{" + "|".join(mask_letters(s)) + "}" for s in o) for o in options)
    raise BadQuery(f"{text} is not what the trigger adds ({shown})", where)


def _entering(run: _Run, permanent: Permanent | str | Card, player: str, cast_for: str | None,
              tapped: bool, db: CardDB | None) -> Permanent:
    """The permanent that enters: a given Permanent, or a new one for a card or card name."""
    if isinstance(permanent, Permanent):
        if permanent.id in run.ids:
            raise BadState(f"a permanent with id {permanent.id!r} is already on the battlefield", "permanent")
        if permanent.controller not in run.players:
            raise BadQuery(f"{permanent.controller!r} is not a player of the state", "permanent.controller")
        perm = permanent._replace(sick=True, tapped=permanent.tapped or tapped)
        cast_for = cast_for or perm.cast_for
    else:
        if isinstance(permanent, Card):
            card = permanent
        elif isinstance(permanent, str) and permanent.strip():
            from manasolver.models.tokens import token_record
            if token_record(permanent) is not None:
                card = _token(token_record(permanent)["name"])  # type: ignore[index]
            else:
                if db is None:
                    from manasolver.models.carddb import default_db
                    db = default_db()
                card = db.get(permanent.strip(), where="permanent")
        else:
            raise BadQuery("the permanent must be a Permanent, a Card or a card name", "permanent")
        perm = Permanent(run.fresh_id(card.name), card, player, tapped=tapped, sick=True,
                         token=card.layout == "token")
    if cast_for is not None:
        if cast_for != "impending":
            raise BadQuery(f"cast_for {cast_for!r} is not known; the engine knows 'impending'", "cast_for")
        n = impending_counters(perm.card)
        if n is None:
            raise BadState(f"{perm.card.name} has no impending cost", "cast_for")
        counters = dict(perm.counters)
        counters.setdefault("time", n)  # 702.176a: it enters with N time counters
        perm = perm._replace(cast_for=cast_for, counters=tuple(sorted(counters.items())))
    return perm


def enter(state: GameState, permanent: Permanent | Card | str, player: str | None = None, *,
          cast_for: str | None = None, tapped: bool = False, db: CardDB | None = None,
          choices: Mapping[str, str] | None = None) -> EnterResult:
    """Put ``permanent`` onto the battlefield under ``player`` (default: the first player;
    a given :class:`Permanent` keeps its controller and id) and resolve every trigger it
    causes, recursively and deterministically (see the module docstring).

    ``permanent`` is a :class:`Permanent`, a :class:`Card`, or a card name (the bundled
    card data, or ``db``; the predefined token names too).  ``cast_for="impending"``:
    it was cast for its impending cost and enters with its N time counters, a
    noncreature permanent (CR 702.176a, 118.9).  ``tapped``: it enters tapped
    (its own "enters tapped" text also applies).  Every entering permanent is
    summoning-sick (``sick``: not controlled since the turn began, CR 302.6).
    ``choices``: the mana a player chooses for a trigger that adds a choice of mana, by the
    source's id (``{"cobra": "{G}"}`` for Lotus Cobra); without one it is reported unresolved.
    Raises :class:`BadQuery` / :class:`BadState` / :class:`UnknownCard` on bad input.
    """
    run = _Run(state, choices)
    if player is None:
        player = state.players[0].name
    elif player not in run.players:
        raise BadQuery(f"player {player!r} is not a player of the state", "player")
    perm = _entering(run, permanent, player, cast_for, tapped, db)
    run.put(perm, "")
    while run.stack:
        source, trig = run.stack.pop()
        run.resolve(source, trig)
    return EnterResult(run.state(), tuple(run.happened), tuple(run.unresolved))


# -- becoming tapped ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TapDamage:
    """What tapping a permanent costs its controller in life through triggers: ``amount``
    (damage plus life loss), the ids of the ``sources`` whose triggers deal it, and the
    triggers about permanents becoming tapped that the engine could not read."""

    amount: int = 0
    sources: tuple[str, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()


def damage_when_tapped(state: GameState, permanent: str, include_self: bool = False) -> TapDamage:
    """Life the controller of ``permanent`` (an id) loses when it becomes tapped (CR 603.2):
    Auras attached to it ("Whenever enchanted land becomes tapped, its controller loses 2
    life.": Contaminated Ground, Pooling Venom, Psychic Venom; creatures: Insolence).  Its own
    "Whenever ~ becomes tapped, it deals 1 damage to you." (City of Brass) is already the
    ``damage`` of its {T} mana abilities, so it counts only with ``include_self``.  Any other
    trigger on the board that mentions becoming tapped (Royal Decree, Artifact Possession,
    Seizures' "unless that player pays {3}") is returned in ``unresolved``, not guessed."""
    try:
        perm = state.permanent(permanent)
    except KeyError:
        raise BadQuery(f"no permanent with id {permanent!r} on the battlefield", "permanent") from None
    amount = 0
    sources: list[str] = []
    unresolved: list[Unresolved] = []
    for q in state.battlefield:
        for trig in triggers_of(q.card):
            applies = ((trig.event == "enchanted_tapped" and q.attached_to == perm.id)
                       or (trig.event == "becomes_tapped" and q.id == perm.id and include_self))
            if not applies:
                if trig.event == "other" and "becomes tapped" in trig.text:
                    unresolved.append(Unresolved(q.id, trig.text, trig.unsupported))
                continue
            hurt = hurt_when_tapped(trig)
            if hurt is None:
                unresolved.append(Unresolved(q.id, trig.text, trig.unsupported or "a condition"))
                continue
            if hurt:
                amount += hurt
                sources.append(q.id)
    return TapDamage(amount, tuple(sources), tuple(unresolved))


# -- steps --------------------------------------------------------------------------------------

#: Static text that keeps unspent mana as steps end (Upwelling, Omnath, Kruphix, Horizon Stone):
#: the engine does not model it and refuses rather than empty such a pool.
_KEEPS_MANA = re.compile(r"\bdon't lose unspent\b|\bwould lose unspent mana\b|\bmana pools? (?:don't|doesn't) empty\b",
                         re.IGNORECASE)


def advance_step(state: GameState, step: str) -> GameState:
    """The board after moving to ``step`` (one of :data:`manasolver.models.state.STEPS`):
    when it is another step, every player's mana pool empties (CR 106.4, 500.4) and
    energy counters stay (they are not mana, CR 106.4, 107.14).  Moving to the current
    step changes nothing.  A permanent whose text keeps unspent mana (Upwelling) with
    mana in a pool is refused as :class:`Unsupported`."""
    if not isinstance(step, str) or step not in STEPS:
        raise BadQuery(f"unknown step {step!r}; the steps are {', '.join(STEPS)}", "step")
    if step == state.turn.step:
        return state
    if any(p.pool for p in state.players):
        for perm in state.battlefield:
            if _KEEPS_MANA.search(perm.card.oracle_text or ""):
                raise Unsupported(f"{perm.card.name} ({perm.id}) changes what happens to unspent mana as "
                                  "steps end; the engine does not model it", f"battlefield.{perm.id}")
    players = tuple(p if not p.pool else p._replace(pool=ManaCost()) for p in state.players)
    return replace(state, players=players, turn=state.turn._replace(step=step))


# -- intervening "if" ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IfOutcome:
    """A trigger with an intervening "if" (CR 603.4): whether it ``triggers`` (the condition
    held as the event happened) and whether it ``resolves`` with effect (it held again on
    resolution); ``text`` is the trigger."""

    triggers: bool
    resolves: bool
    text: str = ""
    failed: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The protocol form; ``failed`` names the parts of the condition that were false
        (as it would trigger, or else on resolution)."""
        return {"triggers": self.triggers, "resolves": self.resolves, "text": self.text,
                "failed": list(self.failed)}


def intervening_if(at_trigger: GameState, at_resolution: GameState, source: str,
                   event: str = "your_upkeep") -> IfOutcome:
    """Whether the ``event`` trigger of permanent ``source`` triggers on ``at_trigger`` (the
    board as the event happens: as the upkeep begins) and does something on
    ``at_resolution`` (CR 603.4).  "At the beginning of your upkeep" triggers only in its
    controller's turn.  The trigger keeps its controller if the source leaves (603.3a)."""
    try:
        perm = at_trigger.permanent(source)
    except KeyError:
        raise BadQuery(f"no permanent with id {source!r} on the battlefield", "source") from None
    found = [t for t in triggers_of(perm.card) if t.event == event]
    if not found:
        raise BadQuery(f"{perm.card.name} ({source}) has no {event} trigger the engine reads", "source")
    trig = found[0]
    if not trig.supported:
        raise Unsupported(f"{perm.card.name}: {trig.unsupported}", "source")
    you = perm.controller
    if event == "your_upkeep" and at_trigger.turn.active != you:
        return IfOutcome(False, False, trig.text)
    parts = condition_parts(trig.condition, at_trigger, you)
    if not all(parts.values()):
        return IfOutcome(False, False, trig.text, tuple(k for k, ok in parts.items() if not ok))
    if not any(p.name == you for p in at_resolution.players):
        raise BadQuery(f"the resolution board has no player {you!r}", "at_resolution")
    parts = condition_parts(trig.condition, at_resolution, you)
    failed = tuple(k for k, ok in parts.items() if not ok)
    return IfOutcome(True, not failed, trig.text, failed)


def wins_at_upkeep(at_trigger: GameState, at_resolution: GameState, player: str | None = None) -> bool:
    """Whether ``player`` (default: the first) wins through an upkeep trigger with a "you win
    the game" effect of a permanent they control (Happily Ever After): it must trigger as the
    upkeep begins and its condition still hold on resolution (CR 603.4)."""
    name = player or at_trigger.players[0].name
    if not any(p.name == name for p in at_trigger.players):
        raise BadQuery(f"player {name!r} is not a player of the state", "player")
    for perm in at_trigger.controlled_by(name):
        for trig in triggers_of(perm.card):
            wins = trig.event == "your_upkeep" and any(e.kind == "win" for e in trig.effects)
            if wins and intervening_if(at_trigger, at_resolution, perm.id).resolves:
                return True
    return False
