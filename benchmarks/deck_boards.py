"""Boards and queries sampled from games of the real decklists in ``data/decks/``.

What a game client sends is a board of its own game: the lands it played one a turn, the mana
rocks and dorks it cast, its creatures and other permanents, some of them tapped to cast this
turn's spells or summoning sick, the cards left in its hand, and an opponent's board beside it;
the cost is a card of its hand, sent with that card as the ``spell``.  Object ids come from the
client's game and differ from one game to the next.

The game model (simple, stated so that a figure can say what it was measured on):

* the deck (its library; a Commander deck's commander in the command zone) is shuffled until
  the first seven cards hold 2-5 lands (four tries); seven cards are drawn, then one a turn (on
  turn 1 too in Commander, as in multiplayer);
* each turn one land of the hand is played (a land that enters tapped, by its text, is tapped
  that turn; one whose entering depends on a condition is tapped half the time); then the spells
  of the hand are cast, mana sources first, cheapest first, each with probability 0.7 (0.35 on the
  last turn: a client asks before and between its casts) while the mana available that turn (one
  per untapped land, rock or non-sick dork; colors are not checked) covers its mana value; the
  commander is cast the same way; instants and sorceries go to the graveyard;
* on the last turn what was spent is tapped (lands and rocks, chosen at random) and what was cast
  is summoning sick (creatures); permanents of earlier turns are untapped;
* a card whose text has it choose a color, a creature type or a card type as it enters gets
  ``chosen`` (a color of the deck, a creature type of the deck's creatures, or one of the card
  types it names), a planeswalker its loyalty counters, a card that says "charge counter" one
  charge counter;
* each player carries what a client knows of its turn: ``lands_played_this_turn``,
  ``spells_cast_this_turn`` (this turn's casts so far), ``cards_drawn_this_turn``,
  ``life_gained_this_turn`` (0: the model gains no life) and its ``library`` size;
* the opponent plays another deck of the same family to the same turn; its permanents are
  untapped but for one in six (mana spent at instant speed);
* ids are random numbers, drawn anew on every board.

Families: ``commander`` (the Commander decks, turns 4-10, 40 life) and ``sixty`` (the
sixty-card decks, turns 2-8, 20 life).  :func:`query` makes one query line: the cost of a card of
the hand (a spell of the deck when the hand has none) with its ``spell``, ``x`` on a quarter of
the lines (the card's X when it has one, else 0); :func:`lines` makes many, each on its own board.

>>> line = query("commander", "can_pay", 7)
>>> sorted(line) == ["cost", "id", "query", "spell", "state"] or "x" in line
True
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from manasolver.benchmarks.checkout import checkout_root

if TYPE_CHECKING:
    from manasolver.models.card import Card

__all__ = ["FAMILIES", "TURNS", "X_SHARE", "Deck", "Family", "board", "decks", "decks_dir", "game_board", "lines",
           "query"]

Family = Literal["commander", "sixty"]
FAMILIES: tuple[Family, ...] = ("commander", "sixty")
#: The turns a board of each family is sampled from (inclusive).
TURNS: dict[Family, tuple[int, int]] = {"commander": (4, 10), "sixty": (2, 8)}
_LIFE: dict[Family, int] = {"commander": 40, "sixty": 20}
_FOLDER: dict[Family, str] = {"commander": "commander", "sixty": "constructed"}
_PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "planeswalker", "battle"})
_COLORS = "WUBRG"
#: The share of lines that carry ``x``.
X_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class Deck:
    """A decklist: its name, family, library (card names, one per copy) and commander names."""

    name: str
    family: Family
    library: tuple[str, ...]
    commander: tuple[str, ...]


def decks_dir() -> Path:
    """``data/decks`` of the checkout (:func:`~manasolver.benchmarks.checkout.checkout_root`)."""
    return checkout_root() / "data" / "decks"


@cache
def decks(family: Family) -> tuple[Deck, ...]:
    """Every deck of ``family``, in the order of ``data/decks/index.json``."""
    from manasolver.models.carddb import default_db
    from manasolver.solver.castability.deck import parse_deck

    root = decks_dir()
    index = json.loads((root / "index.json").read_text(encoding="utf-8"))
    db = default_db()
    out: list[Deck] = []
    for entry in index:
        if not str(entry["file"]).startswith(_FOLDER[family] + "/"):
            continue
        deck = parse_deck((root / entry["file"]).read_text(encoding="utf-8"), db)
        library = tuple(name for name, n, _ in deck.cards for _ in range(n))
        out.append(Deck(str(entry["name"]), family, library, tuple(c.name for c in deck.commander)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the game model needs of a card."""

    land: bool
    permanent: bool
    creature: bool
    planeswalker: bool
    source: bool             # it has a mana ability
    value: int               # mana value (X as 0)
    cost: str                # its mana cost as text ("" for none)
    has_x: bool
    enters_tapped: bool | None
    choose_color: bool
    choose_type: bool
    choose_card_type: tuple[str, ...]   # the card types "choose artifact, creature, …" names
    charge: bool
    subtypes: tuple[str, ...]


