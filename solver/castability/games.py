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
  tables); X is 0.  Every castable face is a row (both halves of a split or aftermath card, the
  adventure, each spell face of a modal double-faced card); a modal card with a land face is a land in
  the hand, played as either land face (Shatterskull, the Hammer Pass; both faces of a Pathway).  A
  face whose cost can be paid otherwise (delve, convoke, affinity, evoke, an alternative cost, a
  reduction) is a lower bound, with a note.
* the search leaves out only what can't change an answer: a fetch land's target when a land at least
  as good (:func:`.lands.at_least_as_good`) is there and can't run out, and, on a board of quiet permanents,
  a land that entered tapped (it adds nothing and nothing reads it).  A board is asked only the spells
  no other board of the turn has paid yet; the reasons of a failure (:class:`Counts`) ask the same
  boards with their lands untapped, and the spells' costs with one colored symbol paid by any mana.
  In a game without mana sources or check lands, a fetch land stays unresolved until a board is
  asked, its target then chosen for the question (the same answers: each choice of targets the
  library allows is a sequence of plays, :meth:`_Game._step_open`).
"""

from __future__ import annotations

import gc
import itertools
import random
from bisect import bisect_right
from collections.abc import Callable
from typing import TypeVar

from manasolver.models.cost import ManaCost
from manasolver.solver.castability.board import BoardKey, BoardOracle, _Parts, payment_classes
from manasolver.solver.castability.converters import Converters
from manasolver.solver.castability.counts import Counts
from manasolver.solver.castability.deckmodel import DeckModel, Spell, castable_faces, land_faces
from manasolver.solver.castability.lands import at_least_as_good
from manasolver.solver.castability.units import fixed_choice
from manasolver.solver.supply.plain import quiet

__all__ = ["Chunk", "Counts", "DeckModel", "MAX_STATES", "MODEL", "Spell", "castable_faces", "land_faces", "run_chunk"]

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
                    "condition against the lands played before; shock lands untapped for 2 life "
                    "(the modal lands that ask 3 life too); "
                    "an unread condition counts as tapped",
    "fetch_lands": "a fetch land is any land it can find among the cards not drawn by the last turn asked, "
                   "chosen to serve the question",
    "mana_sources": "nonland mana sources in the hand are cast at the end of each turn before T, cheapest "
                    "first, each when the board can pay it with those cast before it that turn; used from "
                    "the next turn on (never summoning sick, never paying on the turn cast); kicked once or "
                    "with X = 1 when their counters come so (Everflowing Chalice for {2} with one charge "
                    "counter); sunburst counts no color (a lower bound)",
    "spell": "the spell need not be in the hand; X is 0",
    "castable": "the payment engine's exact can_pay on the board of lands and sources",
    "p_given_lands": "among games with at least the spell's mana value in lands played by turn T",
}


_State = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
#: A board of the unresolved search: its key, and its unresolved fetch lands as ``(fetch land, 1 when
#: played this turn)``.
_Board = tuple[BoardKey, tuple[tuple[int, int], ...]]
_T = TypeVar("_T", int, tuple[int, int])
#: A land drop of a state: the lands used, on the battlefield, the board, the board asked, the code the
#: board asked adds to the state's board (``-1``: none) and the land's code untapped (``-1``: no land).
_Result = tuple[tuple[int, ...], tuple[int, ...], BoardKey, BoardKey, int, int]
#: Per choice of colors for a board's lands of any of several colors, the cards of one color each they
#: become and the sources cast (:meth:`_Game._split`).
_Split = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
#: The entries of a land that does not depend on the board.
_FIXED = ("untapped", "shock", "tapped")
#: The search's first state: no land used, none on the battlefield, no source cast.
_START: frozenset[_State] = frozenset({((), (), ())})
#: The most turns of search remembered per process (then forgotten all at once: a worker of a long run
#: keeps its memory bounded, about a kilobyte a turn, and remembers the turns of its recent games).
_STEP_MEMO = 300_000
#: The most games remembered per process (by the lands and sources they see, in order).
_GAME_MEMO = 200_000
#: The most search states whose boards are remembered per process.
_INFO_MEMO = 500_000
#: The most search states whose boards are remembered when a game of a Commander deck starts: past it
#: the memos serving mostly one game are emptied (:meth:`_Game.shed`; every ten games or so of Dance of
#: the Elements, every hundred of a deck of few lands in play): smaller tables are faster, and another
#: game seldom meets them.  A sixty-card deck's games meet the same few boards again: they keep them.
_SHED = 500
#: The most entries of the memos of a deck's games and oracle together (:meth:`_Game.memo_size`) when a
#: chunk starts: past it those serving mostly one game are emptied (:meth:`_Game.shed`), and all of them
#: when that leaves more than half, so that a worker of a long run stays within some hundreds of
#: megabytes (a From Cute to Brute game adds about 250 entries of half a kilobyte, and hardly a game is
#: faster for the memos of a thousand games before it).
MEMO_BUDGET = 1_000_000
#: The memos of :class:`_Game`, emptied together by :meth:`_Game.forget`.
_MEMOS = ("_tapped", "_cast", "_trials", "_steps", "_infos", "_games", "_open_steps", "_open_infos",
          "_open_answers", "_targets", "_capped", "_splits", "_why")

class _Game:
    """One deck's game machinery in one process: the oracle and the memo of entry and casting."""

    def __init__(self, model: DeckModel, oracle: BoardOracle) -> None:
        self.m = model
        self.oracle = oracle
        self._tapped: dict[tuple[int, tuple[int, ...], tuple[int, ...]], bool] = {}
        #: the sources cast per board signature (or board, when it has none) and candidates
        #: (:meth:`_cast_sources`); per sources (in the order cast), their cast costs' total
        self._cast: dict[object, tuple[int, ...]] = {}
        self._trials: dict[tuple[int, ...], ManaCost] = {}
        self.source_rank = {s: (cost.mana_value() if (cost := model.cast_costs.get(s)) else 0, s)
                            for s in model.sources}
        self._steps: dict[object, tuple[frozenset[_State], int, int, int]] = {}
        #: per search state, its board (sorted), whether the board is quiet and its fetch lands played
        self._infos: dict[_State, tuple[BoardKey, bool, int, _Parts | None]] = {}
        self._games: dict[object, tuple[tuple[int, int, int, int, int], ...]] = {}
        self.fetches = any(r.fetch is not None for r in model.rules.values())
        self.land_counts: dict[int, int] = {}
        for c in model.library:
            if model.is_land[c]:
                self.land_counts[c] = self.land_counts.get(c, 0) + 1
        self.is_source = [False] * len(model.cards)
        for s in model.sources:
            self.is_source[s] = True
        self.relevant = [land or src for land, src in zip(model.is_land, self.is_source)]
        self._why: dict[int, int] = {}
        #: per count of lands played, the spells of mana value at most that (:meth:`_affordable`)
        self._aff: list[int] = []
        #: per card, whether it is quiet; per land, whether it is quiet and adds mana only by tapping
        #: (tapped, it adds nothing)
        self.quiet_cls = [quiet(fixed_choice(c, model.chosen.get(i, 0))) for i, c in enumerate(model.cards)]
        self.inert = [self.quiet_cls[i] and bool(c.mana_abilities)
                      and all(a.cost.tap for a in c.mana_abilities) for i, c in enumerate(model.cards)]
        #: each card's payment class: what the board keys are made of
        self.cls = payment_classes(model.cards, model.chosen)
        #: for each fetch land, the land cards of the deck it can find
        self.finds: dict[int, frozenset[int]] = {}
        for c, rule in model.rules.items():
            if rule.fetch is not None:
                self.finds[c] = frozenset(t for t in self.land_counts if rule.fetch.finds(model.cards[t]))
        self.findable = frozenset().union(*self.finds.values()) if self.finds else frozenset()
        #: for each land a fetch can find, the findable lands at least as good on the battlefield
        self.better: dict[int, tuple[int, ...]] = {
            t: tuple(u for u in sorted(self.findable) if u != t and at_least_as_good(model.cards[u], u,
                                                                                   model.cards[t], t))
            for t in self.findable}
        #: per fetch land, the lands it can find (ascending) and whether each enters tapped when found
        self.find_list = {f: tuple(sorted(ts)) for f, ts in self.finds.items()}
        self.target_tapped = {(f, t): bool(model.rules[f].fetch.tapped) or model.rules[t].kind == "tapped"  # type: ignore[union-attr]
                              for f, ts in self.finds.items() for t in ts}
        #: the lands a fetch land may stay unresolved for: entering the same way whatever the board
        self.fixed_entry = frozenset(t for t in self.findable if model.rules[t].kind in _FIXED
                                     and t not in model.choices)
        self.check_lands = frozenset(c for c, r in model.rules.items() if r.kind == "check")
        #: per card, whether it enters tapped when it is a land entering the same way on any board, of
        #: no color chosen and no fetch land (:meth:`_drop`'s first case, played without it); else ``None``
        self.fixed_tapped: list[bool | None] = [None] * len(model.cards)
        for c, rule in model.rules.items():
            if rule.fetch is None and rule.kind in _FIXED and c not in model.choices:
                self.fixed_tapped[c] = rule.kind == "tapped"
        self._open_steps: dict[object, tuple[frozenset[_State], int, int, int]] = {}
        self._open_infos: dict[tuple[int, ...], tuple[BoardKey, tuple[tuple[int, int], ...], bool, _Parts | None]] = {}
        #: per board and unresolved fetch lands, the spells some choice of targets pays and those decided
        #: (tuples: a cache of containers the garbage collector tracks slows every collection)
        self._open_answers: dict[object, tuple[int, int]] = {}
        #: per unresolved fetch lands and library, the targets' codes asked
        self._targets: dict[object, tuple[BoardKey, ...]] = {}
        self._capped: dict[tuple[tuple[tuple[int, int], ...], int], tuple[tuple[int, int], ...]] = {}
        #: per payment class of a land of any of several colors that splits (:attr:`DeckModel.splits`),
        #: its card; per card of one color it splits into, that card
        self.split_cls = {self.cls[c]: c for c in model.splits}
        self.split_of = {one: c for c, ones in model.splits.items() for one in ones}
        #: the codes of those lands untapped
        self.split_codes = frozenset(2 * k for k in self.split_cls)
        self._splits: dict[tuple[BoardKey, tuple[int, ...]], _Split | None] = {}

    def memo_size(self) -> int:
        """The entries of the games' memos and the oracle's."""
        return sum(len(getattr(self, name)) for name in _MEMOS) + self.oracle.memo_size()

    def shed(self) -> None:
        """Empty the memos that serve mostly the game that filled them: the states' boards, and the
        boards the oracle answered by their signatures (:meth:`BoardOracle.forget_boards`); those
        shared by games (answers per signature, the sources cast, the steps) stay."""
        self._infos.clear()
        self.oracle.forget_boards()

    def forget(self) -> None:
        """Empty the games' memos and the oracle's (each answer is computed again when asked, the same)."""
        for name in _MEMOS:
            getattr(self, name).clear()
        self.oracle.forget()

    def _why_bits(self, failing: int) -> int:
        """The bits asked of the untapped boards for the reasons of the ``failing`` spells: theirs and
        their relaxed costs'."""
        hit = self._why.get(failing)
        if hit is None:
            hit = failing
            base = len(self.m.spells)
            for k, (i, _, _) in enumerate(self.m.relaxed):
                if failing >> i & 1:
                    hit |= 1 << (base + k)
            self._why[failing] = hit
        return hit

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
        """The sources of ``candidates`` cast on board ``key``, cheapest first, each when the board pays
        it with those cast before it; remembered per signature (each answer is
        :meth:`BoardOracle.payable`'s, the same on boards of one signature; a board's own signature is
        read from its answers, kept when it was asked, so a memo per board would only fill the budget)."""
        return self._cast_signed(key, candidates, self.oracle.signature_of(key))

    def _cast_signed(self, key: BoardKey, candidates: tuple[int, ...],
                     sig: tuple[tuple[int, ...], Converters] | None) -> tuple[int, ...]:
        """:meth:`_cast_sources` on the board ``key`` whose :meth:`BoardOracle.signature_of` is ``sig``,
        remembered per signature."""
        memo: object = (sig, candidates) if sig is not None else (key, candidates)
        hit = self._cast.get(memo)
        if hit is not None:
            return hit
        chosen: tuple[int, ...] = ()
        payable = self.oracle.payable_signed
        for s in sorted(candidates, key=self.source_rank.__getitem__):
            more = chosen + (s,)
            if payable(key, self._trial(chosen, more), sig):
                chosen = more
        out = self._cast[memo] = tuple(sorted(chosen))
        return out

    def _split(self, key: BoardKey, candidates: tuple[int, ...]) -> _Split | None:
        """The sources cast on board ``key`` for each color its untapped lands of any of several colors
        (:attr:`DeckModel.splits`) may have chosen, when that depends on the colors: ``((the cards of
        one color each they are, in the order of their codes in the key), sources cast)`` per choice;
        ``None`` when no such land is untapped on the board or the same sources are cast whatever the
        colors (the land then stays of any of its colors: each later question is one payment, and the
        colors that serve it were free until then).  Remembered per board and candidates."""
        memo = (key, candidates)
        try:
            return self._splits[memo]
        except KeyError:
            pass
        split_cls = self.split_cls
        open_ = [c for c in key if not c & 1 and c >> 1 in split_cls]
        out: _Split | None = None
        if open_ and self._cast_sources(key, candidates):
            # with any colors some source is cast (else none is with one color each)
            rest = [c for c in key if c & 1 or c >> 1 not in split_cls]
            cls = self.cls
            oracle = self.oracle
            # each board's signature made from the rest's and the lands' units (the same as read from it)
            parts = oracle.static_parts(tuple(rest))
            if parts is not None and self._colorless_outcome(open_, parts, candidates) == \
                    self._cast_sources(key, candidates):
                out = (((), self._cast_sources(key, candidates)),)
                self._splits[memo] = out
                return out
            outcomes: dict[tuple[int, ...], tuple[int, ...]] = {}
            for assigned in itertools.product(*(self.m.splits[split_cls[c >> 1]] for c in open_)):
                one = tuple(sorted(assigned))
                if one not in outcomes:
                    codes = tuple(2 * cls[a] for a in one)
                    board = tuple(sorted(rest + list(codes)))
                    sig = None if parts is None else oracle.signature_plus(parts, codes)
                    outcomes[one] = self._cast_signed(board, candidates, oracle.signature_of(board) if sig is None
                                                      else sig)
            if len(set(outcomes.values())) > 1:
                out = tuple(outcomes.items())
            else:
                # the same sources whatever the colors: cast those (no split)
                out = (((), next(iter(outcomes.values()))),)
        self._splits[memo] = out
        return out

    def _colorless_outcome(self, open_: list[int], parts: _Parts,
                           candidates: tuple[int, ...]) -> tuple[int, ...] | None:
        """The sources cast on the board of ``parts`` with each land of ``open_`` (codes of lands of any
        of several colors, :meth:`_split`) adding only the types all its colors share (the unit common
        to its cards of one color), answered by the units alone; ``None`` when they can't answer.

        When these are the sources the board casts with the lands of any of their colors, every choice of
        colors casts them, so the board doesn't split: that board pays a total when some choice does,
        this one only when every choice does (a unit of fewer types pays no more, Hall's condition), so
        the two casting the same sources (each decision the same, on the same totals) every choice makes
        the same decisions, each paying what the one board and the other pay."""
        split_cls = self.split_cls
        cls = self.cls
        oracle = self.oracle
        lower: list[int] = []
        for c in open_:
            common = -1
            for one in self.m.splits[split_cls[c >> 1]]:
                units = oracle.plain_units(parts, 2 * cls[one])
                if units is None or len(units) != 1:
                    return None
                common &= units[0]
            lower.append(common)
        sig = oracle.signature_units(parts, lower)
        if sig is None:
            return None
        memo = (sig, candidates)
        hit = self._cast.get(memo)
        if hit is not None:
            return hit
        chosen: tuple[int, ...] = ()
        for s in sorted(candidates, key=self.source_rank.__getitem__):
            more = chosen + (s,)
            paid = oracle.sig_payable(sig, self._trial(chosen, more))
            if paid is None:
                return None
            if paid:
                chosen = more
        out = self._cast[memo] = tuple(sorted(chosen))
        return out

    def _trial(self, chosen: tuple[int, ...], more: tuple[int, ...]) -> ManaCost:
        """The total cast cost of the sources ``more``: ``chosen`` and one more (remembered)."""
        trial = self._trials.get(more)
        if trial is None:
            cost = self.m.cast_costs[more[-1]]
            trial = self._trials[more] = cost if not chosen else self._trial(chosen[:-1], chosen) + cost
        return trial

    def _assigned(self, field_lands: tuple[int, ...], assigned: tuple[int, ...]) -> tuple[int, ...]:
        """``field_lands`` with a land of any of several colors turned into each card of one color of
        ``assigned`` (:meth:`_split`)."""
        if not assigned:
            return field_lands
        out = list(field_lands)
        of = self.split_of
        cls = self.cls
        for a in assigned:
            if of[a] in out:
                out.remove(of[a])
            else:  # another land of the same payment class
                out.remove(next(x for x in out if x in self.m.splits and cls[x] == cls[of[a]]))
            out.append(a)
        return tuple(sorted(out))

    def play(self, rng: random.Random, turns: int, draw_first: bool, counts: Counts) -> None:
        """One game, its answers for turns 1..``turns`` added to ``counts``."""
        m = self.m
        draws_on_1 = 1 if (draw_first or m.commander) else 0
        n_drawn_last = turns - 1 + draws_on_1
        hand, drawn, mulligans = self.opening(rng, n_drawn_last)
        counts.games += 1
        counts.mulligans += mulligans
        remaining: tuple[tuple[int, int], ...] = ()
        fetches_seen = sum(1 for c in hand + drawn if c in self.finds) if self.fetches else 0
        if fetches_seen:
            # the cards not drawn by the last turn that a fetch land can find, each count capped at the
            # fetch lands the game sees (no more copies can be taken, so the cap changes no answer and
            # lets games share their remembered steps)
            left = {c: self.land_counts[c] for c in self.findable}
            for c in hand + drawn:
                if c in left:
                    left[c] -= 1
            remaining = tuple(sorted((c, min(k, fetches_seen)) for c, k in left.items() if k > 0))
        relevant = self.relevant
        key = (tuple(sorted(c for c in hand if relevant[c])), tuple(c if relevant[c] else -1 for c in drawn),
               remaining, fetches_seen, draws_on_1)
        outcome = self._games.get(key)
        if outcome is None:
            if self.m.commander and len(self._infos) > _SHED:
                self.shed()
            outcome = self._search(hand, drawn, remaining, fetches_seen, draws_on_1, turns,
                                   self._open(hand + drawn, remaining, fetches_seen))
            if len(self._games) < _GAME_MEMO:
                self._games[key] = outcome
        hist = counts.hist
        for turn_key in outcome:
            hist[turn_key] = hist.get(turn_key, 0) + 1

    def _open(self, seen: list[int], remaining: tuple[tuple[int, int], ...], cap: int) -> bool:
        """Whether the game's fetch lands may be searched unresolved (:meth:`_step_open`): no mana source
        in the game (what a source casts would depend on the target), no check land (its entry reads the
        target's types), each land a fetch of the game can find entering the same way on any board, and
        each fetch land of the game finding at least as many cards as the game has fetch lands (so every
        fetch land played finds one, whatever the others found)."""
        is_source = self.is_source
        if any(is_source[c] for c in seen):
            return False
        if not cap:
            return True
        finds = self.finds
        faces = self.m.faces
        fetches = {f for c in seen for f in faces.get(c, ()) if f in finds}
        if any(f in self.check_lands for c in seen for f in faces.get(c, ())):
            return False
        fixed = self.fixed_entry
        for f in fetches:
            found = 0
            for t, k in remaining:
                if t in finds[f]:
                    if t not in fixed:
                        return False
                    found += k
            if found < cap:
                return False
        return True

    def _search(self, hand: list[int], drawn: list[int], remaining: tuple[tuple[int, int], ...], cap: int,
                draws_on_1: int, turns: int, open_: bool = False) -> tuple[tuple[int, int, int, int, int], ...]:
        """Per turn ``(turn, mask of castable spells, lands played, cut)`` of one game; ``open_``: its
        fetch lands searched unresolved (:meth:`_open`)."""
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
        finds = self.finds
        out: list[tuple[int, int, int, int, int]] = []
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
            fetching = remaining and any(c in finds for c in land_seen)
            if open_:
                states, mask, untapped, cut = self._step_open(states, tuple(sorted(land_seen.items())),
                                                              remaining if fetching else (), drop, t < turns,
                                                              lands_played)
            else:
                states, mask, untapped, cut = step(states, tuple(sorted(land_seen.items())),
                                                   tuple(sorted(src_seen)), remaining if fetching else (),
                                                   cap if fetching else 0, drop, t < turns, lands_played)
            out.append((t, mask, untapped, lands_played, cut))
        return tuple(out)

    def _step(self, states: frozenset[_State], land_seen: tuple[tuple[int, int], ...],
              src_seen: tuple[int, ...], remaining: tuple[tuple[int, int], ...], cap: int, drop: bool,
              expand: bool, lands: int) -> tuple[frozenset[_State], int, int, int]:
        """One turn of the search, remembered: from the states after the last turn, with the lands
        and sources seen so far, the states after this turn, the mask of spells some state can
        cast this turn, the mask some state's board pays with its lands untapped (the spells and the
        relaxed costs of :attr:`DeckModel.relaxed`, for the reasons of a failure), and 1 when the
        states were cut at :data:`MAX_STATES`.  The reasons are asked only of the spells of mana value
        at most ``lands`` (the lands played by this turn): a spell needing more is short of lands, and
        :class:`Counts` reads no other reason for it."""
        memo = (states, land_seen, src_seen, remaining, cap, drop, expand, lands)
        hit = self._steps.get(memo)
        if hit is not None:
            return hit
        m = self.m
        cls = self.cls
        new_states: set[_State] = set()
        mask = 0
        untapped = 0
        full = (1 << len(m.spells)) - 1
        known = self.oracle._known
        castable = self.oracle.castable
        quiet_cls = self.quiet_cls
        keys: list[BoardKey] = []
        faces = m.faces
        fixed = self.fixed_tapped
        inert = self.inert
        plus = self.oracle.castable_plus
        parts_of = self.oracle.static_parts
        infos = self._infos
        if len(infos) > _INFO_MEMO:
            infos.clear()
        finds = self.finds
        split_codes = self.split_codes
        parts_plus = self.oracle.parts_plus
        #: per state, its board, whether that is quiet, its parts, its land drops and the sources in the hand
        work: list[tuple[_State, BoardKey, bool, _Parts | None, list[_Result], tuple[int, ...]]] = []
        for state in states:
            used, field_lands, cast = state
            info = infos.get(state)
            if info is None:
                board = sorted([2 * cls[x] for x in field_lands] + [2 * cls[s] for s in cast])
                # on a board of quiet permanents a land that entered tapped adds nothing and nothing
                # reads it: the board is asked without it
                info = infos[state] = (tuple(board), all(quiet_cls[c >> 1] for c in board),
                                       sum(1 for u in used if u in finds), parts_of(tuple(board)))
            base, quiet_base, fetches_used, parts = info
            results: list[_Result] = []
            # the fetch lands the game may still play, this turn's included
            fetches_left = cap - fetches_used if remaining else 0
            if drop:
                for physical, n in land_seen:
                    if used.count(physical) >= n:
                        continue
                    new_used = _insort(used, physical)
                    for card in faces[physical]:
                        tapped = fixed[card]
                        if tapped is None:
                            self._drop(card, physical, used, new_used, field_lands, base, land_seen, remaining,
                                       fetches_left, quiet_base, results)
                        else:
                            _place(card, tapped, new_used, field_lands, base, quiet_base and inert[card], cls,
                                   results)
            if not results:
                results.append((used, field_lands, base, base, -1, -1))
            if expand and src_seen:
                # the sources in the hand: those seen but cast
                left = list(src_seen)
                for s in cast:
                    left.remove(s)
                candidates = tuple(left)
            else:
                candidates = ()
            work.append((state, base, quiet_base, parts, results, candidates))
            for r in results:
                keys.append(r[2])
        # the turn's mask is the union of its boards' answers, whatever the order they are asked in:
        # first what the boards already answered pay, then each board only the spells none paid
        for _, _, _, _, results, _ in work:
            for r in results:
                entry = known.get(r[3])
                if entry is not None:
                    mask |= entry[0]
        for _, _, _, parts, results, _ in work:
            if mask == full:
                break
            for _, _, _, key, code, _ in results:
                if mask == full:
                    break
                need = full & ~mask
                entry = known.get(key)
                if entry is not None and (entry[0] | entry[1]) & need == need:
                    continue
                if parts is not None:
                    mask |= plus(parts, code, key, need)
                else:
                    mask |= castable(key, need)
        for state, base, quiet_base, parts, results, candidates in work if expand else ():
            cast = state[2]
            open_base = bool(split_codes) and not split_codes.isdisjoint(base)
            for new_used, new_field, full_key, key, code, land in results:
                new_cast = cast
                if candidates:
                    # only a board with an untapped land of any of several colors may split
                    split = self._split(key, candidates) if open_base or code in split_codes else None
                    if split is not None:
                        for assigned, chosen in split:
                            new_states.add((new_used, self._assigned(new_field, assigned),
                                            tuple(sorted(cast + chosen)) if chosen else cast))
                        continue
                    chosen = self._cast_sources(key, candidates)
                    if chosen:
                        new_cast = tuple(sorted(cast + chosen))
                else:
                    chosen = ()
                new_state = (new_used, new_field, new_cast)
                if parts is not None and (land >= 0 or chosen) and new_state not in infos:
                    # the new state's board is this one's with the land and the sources: its parts
                    # made from these when they can be (the same as read from the board)
                    added = tuple(2 * cls[x] for x in chosen) + ((land,) if land >= 0 else ())
                    new_parts = parts_plus(parts, added)
                    if new_parts is not None:
                        board_after = base
                        for c in added:
                            board_after = _insort(board_after, c)
                        infos[new_state] = (board_after, quiet_base and all(quiet_cls[c >> 1] for c in added),
                                            sum(1 for u in new_used if u in finds), new_parts)
                new_states.add(new_state)
        failing = full & ~mask & self._affordable(lands)
        if failing:
            untapped = self._untapped(keys, self._why_bits(failing))
        return _remembered(self._steps, memo, new_states, mask, untapped)

    def _affordable(self, lands: int) -> int:
        """The spells of mana value at most ``lands``."""
        aff = self._aff
        while len(aff) <= lands:
            n = len(aff)
            aff.append(sum(1 << i for i, s in enumerate(self.m.spells) if s.mana_value <= n))
        return aff[lands]

    def _untapped(self, keys: list[BoardKey], need: int) -> int:
        """Why spells failed: the costs of ``need`` (the failing spells and their relaxed costs) that
        one of the boards ``keys`` pays with its lands untapped, exact on ``need`` (the asking stops
        when all of them are paid)."""
        untapped = 0
        castable = self.oracle.castable
        known = self.oracle._known
        seen: set[BoardKey] = set()
        for key in keys:
            ukey = tuple([k & ~1 for k in key])
            if ukey in seen:
                continue
            seen.add(ukey)
            todo = need & ~untapped
            entry = known.get(ukey)
            if entry is not None and (entry[0] | entry[1]) & todo == todo:
                untapped |= entry[0] & need
            else:
                untapped |= castable(ukey, todo) & need
            if untapped == need:
                break
        return untapped


    def _step_open(self, states: frozenset[_State], land_seen: tuple[tuple[int, int], ...],
                   remaining: tuple[tuple[int, int], ...], drop: bool,
                   expand: bool, lands: int) -> tuple[frozenset[_State], int, int, int]:
        """:meth:`_step` for a game of :meth:`_open`, remembered: a fetch land played stays on the
        battlefield unresolved (its own index in the state), its target chosen when a board is asked,
        for that board's question (:meth:`_open_pays`).  Each sequence of drops with targets chosen as
        played is one choice of targets on the board, and each choice of targets the library allows is
        such a sequence (every fetch land finds a land whatever the others found, each target enters
        the same way on any board and no entry reads its types), so the masks are :meth:`_step`'s."""
        memo = (states, land_seen, remaining, drop, expand, lands)
        hit = self._open_steps.get(memo)
        if hit is not None:
            return hit
        m = self.m
        cls = self.cls
        finds = self.finds
        faces = m.faces
        choices = m.choices
        rules = m.rules
        infos = self._open_infos
        if len(infos) > _INFO_MEMO:
            infos.clear()
        inert = self.inert
        quiet_cls = self.quiet_cls
        parts_of = self.oracle.static_parts
        new_states: set[_State] = set()
        #: each board of the turn, and the board its spells are asked on (without a land that entered
        #: tapped when it adds nothing and nothing reads it, as in :meth:`_step`), with the static parts of
        #: the state's board and the code the board asked adds to it (:meth:`BoardOracle.castable_plus`)
        boards: dict[_Board, tuple[BoardKey, tuple[tuple[int, int], ...], _Parts | None, int]] = {}
        for state in states:
            used, field_lands, cast = state
            info = infos.get(field_lands)
            if info is None:
                base = tuple(sorted(2 * cls[x] for x in field_lands if x not in finds))
                marks = tuple((x, 0) for x in field_lands if x in finds)
                info = infos[field_lands] = (base, marks, not marks and all(quiet_cls[c >> 1] for c in base),
                                             parts_of(base))
            base, marks, quiet_base, parts = info
            played = False
            if drop:
                for physical, n in land_seen:
                    if used.count(physical) >= n:
                        continue
                    new_used = tuple(sorted(used + (physical,)))
                    for card in faces[physical]:
                        played = True
                        if card in finds:
                            board = (base, _insort(marks, (card, 1)))
                            boards[board] = (*board, None, -1)
                            if expand:
                                new_states.add((new_used, _insort(field_lands, card), cast))
                            continue
                        hand_now = _hand(land_seen, new_used) if rules[card].kind == "reveal" else ()
                        tapped = self._enters_tapped(card, field_lands, hand_now)
                        for placed in choices.get(card, (card,)):
                            code = 2 * cls[placed] + tapped
                            board = (_insort(base, code), marks)
                            boards[board] = (base, marks, parts, -1) if tapped and quiet_base and inert[placed] \
                                else (*board, parts, code)
                            if expand:
                                new_states.add((new_used, _insort(field_lands, placed), cast))
            if not played:
                boards[(base, marks)] = (base, marks, parts, -1)
                if expand:
                    new_states.add(state)
        full = (1 << len(m.spells)) - 1
        mask = 0
        known = self.oracle._known
        castable = self.oracle.castable
        plus = self.oracle.castable_plus
        for key, marks, parts, code in boards.values():
            if mask == full:
                break
            need = full & ~mask
            if marks:
                mask |= self._open_pays(key, marks, remaining, need)
                continue
            entry = known.get(key)
            if entry is not None and (entry[0] | entry[1]) & need == need:
                mask |= entry[0]
            elif parts is not None:
                mask |= plus(parts, code, key, need)
            else:
                mask |= castable(key, need)
        untapped = 0
        failing = full & ~mask & self._affordable(lands)
        if failing:
            # why they failed: the same boards with their lands untapped, asked the failing spells (those
            # of mana value at most the lands played) and their relaxed costs, until all are paid
            need = self._why_bits(failing)
            seen: set[tuple[BoardKey, tuple[tuple[int, int], ...]]] = set()
            for key, marks in boards:
                ukey = tuple(k & ~1 for k in key)
                umarks = tuple((f, 0) for f, _ in marks)
                if (ukey, umarks) in seen:
                    continue
                seen.add((ukey, umarks))
                todo = need & ~untapped
                untapped |= (self._open_pays(ukey, umarks, remaining, todo) if umarks
                             else castable(ukey, todo)) & need
                if untapped == need:
                    break
        return _remembered(self._open_steps, memo, new_states, mask, untapped)

    def _open_pays(self, key: BoardKey, marks: tuple[tuple[int, int], ...], remaining: tuple[tuple[int, int], ...],
                   need: int) -> int:
        """The costs of ``need`` some choice of targets for the unresolved fetch lands ``marks`` (each
        ``(fetch land, 1 when played this turn)``) pays on the board ``key``, the library holding
        ``remaining`` of each land; exact on ``need``."""
        capped = self._capped.get((remaining, len(marks)))
        if capped is None:
            k = len(marks)
            capped = self._capped[(remaining, k)] = tuple((t, min(n, k)) for t, n in remaining)
        memo = (key, marks, capped)
        entry = self._open_answers.get(memo)
        if entry is None:
            if len(self._open_answers) > _INFO_MEMO:
                self._open_answers.clear()
            entry = (0, 0)
        yes, decided = entry
        if decided & need == need:
            return yes & need
        todo = need & ~decided
        targets = self._targets.get((marks, capped))
        if targets is None:
            targets = self._targets[(marks, capped)] = self._choices(marks, dict(capped))
        castable = self.oracle.castable
        for codes in targets:
            if not todo & ~yes:
                break
            yes |= castable(tuple(sorted(key + codes)), todo & ~yes)
        self._open_answers[memo] = (yes, decided | todo)
        return yes & need

    def _choices(self, marks: tuple[tuple[int, int], ...], left: dict[int, int]) -> tuple[BoardKey, ...]:
        """The targets of the unresolved fetch lands ``marks`` asked by :meth:`_open_pays`, as the
        sorted codes they add to a board: one per fetch land (equal fetch lands choosing in ascending
        order), the library holding ``left`` of each land; only the choices where no target could be
        swapped for a land at least as good (:func:`.lands.at_least_as_good`) still in the library,
        entering no more tapped (the swapped board pays all the first one pays)."""
        cls = self.cls
        target_tapped = self.target_tapped
        better = self.better
        finds = self.finds
        find_list = self.find_list
        out: dict[BoardKey, None] = {}
        chosen: list[tuple[int, int, bool]] = []

        def place(i: int, low: int) -> None:
            if i == len(marks):
                for f, t, tapped in chosen:
                    for u in better[t]:
                        if left.get(u, 0) > 0 and u in finds[f] and target_tapped[(f, u)] <= tapped:
                            return
                out[tuple(sorted(2 * cls[t] + tapped for _, t, tapped in chosen))] = None
                return
            f, this_turn = marks[i]
            for t in find_list[f]:
                if t < low or left.get(t, 0) <= 0:
                    continue
                left[t] -= 1
                chosen.append((f, t, bool(this_turn) and target_tapped[(f, t)]))
                place(i + 1, t if i + 1 < len(marks) and marks[i + 1] == marks[i] else -1)
                chosen.pop()
                left[t] += 1

        place(0, -1)
        return tuple(out)

    def _on_field(self, field_lands: tuple[int, ...], land: int) -> int:
        """How many of ``field_lands`` are the card ``land`` (with any color chosen as it entered)."""
        placed = self.m.choices.get(land)
        if placed is None:
            return field_lands.count(land)
        splits = self.m.splits
        return sum(field_lands.count(q) for p in placed for q in (p, *splits.get(p, ())))

    def _drop(self, card: int, physical: int, used: tuple[int, ...], new_used: tuple[int, ...],
              field_lands: tuple[int, ...], base: BoardKey, land_seen: tuple[tuple[int, int], ...],
              remaining: tuple[tuple[int, int], ...], fetches_left: int,
              quiet_base: bool, results: list[_Result]) -> None:
        """The states of playing ``card`` (a face of the hand's ``physical`` card) as this turn's land."""
        m = self.m
        cls = self.cls
        rule = m.rules[card]
        if rule.fetch is not None:
            finds = self.finds[card]
            chooses = bool(m.choices)
            there: dict[int, bool] = {}
            plenty: set[int] = set()
            fetch_tapped = rule.fetch.tapped
            for target, left in remaining:
                if target not in finds:
                    continue
                on_field = self._on_field(field_lands, target) if chooses else field_lands.count(target)
                copies = left - on_field + used.count(target)
                if copies > 0:
                    there[target] = fetch_tapped or self._enters_tapped(target, field_lands, ())
                    if copies >= fetches_left:
                        plenty.add(target)
            better = self.better
            for target, tapped in there.items():
                if plenty and any(u in plenty and there[u] <= tapped for u in better[target]):
                    continue  # a land at least as good can't run out (see lands.at_least_as_good)
                for placed in m.choices.get(target, (target,)):
                    _place(placed, tapped, new_used, field_lands, base, quiet_base and self.inert[placed],
                           cls, results)
            return
        hand_now = _hand(land_seen, new_used) if rule.kind == "reveal" else ()
        tapped = self._enters_tapped(card, field_lands, hand_now)
        # a land choosing a color as it enters is played as each card of its choices
        for placed in m.choices.get(card, (card,)):
            _place(placed, tapped, new_used, field_lands, base, quiet_base and self.inert[placed], cls, results)


