"""Sampled games of a deck: the mulligan, the draws, and every choice of land drops searched exactly.

One chunk of games is ``(seed, chunk index, n games) -> Counts``; chunks are independent (each has its
own generator, seeded by the run's seed and the chunk index), and their counts add, so a run gives the
same numbers in one process or spread over many.

The model (:data:`MODEL` says it in the output):

* the London mulligan with Karsten's keep rules: seven cards kept with 2–5 lands; six or five kept with
  2–4 lands after putting cards on the bottom (lands beyond three first, then spells, mana sources last;
  of the lands, the one with most copies in the hand, ties to the one with fewer copies in the deck);
  four always kept.  Commander: the first mulligan is free (seven cards again), seven-card hands are
  kept with 3–5 lands, and the player draws on turn 1.
* on the play (default) no draw on turn 1; on the draw one.  One land a turn, played whenever one is in
  the hand.
* for each turn T every sequence of land drops is searched (a breadth-first search over the multiset
  of lands played and the sources cast, remembered per turn and per game by the lands and
  sources it sees; at most :data:`MAX_STATES` states a turn, the turns cut there counted); the spell is castable on
  turn T when SOME sequence leaves a board that the engine
  can pay its cost with.  A land that enters tapped is tapped on the turn it is played; conditions
  (check, reveal, fast and slow lands) are read against the lands played before it; shock lands enter
  untapped for 2 life.  A fetch land is, on the turn it is played, any land it can find among the cards
  not drawn by the last turn asked about (one choice per findable name; the found land enters tapped
  when the fetch says so or its own text does).
* nonland mana sources (the deck's artifacts and creatures with mana abilities) are cast at the end of
  each turn before T, cheapest first, each one when the turn's board can pay it together with those
  already cast that turn; a source is used from the next turn on (so a creature is never used while
  summoning sick, and a source cast on turn T never pays for the spell on turn T).
* the spell itself need not be in the hand: the question is whether the mana is there (as in Karsten's
  tables); X is 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.solver.castability.board import BoardKey, BoardOracle
from manasolver.solver.castability.lands import LandRule, land_rule

__all__ = ["Counts", "DeckModel", "MAX_STATES", "MODEL", "run_chunk"]

#: The search's bound: states kept per turn of one game.
MAX_STATES = 4096

MODEL = {
    "mulligan": "London; keep 7 cards with 2-5 lands, 6 or 5 with 2-4 after bottoming (lands beyond three "
                "first, then spells, mana sources last; the land bottomed is the one with most copies in the hand, "
                "ties to the one with fewer in the deck), 4 always",
    "commander_rules": "one free mulligan, 7-card hands kept with 3-5 lands, a draw on turn 1",
    "land_drops": "one land a turn, played whenever one is in the hand; every sequence of drops searched "
                  "exactly: castable on turn T when some sequence leaves a board that can pay the cost",
    "tapped_lands": "tapped on the turn played, by their text; check, reveal, fast and slow lands by their "
                    "condition against the lands played before; shock lands untapped for 2 life; "
                    "an unread condition counts as tapped",
    "fetch_lands": "a fetch land is any land it can find among the cards not drawn by the last turn asked, "
                   "chosen to serve the question",
    "mana_sources": "nonland mana sources in the hand are cast at the end of each turn before T, cheapest "
                    "first, each when the board can pay it with those cast before it that turn; used from "
                    "the next turn on (never summoning sick, never paying on the turn cast)",
    "spell": "the spell need not be in the hand; X is 0",
    "castable": "the payment engine's exact can_pay on the board of lands and sources",
    "p_given_lands": "among games with at least the spell's mana value in lands played by turn T",
}


@dataclass(frozen=True, slots=True)
class Spell:
    name: str
    cost: ManaCost
    mana_value: int


@dataclass
class DeckModel:
    """The deck as the games see it: ``cards`` by index, the library as indices, what each card is."""

    cards: tuple[Card, ...]
    library: tuple[int, ...]
    is_land: tuple[bool, ...]
    sources: tuple[int, ...]
    spells: tuple[Spell, ...]
    commander: bool
    rules: dict[int, LandRule] = field(default_factory=dict)

    @staticmethod
    def build(deck_cards: tuple[tuple[str, int, Card], ...], commander: tuple[Card, ...]) -> "DeckModel":
        cards: list[Card] = []
        library: list[int] = []
        for _, n, card in deck_cards:
            cards.append(card)
            library.extend([len(cards) - 1] * n)
        for card in commander:
            if card not in cards:
                cards.append(card)
        is_land = tuple("land" in c.type_line.types for c in cards)
        sources = tuple(i for i, c in enumerate(cards) if not is_land[i] and c.mana_abilities
                        and c.mana_cost is not None and i in set(library)
                        and any(t in c.type_line.types for t in ("artifact", "creature", "enchantment")))
        spells: list[Spell] = []
        for card in [c for i, c in enumerate(cards) if not is_land[i]]:
            cost = card.mana_cost or (card.faces[0].mana_cost if card.faces else None)
            if card.faces and card.faces[0].mana_cost is not None:
                cost = card.faces[0].mana_cost
            if cost is None:
                continue
            spells.append(Spell(card.name, cost, cost.mana_value()))
        rules = {i: land_rule(c) for i, c in enumerate(cards) if is_land[i]}
        return DeckModel(tuple(cards), tuple(library), is_land, sources, tuple(spells), bool(commander), rules)


@dataclass
class Counts:
    """The counts of a chunk of games, by turn (index 0 is turn 1) and spell; they add."""

    turns: int
    spells: int
    games: int = 0
    castable: list[list[int]] = field(default_factory=list)
    with_lands: list[list[int]] = field(default_factory=list)
    castable_with_lands: list[list[int]] = field(default_factory=list)
    cut: int = 0
    mulligans: int = 0
    hist: dict[tuple[int, int, int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.castable:
            self.castable = [[0] * self.spells for _ in range(self.turns)]
            self.with_lands = [[0] * self.spells for _ in range(self.turns)]
            self.castable_with_lands = [[0] * self.spells for _ in range(self.turns)]

    def flush(self, spells: tuple["Spell", ...]) -> None:
        """Move the games counted in :attr:`hist` (per turn, mask, lands played, cut) into the rows."""
        for (t, mask, lands, cut), n in self.hist.items():
            row = self.castable[t - 1]
            wrow = self.with_lands[t - 1]
            cwrow = self.castable_with_lands[t - 1]
            self.cut += cut * n
            for i, spell in enumerate(spells):
                ok = (mask >> i) & 1
                row[i] += ok * n
                if lands >= spell.mana_value:
                    wrow[i] += n
                    cwrow[i] += ok * n
        self.hist.clear()

    def add(self, other: "Counts") -> None:
        self.games += other.games
        self.cut += other.cut
        self.mulligans += other.mulligans
        for mine, theirs in ((self.castable, other.castable), (self.with_lands, other.with_lands),
                             (self.castable_with_lands, other.castable_with_lands)):
            for row, orow in zip(mine, theirs):
                for i, v in enumerate(orow):
                    row[i] += v


_State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
#: The search's first state: no land used, none on the battlefield, no source cast.
_START: frozenset[_State] = frozenset({((), (), ())})
#: The most turns of search remembered per process.
_STEP_MEMO = 2_000_000
#: The most games remembered per process (by the lands and sources they see, in order).
_GAME_MEMO = 1_000_000

class _Game:
    """One deck's game machinery in one process: the oracle and the memo of entry and casting."""

    def __init__(self, model: DeckModel, oracle: BoardOracle) -> None:
        self.m = model
        self.oracle = oracle
        self._tapped: dict[tuple[int, tuple[int, ...], tuple[int, ...]], bool] = {}
        self._cast: dict[tuple[BoardKey, tuple[int, ...]], tuple[int, ...]] = {}
        self.source_rank = {s: (model.cards[s].mana_cost.mana_value()  # type: ignore[union-attr]
                                if model.cards[s].mana_cost else 0, s) for s in model.sources}
        self._steps: dict[object, tuple[frozenset[_State], int, int]] = {}
        self._games: dict[object, tuple[tuple[int, int, int, int], ...]] = {}
        self.fetches = any(r.fetch is not None for r in model.rules.values())
        self.land_counts: dict[int, int] = {}
        for c in model.library:
            if model.is_land[c]:
                self.land_counts[c] = self.land_counts.get(c, 0) + 1
        self.is_source = [False] * len(model.cards)
        for s in model.sources:
            self.is_source[s] = True
        self.relevant = [land or src for land, src in zip(model.is_land, self.is_source)]

    # -- the mulligan ------------------------------------------------------------------------------

    def opening(self, rng: random.Random, draws: int) -> tuple[list[int], list[int], int]:
        """The kept hand, the next ``draws`` cards of the library (top first) and the number of
        mulligans.  Each hand is seven cards of a fresh shuffle; only the cards a game can see are
        drawn from it (the top of a shuffled deck is a uniform sample without replacement), and the
        cards put on the bottom stay under them."""
        deck = self.m.library
        plan = _PLAN_COMMANDER if self.m.commander else _PLAN
        is_land = self.m.is_land
        for attempt, (bottom, lo, hi) in enumerate(plan):
            top = rng.sample(deck, 7 + draws)
            hand = top[:7]
            if bottom:
                hand, _ = self._bottom(hand, bottom)
            lands = sum(1 for c in hand if is_land[c])
            if lo <= lands <= hi or attempt == len(plan) - 1:
                return hand, top[7:], attempt
        raise AssertionError("unreachable")

    def _bottom(self, hand: list[int], k: int) -> tuple[list[int], list[int]]:
        is_land = self.m.is_land
        lands = [c for c in hand if is_land[c]]
        spells = [c for c in hand if not is_land[c] and not self.is_source[c]]
        sources = [c for c in hand if self.is_source[c]]
        out: list[int] = []
        while k and len(lands) > 3:
            out.append(self._bottom_land(lands))
            k -= 1
        for pile in (spells, sources):
            while k and pile:
                out.append(pile.pop())
                k -= 1
        while k and lands:
            out.append(self._bottom_land(lands))
            k -= 1
        return lands + spells + sources, out

    def _bottom_land(self, lands: list[int]) -> int:
        """Take from ``lands`` the land to put on the bottom: the one with the most copies in the
        hand, ties to the one with fewer copies in the deck (the off-colour land of a two-colour
        deck, as Karsten bottoms "other lands" first)."""
        counts = self.land_counts
        best = max(lands, key=lambda c: (lands.count(c), -counts.get(c, 0), c))
        lands.remove(best)
        return best

    # -- one game ----------------------------------------------------------------------------------

    def _enters_tapped(self, land: int, played: tuple[int, ...], hand: tuple[int, ...]) -> bool:
        rule = self.m.rules[land]
        if rule.kind in ("untapped", "shock"):
            return False
        if rule.kind == "tapped":
            return True
        key = (land, played, hand if rule.kind == "reveal" else ())
        hit = self._tapped.get(key)
        if hit is None:
            cards = self.m.cards
            hit = rule.enters_tapped(tuple(cards[i] for i in played), tuple(cards[i] for i in hand))
            self._tapped[key] = hit
        return hit

    def _cast_sources(self, key: BoardKey, candidates: tuple[int, ...]) -> tuple[int, ...]:
        memo = (key, candidates)
        hit = self._cast.get(memo)
        if hit is not None:
            return hit
        chosen: list[int] = []
        total: ManaCost | None = None
        for s in sorted(candidates, key=self.source_rank.__getitem__):
            cost = self.m.cards[s].mana_cost
            assert cost is not None
            trial = cost if total is None else total + cost
            if self.oracle.payable(key, trial):
                chosen.append(s)
                total = trial
        out = tuple(sorted(chosen))
        self._cast[memo] = out
        return out

    def play(self, rng: random.Random, turns: int, draw_first: bool, counts: Counts) -> None:
        """One game, its answers for turns 1..``turns`` added to ``counts``."""
        m = self.m
        draws_on_1 = 1 if (draw_first or m.commander) else 0
        n_drawn_last = turns - 1 + draws_on_1
        hand, drawn, mulligans = self.opening(rng, n_drawn_last)
        counts.games += 1
        counts.mulligans += mulligans
        remaining: tuple[tuple[int, int], ...] = ()
        if self.fetches:
            # the cards not drawn by the last turn: what a fetch land can find
            left = dict(self.land_counts)
            for c in hand + drawn:
                if c in left:
                    left[c] -= 1
            remaining = tuple(sorted((c, k) for c, k in left.items() if k > 0))
        relevant = self.relevant
        key = (tuple(sorted(c for c in hand if relevant[c])), tuple(c if relevant[c] else -1 for c in drawn),
               remaining, draws_on_1)
        outcome = self._games.get(key)
        if outcome is None:
            outcome = self._search(hand, drawn, remaining, draws_on_1, turns)
            if len(self._games) < _GAME_MEMO:
                self._games[key] = outcome
        hist = counts.hist
        for turn_key in outcome:
            hist[turn_key] = hist.get(turn_key, 0) + 1

    def _search(self, hand: list[int], drawn: list[int], remaining: tuple[tuple[int, int], ...],
                draws_on_1: int, turns: int) -> tuple[tuple[int, int, int, int], ...]:
        """Per turn ``(turn, mask of castable spells, lands played, cut)`` of one game."""
        is_land = self.m.is_land
        is_source = self.is_source
        land_seen: dict[int, int] = {}
        src_seen: list[int] = []
        for c in hand:
            if is_land[c]:
                land_seen[c] = land_seen.get(c, 0) + 1
            elif is_source[c]:
                src_seen.append(c)
        states: frozenset[_State] = _START
        lands_played = 0
        n_land_seen = sum(land_seen.values())
        step = self._step
        out: list[tuple[int, int, int, int]] = []
        for t in range(1, turns + 1):
            if t > 1 or draws_on_1:
                c = drawn[t - 2 + draws_on_1]
                if is_land[c]:
                    land_seen[c] = land_seen.get(c, 0) + 1
                    n_land_seen += 1
                elif is_source[c]:
                    src_seen.append(c)
            drop = n_land_seen > lands_played
            if drop:
                lands_played += 1
            states, mask, cut = step(states, tuple(sorted(land_seen.items())), tuple(sorted(src_seen)),
                                     remaining, drop, t < turns)
            out.append((t, mask, lands_played, cut))
        return tuple(out)

    def _step(self, states: frozenset[_State], land_seen: tuple[tuple[int, int], ...],
              src_seen: tuple[int, ...], remaining: tuple[tuple[int, int], ...], drop: bool,
              expand: bool) -> tuple[frozenset[_State], int, int]:
        """One turn of the search, remembered: from the states after the last turn, with the lands
        and sources seen so far, the states after this turn, the mask of spells some state can
        cast this turn, and 1 when the states were cut at :data:`MAX_STATES`."""
        memo = (states, land_seen, src_seen, remaining, drop, expand)
        hit = self._steps.get(memo)
        if hit is not None:
            return hit
        m = self.m
        new_states: set[_State] = set()
        mask = 0
        for used, field_lands, cast in states:
            base = [2 * x for x in field_lands] + [2 * s for s in cast]
            results: list[tuple[tuple[int, ...], tuple[int, ...], BoardKey]] = []
            if drop:
                for card, n in land_seen:
                    if used.count(card) >= n:
                        continue
                    new_used = tuple(sorted(used + (card,)))
                    rule = m.rules[card]
                    if rule.fetch is not None:
                        for target, left in remaining:
                            fetched = field_lands.count(target) - used.count(target)
                            if left - fetched <= 0 or not rule.fetch.finds(m.cards[target]):
                                continue
                            tapped = rule.fetch.tapped or self._enters_tapped(target, field_lands, ())
                            key = tuple(sorted(base + [2 * target + tapped]))
                            results.append((new_used, tuple(sorted(field_lands + (target,))), key))
                        continue
                    hand_now: tuple[int, ...] = ()
                    if rule.kind == "reveal":
                        rest = dict(land_seen)
                        for u in new_used:
                            rest[u] -= 1
                        hand_now = tuple(sorted(c for c, k in rest.items() for _ in range(k)))
                    tapped = self._enters_tapped(card, field_lands, hand_now)
                    key = tuple(sorted(base + [2 * card + tapped]))
                    results.append((new_used, tuple(sorted(field_lands + (card,))), key))
            if not results:
                results.append((used, field_lands, tuple(sorted(base))))
            for new_used, new_field, key in results:
                mask |= self.oracle.castable(key)
                if expand:
                    candidates = list(src_seen)
                    for s in cast:
                        candidates.remove(s)
                    new_cast = cast
                    if candidates:
                        chosen = self._cast_sources(key, tuple(candidates))
                        if chosen:
                            new_cast = tuple(sorted(cast + chosen))
                    new_states.add((new_used, new_field, new_cast))
        cut = 0
        if len(new_states) > MAX_STATES:
            cut = 1
            new_states = set(sorted(new_states)[:MAX_STATES])
        out = (frozenset(new_states), mask, cut)
        if len(self._steps) < _STEP_MEMO:
            self._steps[memo] = out
        return out


_GAMES: dict[int, _Game] = {}
#: (cards put on the bottom, fewest lands kept, most lands kept) of each hand in turn.
_PLAN = ((0, 2, 5), (1, 2, 4), (2, 2, 4), (3, 0, 7))
_PLAN_COMMANDER = ((0, 3, 5), (0, 3, 5), (1, 2, 4), (2, 2, 4), (3, 0, 7))


def run_chunk(model: DeckModel, oracle: BoardOracle, seed: int, chunk: int, n: int, turns: int,
              draw_first: bool) -> Counts:
    """The counts of ``n`` games of chunk ``chunk`` of the run seeded ``seed``."""
    game = _GAMES.get(id(oracle))
    if game is None or game.oracle is not oracle:
        game = _Game(model, oracle)
        _GAMES.clear()
        _GAMES[id(oracle)] = game
    rng = random.Random(f"{seed}/{chunk}")
    counts = Counts(turns=turns, spells=len(model.spells))
    for _ in range(n):
        game.play(rng, turns, draw_first, counts)
    counts.flush(model.spells)
    return counts