@cache
def _facts(name: str) -> _Facts:
    from manasolver.models.carddb import default_db

    card: Card = default_db().get(name)
    types = card.type_line.types
    cost = card.mana_cost if card.mana_cost is not None else card.front_mana_cost
    text = card.oracle_text.lower()
    tapped = card.text.enters_tapped if card.text is not None else False
    return _Facts(land="land" in types, permanent=bool(_PERMANENT_TYPES.intersection(types)),
                  creature="creature" in types, planeswalker="planeswalker" in types,
                  source=bool(card.mana_abilities), value=cost.mana_value() if cost is not None else 0,
                  cost=cost.format() if cost is not None else "", has_x=bool(cost is not None and cost.x_count),
                  enters_tapped=tapped, choose_color="choose a color" in text,
                  choose_type="choose a creature type" in text, choose_card_type=_card_type_choice(text),
                  charge="charge counter" in text,
                  subtypes=card.type_line.subtypes)


def _card_type_choice(text: str) -> tuple[str, ...]:
    """The card types of "choose artifact, creature, enchantment, instant, or sorcery" (Cloud Key)
    in lower-case oracle text, or ``()``."""
    m = _CARD_TYPE_CHOICE.search(text)
    if m is None:
        return ()
    return tuple(t for t in re.split(r",\s*(?:or\s+)?|\s+or\s+", m.group(1)) if t in _CARD_TYPES)


_CARD_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "instant", "land", "planeswalker",
                         "sorcery"})
_CARD_TYPE_CHOICE = re.compile(r"choose ((?:[a-z]+, )+(?:or )?[a-z]+)\.")


class _Game:
    """One player's game to a turn: battlefield (name, tapped, sick, counters, chosen), hand, graveyard."""

    def __init__(self, deck: Deck, turn: int, rng: random.Random, colors: str, history: bool = True) -> None:
        self.rng = rng
        self.history = history
        self.colors = colors or "C"
        library = list(deck.library)
        for _ in range(4):  # a hand of 2-5 lands is kept (a mulligan reshuffles; no card is put back)
            rng.shuffle(library)
            if 2 <= sum(1 for n in library[:7] if _facts(n).land) <= 5:
                break
        draws = 7 + turn - (0 if deck.family == "commander" else 1)
        self.hand = library[:draws]
        self.library = len(library) - draws
        self.turn = turn
        self.first = deck.family != "commander"  # on the play in a duel: no draw on turn 1
        self.lands_played = self.spells_cast = 0
        self.field: list[dict[str, Any]] = []
        self.graveyard: list[str] = []
        self.command = list(deck.commander)
        self.types = _creature_types(deck)
        for t in range(1, turn + 1):
            self._turn(last=t == turn)

    def _turn(self, last: bool) -> None:
        rng = self.rng
        for p in self.field:
            p["tapped"] = False
            p["sick"] = False
        self.lands_played = self.spells_cast = 0
        lands = [n for n in self.hand if _facts(n).land]
        if lands:
            self.lands_played = 1
            land = rng.choice(lands)
            self.hand.remove(land)
            et = _facts(land).enters_tapped
            self._enter(land, tapped=bool(et) if et is not None else rng.random() < 0.5)
        untapped = [p for p in self.field if not p["tapped"] and not p["sick"] and _facts(p["card"]).source]
        mana = len(untapped)
        spent = 0
        spells = sorted((n for n in self.hand if not _facts(n).land and _facts(n).cost),
                        key=lambda n: (not (_facts(n).source and _facts(n).permanent), _facts(n).value))
        for name in spells + self.command:
            value = _facts(name).value
            if spent + value > mana or rng.random() > (0.35 if last else 0.7):
                continue
            spent += value
            self.spells_cast += 1
            if name in self.command:
                self.command.remove(name)
            else:
                self.hand.remove(name)
            if _facts(name).permanent:
                self._enter(name, sick=True)
            else:
                self.graveyard.append(name)
        if last:
            for p in rng.sample(untapped, min(spent, len(untapped))):
                p["tapped"] = True

    def _enter(self, name: str, tapped: bool = False, sick: bool = False) -> None:
        f = _facts(name)
        perm: dict[str, Any] = {"card": name, "tapped": tapped, "sick": sick and f.creature}
        if f.choose_color:
            perm["chosen"] = {"color": self.rng.choice(self.colors)}
        elif f.choose_type and self.types:
            perm["chosen"] = {"type": self.rng.choice(self.types).title()}
        elif f.choose_card_type and self.history:
            perm["chosen"] = {"type": self.rng.choice(f.choose_card_type)}
        if f.planeswalker:
            perm["counters"] = {"loyalty": self.rng.randint(1, 6)}
        elif f.charge:
            perm["counters"] = {"charge": 1}
        self.field.append(perm)