def _remembered(steps: dict[object, tuple[frozenset[_State], int, int, int]], memo: object, new_states: set[_State],
                mask: int, untapped: int) -> tuple[frozenset[_State], int, int, int]:
    """A step's answer, its states cut at :data:`MAX_STATES` (1 when cut), kept in ``steps`` under
    ``memo`` (``steps`` emptied first when they hold :data:`_STEP_MEMO`)."""
    cut = 0
    if len(new_states) > MAX_STATES:
        cut = 1
        new_states = set(sorted(new_states)[:MAX_STATES])
    out = (frozenset(new_states), mask, untapped, cut)
    if len(steps) >= _STEP_MEMO:
        steps.clear()
    steps[memo] = out
    return out


def _hand(land_seen: tuple[tuple[int, int], ...], used: tuple[int, ...]) -> tuple[int, ...]:
    """The lands left in the hand (sorted): those seen but ``used``."""
    rest = dict(land_seen)
    for u in used:
        rest[u] -= 1
    return tuple(sorted(c for c, k in rest.items() for _ in range(k)))


def _insort(items: tuple[_T, ...], item: _T) -> tuple[_T, ...]:
    """``items`` (sorted) with ``item`` in its place."""
    i = bisect_right(items, item)
    return items[:i] + (item,) + items[i:]


def _place(placed: int, tapped: bool, new_used: tuple[int, ...], field_lands: tuple[int, ...], base: BoardKey,
           inert: bool, cls: tuple[int, ...], results: list[_Result]) -> None:
    """The state of land ``placed`` entering (``tapped`` or not) on the board ``base`` (sorted) of
    ``field_lands``: its board, the board asked (without it when it entered tapped and is ``inert``:
    it adds nothing and, all the board quiet, nothing reads it) and the code the board asked adds to
    ``base`` (``-1``: none)."""
    code = 2 * cls[placed] + tapped
    i = bisect_right(base, code)
    key = base[:i] + (code,) + base[i:]
    j = bisect_right(field_lands, placed)
    if tapped and inert:
        results.append((new_used, field_lands[:j] + (placed,) + field_lands[j:], key, base, -1, code & ~1))
    else:
        results.append((new_used, field_lands[:j] + (placed,) + field_lands[j:], key, key, code, code & ~1))


_GAMES: dict[int, _Game] = {}
#: The garbage collector's thresholds while games are played (the default is 700, 10, 10).
_GC_THRESHOLDS = (10_000, 20, 20)
#: (cards put on the bottom, fewest lands kept, most lands kept) of each hand in turn.
_PLAN = ((0, 2, 5), (1, 2, 4), (2, 2, 4), (3, 0, 7))
_PLAN_COMMANDER = ((0, 3, 5), (0, 3, 5), (1, 2, 4), (2, 2, 4), (3, 0, 7))