@cache
def _creature_types(deck: Deck) -> tuple[str, ...]:
    """The creature types of the deck's creatures, one per copy."""
    return tuple(t for n in deck.library for t in _facts(n).subtypes if _facts(n).creature)


@cache
def _deck_colors(deck: Deck) -> str:
    """The colors of the deck's mana costs, in WUBRG order."""
    return "".join(c for c in _COLORS if any(c in _facts(n).cost for n in deck.library + deck.commander))


def _permanents(game: _Game, controller: str, ids: list[int], opponent: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for p in game.field:
        perm: dict[str, Any] = {"id": str(ids.pop()), "card": p["card"], "controller": controller}
        tapped = game.rng.random() < 1 / 6 if opponent else p["tapped"]
        if tapped:
            perm["tapped"] = True
        if p["sick"] and not opponent:
            perm["sick"] = True
        for key in ("counters", "chosen"):
            if key in p:
                perm[key] = p[key]
        out.append(perm)
    return out


def board(family: Family, rng: random.Random, history: bool = True) -> tuple[dict[str, Any], list[str], Deck]:
    """One board of ``family``: (board JSON, the hand of the player asked about, their deck)."""
    mine, theirs = rng.sample(decks(family), 2)
    lo, hi = TURNS[family]
    state, hand = game_board(mine, theirs, rng.randint(lo, hi), rng, history)
    return state, hand, mine


def game_board(mine: Deck, theirs: Deck, turn: int, rng: random.Random,
               history: bool = True) -> tuple[dict[str, Any], list[str]]:
    """The board of a game of ``mine`` against ``theirs`` on ``turn``: (board JSON, the hand of the
    player asked about).  ``history=False``: the game model as it was before it carried the turn's
    history and card-type choices (the boards of an older answer snapshot)."""
    family = mine.family
    me = _Game(mine, turn, rng, _deck_colors(mine), history)
    them = _Game(theirs, turn, rng, _deck_colors(theirs), history)
    n = len(me.field) + len(them.field)
    ids = rng.sample(range(1, 10**7), n)
    life = _LIFE[family]
    you: dict[str, Any] = {"name": "you", "life": life - rng.randint(0, life // 2), "hand": list(me.hand),
                           **(_history(me) if history else {})}
    opp: dict[str, Any] = {"name": "opponent", "life": life - rng.randint(0, life // 2),
                           **(_history(them) if history else {})}
    if me.graveyard:
        you["graveyard"] = list(me.graveyard)
    if family == "commander":
        you["commander"] = list(mine.commander)
        opp["commander"] = list(theirs.commander)
    field = _permanents(me, "you", ids, False) + _permanents(them, "opponent", ids, True)
    return {"players": [you, opp], "battlefield": field}, me.hand


def _history(game: _Game) -> dict[str, Any]:
    """What a client knows of a player's turn so far (the board's history fields)."""
    return {"lands_played_this_turn": game.lands_played, "spells_cast_this_turn": game.spells_cast,
            "cards_drawn_this_turn": 0 if game.first and game.turn == 1 else 1, "life_gained_this_turn": 0,
            "library": {"size": game.library}}


def query(family: Family, kind: str, seed: int, ident: object = None, history: bool = True) -> dict[str, Any]:
    """One ``kind`` query (``can_pay``, ``pay`` …) on its own new board of ``family``: the cost of a
    card of the hand (a spell of the deck when the hand has none) with it as the ``spell``, and
    ``x`` on :data:`X_SHARE` of the lines."""
    rng = random.Random(f"{family}-{seed}")
    state, hand, deck = board(family, rng, history)
    spells = [n for n in hand if not _facts(n).land and _facts(n).cost]
    if not spells:
        spells = [n for n in deck.library if not _facts(n).land and _facts(n).cost]
    with_x = rng.random() < X_SHARE
    if with_x and any(_facts(n).has_x for n in spells):
        spells = [n for n in spells if _facts(n).has_x]
    card = rng.choice(spells)
    out: dict[str, Any] = {"query": kind, "id": seed if ident is None else ident, "state": state,
                           "cost": _facts(card).cost, "spell": {"card": card}}
    if with_x:
        out["x"] = rng.randint(1, 3) if _facts(card).has_x else 0
    return out


def lines(family: Family, kind: str, n: int, seed: int) -> list[str]:
    """``n`` JSON lines of :func:`query`, each on its own new board."""
    return [json.dumps(query(family, kind, seed * 100_000 + i, i)) for i in range(n)]