class Chunk:
    """The games of chunk ``chunk`` of the run seeded ``seed``, played a few at a time (:meth:`play`),
    so that a caller can act between them (the first progress line after the first game)."""

    def __init__(self, model: DeckModel, oracle: BoardOracle, seed: int, chunk: int, n: int, turns: int,
                 draw_first: bool) -> None:
        game = _GAMES.get(id(oracle))
        if game is None or game.oracle is not oracle:
            game = _Game(model, oracle)
            _GAMES.clear()
            _GAMES[id(oracle)] = game
        elif game.memo_size() > MEMO_BUDGET:
            game.shed()
            if game.memo_size() > MEMO_BUDGET // 2:
                game.forget()
        self.game = game
        self.n = n
        self.turns = turns
        self.draw_first = draw_first
        self.done = 0
        self.rng = random.Random(f"{seed}/{chunk}")
        self._counts = Counts(turns=turns, spells=len(model.spells))

    def play(self, upto: int, on_game: Callable[[int], None] | None = None) -> None:
        """Play the games up to the ``upto``-th (at most the chunk's), ``on_game(k)`` after the ``k``-th.
        The garbage collector runs less often meanwhile (:data:`_GC_THRESHOLDS`) and no longer walks
        what earlier chunks left (``gc.freeze``): the search's memos are many small tuples, sets and
        dicts, without cycles, that each collection would walk again (a fifth of Jund's time with the
        default thresholds; a seventh of Dance of the Elements' in chunks of 25 games without the freeze)."""
        before = gc.get_threshold()
        gc.set_threshold(*_GC_THRESHOLDS)
        # what the games remembered before this chunk leaves the collector's sight (it is acyclic:
        # reference counts free it), so the collections after the chunk do not walk it again
        gc.freeze()
        try:
            while self.done < min(upto, self.n):
                self.game.play(self.rng, self.turns, self.draw_first, self._counts)
                self.done += 1
                if on_game is not None:
                    on_game(self.done)
        finally:
            gc.set_threshold(*before)

    def counts(self) -> Counts:
        """The counts of the chunk, its games all played."""
        self.play(self.n)
        m = self.game.m
        self._counts.flush(m.spells, tuple((i, c) for i, c, _ in m.relaxed))
        return self._counts


def run_chunk(model: DeckModel, oracle: BoardOracle, seed: int, chunk: int, n: int, turns: int,
              draw_first: bool, on_game: Callable[[int], None] | None = None) -> Counts:
    """The counts of ``n`` games of chunk ``chunk`` of the run seeded ``seed``; ``on_game(k)`` after
    the ``k``-th game when given (a progress line before the chunk is done)."""
    chunk_ = Chunk(model, oracle, seed, chunk, n, turns, draw_first)
    chunk_.play(n, on_game)
    return chunk_.counts()
