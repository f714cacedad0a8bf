"""Whether a board of lands and mana sources can pay a cost, asked of the payment engine and remembered.

A board is its key: the sorted tuple of ``2 * card index + tapped`` over the permanents (lands and nonland
mana sources; the sources are never sick when asked about, see :mod:`.games`).  The index is that of a
card's *payment class* (:func:`payment_classes`): cards whose every characteristic the payment reads is
the same (Dragonskull Summit, Bloodfell Caves and Temple of Malice once on the battlefield) share one, so
that boards differing only by such cards are one question.  A board whose permanents are all plain or
converters (:mod:`.units`, :mod:`.converters`) is answered by Hall's condition on the pools of mana it can
end with, exactly as the engine answers it, and boards of the same units share their answers; bounds
from those units answer other boards where they can.  Otherwise the answer for a key is the engine's exact
payability (:func:`manasolver.solver.queries.prepare` and :func:`manasolver.solver.backends.payable`, the
``can_pay`` query without the explanation of a refusal, which castability never shows) on a board of
those permanents, never a count of lands, and it is kept: in a run of many games most boards repeat, so
most questions are a dictionary lookup.

On one board the costs are asked cheapest first, and an answer is carried to the costs it decides: when
cost A's symbols are part of cost B's (``{1}{B}`` of ``{2}{B}{B}``), a board that pays B pays A and a board
that can't pay A can't pay B (:func:`implies`).  Answers are carried between boards too: a board with one
quiet permanent more (or one of them untapped) pays at least what the smaller board pays.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from manasolver.models.abilities import AbilityCost, Amount, Condition, ManaAbility
from manasolver.models.board.load import load_state
from manasolver.models.card import Card
from manasolver.models.carddb import CardDB
from manasolver.models.cost import ManaCost
from manasolver.models.text.tap_triggers import tap_triggers_of
from manasolver.models.errors import ManasolverError
from manasolver.models.symbols import ANY_COLOR, B, C, G, R, U, W
from manasolver.models.rules.amounts import commander_identity
from manasolver.solver import backends, queries
from manasolver.solver.castability.converters import Converters, pools, pools_pay
from manasolver.solver.castability.units import (ANY, COLORS_AMONG, CostNeed, Have, Mode, PermUnits, as_on_board,
                                                 board_amount, colors_among, conditional, cost_need, matching,
                                                 entry_counters, fixed_choice, have, holds, land_grants, life_need,
                                                 pays, pays_colored, perm_units, with_abilities)
from manasolver.solver.casting.build import build_request
from manasolver.models.rules.ability_scope import ability_scope, card_words, scope_pays
from manasolver.solver.service.api import could_produce
from manasolver.solver.supply.plain import quiet
from manasolver.solver.request import Policy

__all__ = ["BoardKey", "BoardOracle", "implies", "payment_classes"]

BoardKey = tuple[int, ...]
#: The flag of a signature's unit of mana that pays colored symbols only (Jegantha, the Wellspring's):
#: such units are told apart from the plain ones (:func:`_unflagged`), for :func:`.units.pays_colored`.
_COLORED = 128


def _unflagged(units: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A signature's units: the plain ones, and those paying colored symbols only (:data:`_COLORED`)."""
    if not units or units[-1] < _COLORED:  # (sorted: flagged units come last)
        return units, ()
    return tuple(m for m in units if m < _COLORED), tuple(m & ~_COLORED for m in units if m >= _COLORED)


def _sig_units(sig: tuple[tuple[int, ...], Converters]) -> tuple[Have, tuple[int, ...]] | None:
    """The plain units of signature ``sig`` as :func:`.units.have` reads them, and its colored-only
    units; ``None`` when colored-only mana may pay a converter's colored cost, which the units don't
    tell."""
    units, colored = _unflagged(sig[0])
    if colored and not _generic_costs(sig[1]):
        return None
    return have(units), colored


def _generic_costs(conv: Converters) -> bool:
    """Whether every cost of the converters ``conv`` is generic (colored-only mana pays none of them)."""
    return all(u == ANY for modes, _ in conv for cost, _ in modes for u in cost)
#: What a board's mana can end as: the undominated pools of :func:`.converters.pools`.
Pools = tuple[Have, ...]

_LETTERS = {W: "W", U: "U", B: "B", R: "R", G: "G"}
#: The life of the player of a castability board (the engine's default): abilities paying life are
#: the units' only while they cost less in all.
_LIFE = 20
#: The most static-board signatures (and their pools) remembered per oracle (then forgotten all at
#: once): a worker of a long Commander run meets some hundred new ones a game.
_SIG_MEMO = 400_000
#: The most mana a permanent adds when its own card doesn't bound it (a total past every spell's mana value).
_UNBOUNDED = 1_000
#: The most boards whose answers are remembered per oracle (then forgotten all at once).
_KNOWN_MEMO = 600_000


def payment_classes(cards: Sequence[Card], chosen: Mapping[int, int] | None = None) -> tuple[int, ...]:
    """For each card, the index of the first card of ``cards`` the payment can't tell from it.

    Two cards are one class when both are *quiet* (what they add depends on their own fields alone and
    they reach nothing else: :func:`manasolver.solver.supply.plain.quiet`) and have the same types, subtypes,
    supertypes, colors, keywords, counters they enter with (:func:`.units.entry_counters`) and mana
    abilities (by what they cost and add, not their text or place), a card whose color was chosen as
    it entered (``chosen``, by index) read with its mana of that color fixed
    (:func:`.units.fixed_choice`); a card that is not quiet is its own class."""
    seen: dict[object, int] = {}
    out: list[int] = []
    for i, card in enumerate(cards):
        card = fixed_choice(card, (chosen or {}).get(i, 0))
        if not quiet(card):
            out.append(i)
            continue
        tl = card.type_line
        key = (tl.types, tl.subtypes, tl.supertypes, card.colors, card.keywords, entry_counters(card),
               tuple((a.cost, a.production, a.damage, a.extra, a.condition, a.per_turn)
                     for a in card.mana_abilities))
        out.append(seen.setdefault(key, i))
    return tuple(out)


def _simple(cost: ManaCost) -> tuple[int, Counter[str]] | None:
    """``(generic, the other symbols)`` of a cost whose every symbol adds at least one mana to a
    payment (no Phyrexian, snow or ``{2/W}`` symbol; X is 0), else ``None``."""
    generic = 0
    rest: Counter[str] = Counter()
    for s in cost.symbols:
        if s.special or s.variable:
            if s.variable:
                continue
            return None
        if s.is_numeral:
            generic += s.generic
        elif s.phyrexian or s.snow or s.generic:
            return None
        else:
            rest[s.text] += 1
    return generic, rest


def implies(a: ManaCost, b: ManaCost) -> bool:
    """Whether every board that can pay ``b`` can pay ``a``: ``a``'s colored, hybrid and colorless
    symbols are among ``b``'s and ``a``'s generic part is at most what ``b`` has left (its generic part
    and its other symbols, each one mana at least)."""
    return _implies(_simple(a), _simple(b), a == b)


def _implies(sa: tuple[int, Counter[str]] | None, sb: tuple[int, Counter[str]] | None, same: bool,
             within: bool = False) -> bool:
    """:func:`implies` on the costs' :func:`_simple` forms (``same``: the costs are equal); ``within``:
    only when ``a``'s symbols are among ``b``'s, its generic part at most ``b``'s (what holds beside mana
    that pays colored symbols only, which pays one of ``b``'s colored symbols and none of its generic
    part)."""
    if sa is None or sb is None:
        return same
    ga, ra = sa
    gb, rb = sb
    if any(rb[k] < n for k, n in ra.items()):
        return False
    return ga <= (gb if within else gb + sum(rb.values()) - sum(ra.values()))


class _Units:
    """What a board's permanents add, as :mod:`.units` reads them: ``plain`` the :func:`.units.have`
    of its untapped plain permanents' units (``plain_masks``), ``conv`` its untapped converters by
    class, ``modelled`` when every permanent is plain or a converter, ``droppable`` when every other
    one can be left out (it only adds ways to pay), ``most`` the units it adds at most (``None``
    when some permanent is not bounded), ``life`` what its untapped permanents' abilities may cost
    in life at most; ``colored``, on a board whose every other permanent is plain or a converter
    whose costs are generic, the units of its untapped permanents whose mana pays colored symbols
    only (Jegantha's), else ``None``; ``colored_any`` when some untapped permanent adds such mana:
    a cost's colored symbol then does not pay as a generic one would (:meth:`BoardOracle.castable`
    carries an answer only to costs whose symbols are among the other's, generic to generic)."""

    __slots__ = ("plain", "plain_masks", "conv", "modelled", "droppable", "most", "life", "colored", "colored_any")

    def __init__(self, plain: tuple[int, ...], plain_have: Have, conv: Converters, modelled: bool, droppable: bool,
                 most: Have | None, life: int, colored: tuple[int, ...] | None = None,
                 colored_any: bool = False) -> None:
        self.plain_masks = plain
        self.plain = plain_have
        self.conv = conv
        self.modelled = modelled
        self.droppable = droppable
        self.most = most
        self.life = life
        self.colored = colored
        self.colored_any = colored_any


def _signed(units: list[int], conv: list[tuple[Mode, ...]]) -> tuple[tuple[int, ...], Converters]:
    """A board's signature from its plain units and its converters' modes (one each)."""
    units.sort()
    if not conv:
        return tuple(units), ()
    counted: dict[tuple[Mode, ...], int] = {}
    for modes in conv:
        counted[modes] = counted.get(modes, 0) + 1
    return tuple(units), tuple(sorted(counted.items()))


#: A static board's plain units, its converters' modes, the most mana it adds and the number of the
#: features its permanents were read by (-1: none) (:meth:`BoardOracle.static_parts`).
_Parts = tuple[tuple[int, ...], tuple[tuple[Mode, ...], ...], int, int]


class _Shared(list[int]):
    """``[payable, not payable]`` (bit masks of the spells) of the boards of one signature (``sig``,
    :meth:`BoardOracle._signature`), the entry of each of them in the oracle's answers."""

    __slots__ = ("sig",)

    def __init__(self, sig: tuple[tuple[int, ...], Converters]) -> None:
        super().__init__((0, 0))
        self.sig = sig


class BoardOracle:
    """The engine's answers for boards made of ``cards`` (by index), remembered per key.

    ``spells`` are the costs asked about on every board; :meth:`castable` gives them as a bit mask
    (bit ``i`` for ``spells[i]``); :meth:`payable` asks one other cost (a mana source being cast).
    ``commander`` names the player's commanders (Command Tower and Arcane Signet read their colors);
    ``chosen`` the color chosen as each card of that index entered (the Thriving lands), a WUBRG mask:
    of several colors when the color is chosen for each question (any one of them)."""

    def __init__(self, cards: Sequence[Card], spells: Sequence[ManaCost], db: CardDB,
                 commander: Sequence[str] = (), chosen: Mapping[int, int] | None = None) -> None:
        self.cards = tuple(cards)
        self.chosen = dict(chosen or {})
        #: per card of faces played as one card of the color chosen (a Pathway, :func:`.deckmodel._face_choices`)
        #: and each of those colors, the face adding it: the engine's boards name that face
        self._face_of = {(i, opt[0]): f.name for i, c in enumerate(self.cards) if c.faces and i in self.chosen
                         for f in c.faces for a in f.mana_abilities[:1] for opt in a.production.options[:1]}
        self.spells = tuple(spells)
        self.db = db
        self.commander = list(commander)
        #: per board, the spells known payable and those known not payable (bit masks)
        self._known: dict[BoardKey, list[int]] = {}
        #: the boards given their signature's answers in :attr:`_known` since :meth:`forget_boards` (keys of
        #: :attr:`_known`, not counted again in :meth:`memo_size`)
        self._fresh: list[BoardKey] = []
        self._costs: dict[tuple[BoardKey, ManaCost], bool] = {}
        #: per cost asked of :meth:`payable`, what it needs of the units (:func:`.units.cost_need`)
        self._cost_needs: dict[ManaCost, CostNeed | None] = {}
        self.engine_calls = 0
        self.lookups = 0
        # the distinct costs, cheapest first, and the spells each one stands for
        distinct = sorted(set(self.spells), key=lambda c: (c.mana_value(), c.format()))
        self._distinct = distinct
        self._bits = [sum(1 << i for i, s in enumerate(self.spells) if s == c) for c in distinct]
        n = len(distinct)
        #: _below[j]: the costs every board paying cost j pays; _above[j]: those no board failing j pays
        simple = [_simple(c) for c in distinct]
        self._below = [[k for k in range(n) if k != j and _implies(simple[k], simple[j], False)]
                       for j in range(n)]
        self._above = [[k for k in range(n) if k != j and _implies(simple[j], simple[k], False)]
                       for j in range(n)]
        #: the spells an answer for cost j decides: when payable, when not
        self._yes_carry = [self._bits[j] | sum(self._bits[k] for k in self._below[j]) for j in range(n)]
        self._no_carry = [self._bits[j] | sum(self._bits[k] for k in self._above[j]) for j in range(n)]
        #: the same on boards with mana that pays colored symbols only (Jegantha's): a cost's symbols
        #: among another's, with no more generic mana
        self._yes_within = [self._bits[j] | sum(self._bits[k] for k in self._below[j]
                                                if _implies(simple[k], simple[j], False, True)) for j in range(n)]
        self._no_within = [self._bits[j] | sum(self._bits[k] for k in self._above[j]
                                               if _implies(simple[j], simple[k], False, True)) for j in range(n)]
        self._all = (1 << len(self.spells)) - 1
        #: per spell (its bit's position), its distinct cost
        self._cost_at = {i: j for j, c in enumerate(distinct) for i, s in enumerate(self.spells) if s == c}
        self._quiet = [quiet(fixed_choice(c, self.chosen.get(i, 0))) for i, c in enumerate(self.cards)]
        self._x_cost = ManaCost.parse("{X}")
        #: per board, the most generic mana it is known to pay
        self._most: dict[BoardKey, int] = {}
        #: the mana a payment of each distinct cost needs at least, when its symbols say so exactly
        self._least = [c.mana_value() if simple[j] is not None else None for j, c in enumerate(distinct)]
        #: per card, the units it adds (:mod:`.units`); per distinct cost, what it needs of them
        identity = commander_identity(load_state(self._board_json(()), db), "you")
        #: per card, the counters its permanent has (those it enters with that its mana abilities remove)
        self._counters = [entry_counters(c) for c in self.cards]
        self._units = [perm_units(_on_castability_board(c), identity, self.chosen.get(i, 0), self._counters[i])
                       for i, c in enumerate(self.cards)]
        self._unit_need = [cost_need(c) for c in distinct]
        self._life_need = [life_need(c) if n is None else None for c, n in zip(distinct, self._unit_need)]
        #: the spells whose costs the units decide; per units of a board wholly of plain permanents
        #: and converters, those of them known payable and not payable
        self._unit_bits = sum(b for b, n in zip(self._bits, self._unit_need) if n is not None)
        self._by_units: dict[tuple[tuple[int, ...], Converters], list[int]] = {}
        self._identity = identity
        #: per card, the abilities it gives lands (:func:`.units.land_grants`); the cards whose
        #: abilities depend on the board's cards (a grant or a condition); whether each is a land
        self._grants = [land_grants(c) for c in self.cards]
        self._dynamic = frozenset(i for i, c in enumerate(self.cards)
                                  if self._grants[i] is not None
                                  or conditional(c) and not _keywords_changed(c, self.cards))
        self._land = ["land" in c.type_line.types for c in self.cards]
        self._context_units: dict[tuple[object, ...], PermUnits] = {}
        #: per board, its units (:class:`_Units`); per plain units and converters, their pools
        self._unit_bounds: dict[BoardKey, _Units] = {}
        self._pool_memo: dict[tuple[tuple[int, ...], Converters], Pools | None] = {}
        self.unit_answers = 0
        #: per code (``2 * card + tapped``), what a *static* permanent adds whatever the board: its plain
        #: units (``_static_plain``; none when tapped) or its modes as a converter (``_static_conv``);
        #: both ``None`` for a permanent that is not static (see :meth:`_signature`)
        self._static_plain: list[tuple[int, ...] | None] = []
        self._static_conv: list[tuple[Mode, ...] | None] = []
        granting = any(g is not None for g in self._grants)
        may_convert = [j for j, pu in enumerate(self._units)
                       if j in self._dynamic or (granting and self._land[j])
                       or (pu.plain is None and pu.modes and any(need for need, _ in pu.modes))]
        #: the cards adding restricted mana that may pay a converter's cost (:func:`feeds_converters`)
        #: whose mana pays no card of the deck that may be a converter on some board: on every board
        #: they add only their own units (:meth:`_units_of` leaves them so)
        self._never_fed = frozenset(i for i, pu in enumerate(self._units)
                                    if pu.feeds and not any(_feeds(self.cards[i], self.cards[j]) for j in may_convert))
        #: the cards whose mana abilities don't tap them (Cryptic Trilobite, Wall of Roots): tapped, they
        #: add what they add untapped
        self._no_tap = frozenset(i for i, c in enumerate(self.cards)
                                 if c.mana_abilities and not any(a.cost.tap for a in c.mana_abilities))
        for i, pu in enumerate(self._units):
            static = i not in self._dynamic and not pu.life and (not pu.feeds or i in self._never_fed) \
                and pu.droppable
            plain = pu.plain if static else None
            if static and plain is None and pu.colored:
                plain = tuple(m | _COLORED for m in pu.colored)
            conv = pu.modes if static and plain is None else None
            off: tuple[int, ...] | None = () if plain is not None or conv is not None else None
            if i in self._no_tap:
                self._static_plain += [plain, plain]
                self._static_conv += [conv, conv]
                continue
            self._static_plain += [plain, off]
            self._static_conv += [conv, None]
        self._init_features()
        #: per card adding one mana of any type a land you control could produce (and nothing else),
        #: the types it may add of those (all, or the colors only); per card, the types its land could
        #: produce when they are its own (:meth:`_could_of`, computed when first asked).  A mirror is read
        #: only of a card entering with no counters: a permanent of a castability board has only the
        #: counters it enters with, so its "instead" with counters on it never applies (Everflowing
        #: Chalice's charge counter changes nothing of Incubation Druid's)
        self._mirrors = {i: m for i, c in enumerate(self.cards) if not self._counters[i] and (m := _mirror_types(c))}
        self._could: list[int | None] = [None] * len(self.cards)
        #: per card, whether the types of mana it could produce are the same on every board: no land, or
        #: a land whose abilities' productions read nothing of the board (Temple of the False God's
        #: condition aside: CR 106.7 asks what an ability would add, whether or not it could be activated)
        self._could_fixed = [not self._land[i] or i not in self._dynamic
                             or all(a.production.instead is None and not a.production.colors_among
                                    and a.production.amount is None for a in c.mana_abilities)
                             for i, c in enumerate(self.cards)]
        #: the quiet cards that are no creature and whose every mana ability sacrifices a creature; per
        #: card, whether it is a creature (:meth:`_without_idle`)
        self._creature = ["creature" in c.type_line.types for c in self.cards]
        self._idle_cards = frozenset(
            i for i, c in enumerate(self.cards)
            if c.mana_abilities and self._quiet[i] and not self._creature[i]
            and all(a.cost.sacrifice and all(x == "creature" for x in a.cost.sacrifice) for a in c.mana_abilities))
        #: per code, the most mana its permanent adds (:data:`_UNBOUNDED` when that is not bounded by
        #: its own card: it reads the board, or repeats); per total of those, the spells some board
        #: adding at most that much may pay (those needing more mana are not)
        grant_most = max((g.production.max_mana() for g in self._granted), default=0)
        self._most_code: list[int] = []
        for i, pu in enumerate(self._units):
            for tapped in (0, 1):
                most_of = pu.bound[tapped]
                most = _UNBOUNDED if most_of is None or i in self._dynamic else most_of[0]
                if self._land[i] and self._granted and not tapped and most < _UNBOUNDED:
                    most = max(most, grant_most)
                self._most_code.append(most)
        least_of = [self._least[self._cost_at[i]] for i in range(len(self.spells))]
        top = max((n for n in least_of if n is not None), default=0)
        self._fits = [sum(1 << i for i, n in enumerate(least_of) if n is None or n <= m) for m in range(top + 1)]
        #: per signature of a static board, the spells known payable and those known not payable
        self._by_sig: dict[tuple[tuple[int, ...], Converters], _Shared] = {}
        #: per signature of a static board and a cost, whether it pays it
        self._sig_costs: dict[tuple[tuple[tuple[int, ...], Converters], ManaCost], bool] = {}

    def _board_json(self, key: BoardKey, picks: Mapping[int, int] | None = None) -> dict[str, Any]:
        """The engine's board of ``key``; ``picks``: the one color chosen by the permanent at that
        position of the key when its card may choose any of several (:meth:`_choice_boards`)."""
        battlefield: list[dict[str, Any]] = [
            {"id": f"p{i}", "card": self.cards[code >> 1].name, "tapped": bool(code & 1)} for i, code in enumerate(key)]
        for i, (perm, code) in enumerate(zip(battlefield, key)):
            counters = self._counters[code >> 1]
            if counters:
                perm["counters"] = dict(counters)
            color = self.chosen.get(code >> 1)
            if color is not None:
                color = (picks or {}).get(i, color & -color)
                face = self._face_of.get((code >> 1, color))
                if face is None:
                    perm["chosen"] = {"color": _LETTERS[color]}
                else:
                    perm["card"] = face
        you: dict[str, object] = {"name": "you"}
        if self.commander:
            you["commander"] = self.commander
        return {"players": [you, {"name": "opponent"}], "battlefield": battlefield}

    def _choice_boards(self, key: BoardKey) -> list[dict[str, Any]] | None:
        """The engine's boards of ``key`` for every color its permanents of several possible chosen
        colors may have chosen (their colors chosen for the question: a board pays when one of them
        does), ``None`` when no permanent of ``key`` has such a choice."""
        chosen = self.chosen
        open_ = [(i, chosen[code >> 1]) for i, code in enumerate(key)
                 if chosen.get(code >> 1, 0) & (chosen.get(code >> 1, 0) - 1)]
        if not open_:
            return None
        bits = [[c for c in (W, U, B, R, G) if mask & c] for _, mask in open_]
        seen: set[tuple[tuple[int, int], ...]] = set()
        out: list[dict[str, Any]] = []
        for combo in itertools.product(*bits):
            # the same cards choosing the same colors in another order are the same board
            same = tuple(sorted((key[i], c) for (i, _), c in zip(open_, combo)))
            if same in seen:
                continue
            seen.add(same)
            out.append(self._board_json(key, {i: c for (i, _), c in zip(open_, combo)}))
        return out

    def _engine_pays(self, key: BoardKey, cost: ManaCost, board: dict[str, Any] | None,
                     loaded: list[object]) -> bool:
        """The engine's answer for ``cost`` on ``key`` (``board`` and ``loaded``: its board when built,
        see :meth:`_can_pay`), over the colors its permanents may choose."""
        choices = self._choice_boards(key)
        if choices is None:
            return self._can_pay(board if board is not None else self._board_json(key), cost, loaded)
        return any(self._can_pay(b, cost, []) for b in choices)

    def _can_pay(self, board: dict[str, Any], cost: ManaCost, loaded: list[object]) -> bool:
        """The engine's exact payability of ``cost`` on ``board``, loaded once into ``loaded``."""
        self.engine_calls += 1
        try:
            if not loaded:
                loaded.append(load_state(board, self.db))
            req = build_request(loaded[0], "you", None, cost, None, (), Policy())  # type: ignore[arg-type]
            return backends.payable(queries.prepare(req, "feasible", 0), backends.DEFAULT_CHAINS["can_pay"])
        except ManasolverError:
            return False

    def _most_generic(self, board: dict[str, Any], loaded: list[object], lo: int, hi: int) -> int:
        """The largest ``n <= hi`` such that the board pays ``{n}``, known to be at least ``lo``: the
        engine's problem for ``{X}`` asked at X = n (:meth:`Problem.at`, one problem for every n),
        upward from ``lo`` while the board pays (a board one land away pays about one more)."""
        try:
            if not loaded:
                loaded.append(load_state(board, self.db))
            req = build_request(loaded[0], "you", None, self._x_cost, None, (), Policy())  # type: ignore[arg-type]
            base = queries.prepare(req, "feasible", 0)
            chain = backends.DEFAULT_CHAINS["can_pay"]
            most = lo
            while most < hi:
                self.engine_calls += 1
                if not backends.payable(base.at("feasible", most + 1), chain):
                    break
                most += 1
            return most
        except ManasolverError:
            return lo

    def _init_features(self) -> None:
        """What the board's cards whose abilities depend on it read (:meth:`_features`): the amounts
        their conditions, grants and productions count, and per card whether each amount counts it,
        its colors for each kind of "colors among" and its power as a creature."""
        amounts: dict[Amount, None] = {}
        for i in range(len(self.cards)) if self._dynamic else ():
            conditions = [g.condition for g in self._grants[i] or ()]
            for a in self.cards[i].mana_abilities:
                conditions += [a.condition, a.production.instead]
                if a.production.amount is not None and board_amount(a.production.amount):
                    amounts.setdefault(a.production.amount, None)
            for condition in conditions:
                for amount, _ in condition.counts if condition is not None else ():
                    amounts.setdefault(amount, None)
        self._amounts_read = tuple(amounts)
        self._amount_at = {a: k for k, a in enumerate(self._amounts_read)}
        #: per amount, per card: whether the amount counts it (its own position aside)
        self._counted = [[bool(matching(a, [c], -1)) for c in self.cards] for a in self._amounts_read]
        #: per card: its power as a creature with the counters it has (``None``: not a creature, or
        #: a power that is not a number: those are :attr:`_unread_power`)
        self._power: list[int | None] = []
        unread: set[int] = set()
        for i, c in enumerate(self.cards):
            if "creature" not in c.type_line.types:
                self._power.append(None)
                continue
            try:
                power = int(c.power or 0)
            except ValueError:
                self._power.append(None)
                unread.add(i)
                continue
            counters = dict(self._counters[i])
            self._power.append(power + counters.get("+1/+1", 0) - counters.get("-1/-1", 0))
        self._unread_power = frozenset(unread)
        self._counted_n = [[int(x) for x in counted] for counted in self._counted]
        #: whether some card reads the colors among the board's permanents (Faeburrow Elder)
        self._reads_colors = any(a.production.colors_among for i in self._dynamic
                                 for a in self.cards[i].mana_abilities)
        self._colors_of = [tuple(colors_among([c], kind) for kind in COLORS_AMONG) for c in self.cards]
        self._holders = frozenset(i for i, g in enumerate(self._grants) if g)
        #: the abilities granted to lands, by a number each (the features hold the numbers)
        self._granted = tuple(dict.fromkeys(g.ability for gs in self._grants for g in gs or ()))
        at = {a: k for k, a in enumerate(self._granted)}
        #: per card, its grants as ``(condition, number of the ability granted)``
        self._gives = [tuple((g.condition, at[g.ability]) for g in gs or ()) for gs in self._grants]
        #: per code and features of a board, what the permanent adds there (see :meth:`_in_features`)
        self._feature_units: dict[tuple[int, int], tuple[tuple[int, ...] | None, tuple[Mode, ...] | None]] = {}
        #: the features of boards met, by a number each (:meth:`_features`)
        self._feature_ids: dict[tuple[object, ...], int] = {}
        self._feature_list: dict[int, tuple[object, ...]] = {}
        #: the next features' number: numbers are never reused, so that a number kept in :data:`_Parts`
        #: past the memos' emptying names no other features
        self._next_fid = 0
        #: per card, whether the features of a board are the same with it or without it: no amount
        #: counts it, its colors are read by no one and it grants nothing
        self._neutral = [not any(counted[i] for counted in self._counted) and i not in self._holders
                         and not (self._reads_colors and any(self._colors_of[i])) for i in range(len(self.cards))]
        #: whether every land is (boards read by their features then get a land's units from their parts;
        #: else, as when The World Tree counts lands, :meth:`static_parts` makes no such parts)
        self._lands_neutral = all(n for n, land in zip(self._neutral, self._land) if land)

    def _features(self, key: BoardKey) -> tuple[object, ...]:
        """What the cards of ``key`` whose abilities depend on the board read of it: the abilities
        granted to its lands (by their numbers), and per amount read (:meth:`_init_features`) the count
        of its cards it counts, or the greatest and total power among them (``None`` when a power is
        not a number), and the colors among its cards of each kind.  Two boards of the same features
        give each permanent the same abilities (:meth:`_in_context`)."""
        cards = [code >> 1 for code in key]
        counts: list[int | None] = []
        for a, counted in zip(self._amounts_read, self._counted_n):
            if a.kind == "count":
                counts.append(sum(map(counted.__getitem__, cards)))
                continue
            powers = [p for i in cards if counted[i] and (p := self._power[i]) is not None]
            if any(i in self._unread_power for i in cards if counted[i]):
                counts.append(None)
            elif a.kind == "max_power":
                counts.append(max(powers, default=0))
            else:
                counts.append(sum(powers))
        colors = [0] * len(COLORS_AMONG)
        if self._reads_colors:
            for i in cards:
                for k, m in enumerate(self._colors_of[i]):
                    colors[k] |= m
        granted: list[int] = []
        holders = self._holders
        if holders and not holders.isdisjoint(cards):
            gives = self._gives
            for i in cards:
                if i not in holders:
                    continue
                for condition, k in gives[i]:
                    if k not in granted and self._holds_at(condition, i, counts):
                        granted.append(k)
        return tuple(granted), tuple(counts), tuple(colors)

    def _count_at(self, amount: Amount, i: int, counts: Sequence[int | None]) -> int | None:
        """The value of ``amount`` for the permanent of card ``i`` on a board of amounts ``counts``
        (:meth:`_features`): itself not counted when the amount says "other" (``None`` when that
        can't be read from the features: the greatest power among the others)."""
        k = self._amount_at[amount]
        value = counts[k]
        if not amount.other or not self._counted[k][i] or value is None:
            return value
        if amount.kind == "count":
            return value - 1
        power = self._power[i]
        if amount.kind == "total_power" and power is not None:
            return value - int(power)
        return value if power is None else None

    def _holds_at(self, condition: Condition | None, i: int, counts: Sequence[int | None]) -> bool:
        """:func:`.units.holds` for the permanent of card ``i`` on a board of amounts ``counts``."""
        if condition is None:
            return True
        for amount, least in condition.counts:
            value = self._count_at(amount, i, counts)
            if value is None or value < least:
                return False
        return True

    def _in_features(self, code: int, fid: int) -> tuple[tuple[int, ...] | None, tuple[Mode, ...] | None] | None:
        """What the permanent of ``code`` adds on a board of the features numbered ``fid`` (:meth:`_features`), as
        :data:`_static_plain` and :data:`_static_conv` say it; ``None`` when it is not static there or
        the features can't say (a count read otherwise)."""
        fk = (code, fid)
        try:
            hit = self._feature_units[fk]
        except KeyError:
            pass
        else:
            return None if hit[0] is None and hit[1] is None else hit
        i = code >> 1
        granted, counts, colors = self._feature_list[fid]
        assert isinstance(granted, tuple) and isinstance(counts, tuple) and isinstance(colors, tuple)
        gets = tuple(self._granted[k] for k in granted) if self._land[i] else ()
        pu: PermUnits | None = self._units[i]
        if i in self._dynamic or gets:
            card = self.cards[i]
            holding = tuple((self._holds_at(a.condition, i, counts), self._holds_at(a.production.instead, i, counts))
                            for a in card.mana_abilities)
            chosen_colors = dict(zip(COLORS_AMONG, colors)) if i in self._dynamic else {}
            amounts: dict[int, int] = {}
            for k, a in enumerate(card.mana_abilities):
                amount = a.production.amount
                if amount is None or not board_amount(amount):
                    continue
                value = self._count_at(amount, i, counts)
                if value is None:
                    pu = None  # a power the engine reads otherwise: the board is left to the units
                    break
                amounts[k] = value
            else:
                pu = self._context_pu(i, holding, gets, chosen_colors, amounts)
        plain: tuple[int, ...] | None = None
        conv: tuple[Mode, ...] | None = None
        if pu is not None and not pu.life and (not pu.feeds or i in self._never_fed) and pu.droppable:
            if code & 1 and i not in self._no_tap:
                plain = () if pu.plain is not None or pu.modes is not None or pu.colored else None
            elif pu.plain is not None:
                plain = pu.plain
            elif pu.colored:
                plain = tuple(m | _COLORED for m in pu.colored)
            else:
                conv = pu.modes
        if len(self._feature_units) >= _SIG_MEMO:
            self._feature_units.clear()
        self._feature_units[fk] = (plain, conv)
        return None if plain is None and conv is None else (plain, conv)

    def _context_pu(self, i: int, holding: tuple[tuple[bool, bool], ...], gets: tuple[ManaAbility, ...],
                    colors: dict[str, int], amounts: dict[int, int]) -> PermUnits:
        """The :class:`.units.PermUnits` of card ``i`` whose abilities' conditions hold as ``holding``
        says, given the abilities ``gets``, on a board of those ``colors`` among its permanents and
        ``amounts`` by ability (:meth:`_in_context`), remembered."""
        ck = (i, holding, gets, tuple(colors.values()), tuple(sorted(amounts.items())))
        pu = self._context_units.get(ck)
        if pu is None:
            card = self.cards[i]
            abilities = as_on_board(card, holding, colors, amounts).mana_abilities
            pu = perm_units(with_abilities(card, abilities + gets, self._grants[i] is not None),
                            self._identity, self.chosen.get(i, 0), self._counters[i])
            self._context_units[ck] = pu
        return pu

    def _dynamic_signature(self, key: BoardKey) -> tuple[tuple[int, ...], Converters] | None:
        """:meth:`_signature` of a board with permanents whose abilities depend on it (Temple of the False
        God, Chromatic Lantern, Selvala): each permanent read as the board's features make it."""
        dynamic = self._dynamic
        if not any(code >> 1 in dynamic for code in key):
            return None
        got = self._dynamic_units(key, key)
        return None if got is None else _signed(*got)

    def _feature_id(self, key: BoardKey) -> int:
        """The number of the features of board ``key`` (:meth:`_features`)."""
        features = self._features(key)
        fid = self._feature_ids.get(features)
        if fid is None:
            if len(self._feature_ids) >= _SIG_MEMO:
                self._feature_ids.clear()
                self._feature_units.clear()
                self._feature_list.clear()
            fid = self._feature_ids[features] = self._next_fid
            self._next_fid += 1
            self._feature_list[fid] = features
        return fid

    def _dynamic_units(self, key: BoardKey, codes: BoardKey, mirrored: bool = False,
                       fid: int = -1) -> tuple[list[int], list[tuple[Mode, ...]]] | None:
        """The plain units (unsorted) and the converters' modes of the permanents ``codes`` of board ``key``,
        each read as the features of ``key`` make it; ``None`` when one of them is not static there.
        ``mirrored`` (:meth:`_mirror_units`): also ``None`` when the board grants its lands abilities or
        holds a land whose types of mana the board may change (what they could produce is then not
        :meth:`_could_of` theirs).  ``fid``: the number of ``key``'s features when known."""
        if fid < 0:
            fid = self._feature_id(key)
        if mirrored:
            granted = self._feature_list[fid][0]
            if granted or any(not self._could_fixed[code >> 1] for code in codes):
                return None
        units: list[int] = []
        conv: list[tuple[Mode, ...]] = []
        for code in codes:
            got = self._in_features(code, fid)
            if got is None:
                return None
            plain, modes = got
            if plain is None:
                assert modes is not None
                conv.append(modes)
            elif plain:
                units += plain
        return units, conv

    def _signature(self, key: BoardKey) -> tuple[tuple[int, ...], Converters] | None:
        """What decides every cost on board ``key`` when each of its permanents is *static* (plain or
        a converter, reading nothing of the board, costing no life, its mana paying no converter only
        by a restriction, and no permanent on the board reading the others): the sorted units of its
        untapped plain permanents and its untapped converters by class, ``None`` otherwise.  Boards of
        one signature pay the same costs (:mod:`.units`, :mod:`.converters`), whichever cards they are."""
        got = self._static_units(key)
        if got is None and self._mirrors:
            got = self._mirror_units(key)
        if got is None:
            return self._dynamic_signature(key) if self._dynamic else None
        return _signed(*got)

    def _mirror_units(self, key: BoardKey) -> tuple[list[int], list[tuple[Mode, ...]]] | None:
        """:meth:`_static_units` of a board with sources of "one mana of any type a land you control could
        produce" (Incubation Druid, :attr:`_mirrors`): each untapped one is one unit of the types the
        board's lands could produce (CR 106.7, tapped or not), when every other permanent is static, or
        reads the board as :meth:`_dynamic_units` says (Temple of the False God), and every land's types
        are its own (:meth:`_could_of`); ``None`` otherwise."""
        mirrors = self._mirrors
        rest = tuple(code for code in key if code >> 1 not in mirrors)
        if len(rest) == len(key):
            return None
        got = self._static_units(rest)
        if got is None and self._dynamic and any(code >> 1 in self._dynamic for code in rest):
            got = self._dynamic_units(key, rest, mirrored=True)
        if got is None:
            return None
        could = 0
        for code in rest:
            if self._land[code >> 1]:
                types = self._could_of(code >> 1)
                if types < 0:
                    return None
                could |= types
        for code in key:
            if code >> 1 in mirrors and not code & 1 and could & mirrors[code >> 1]:
                got[0].append(could & mirrors[code >> 1])
        return got

    def _could_of(self, i: int) -> int:
        """The types of mana (WUBRGC bits) the land of card ``i`` could produce (CR 106.7), as the engine
        reads them on a board of that land alone, when that is what it could produce on any castability
        board (none of its abilities mirrors the lands you control); -1 otherwise."""
        types = self._could[i]
        if types is None:
            types = -1
            several = self.chosen.get(i, 0)
            # a land of several possible chosen colors could produce only the one it chose: each
            # choice is a board of its own (:meth:`_choice_boards`)
            if not several & (several - 1) and not any(a.production.reference == "lands_you_control"
                                                       for a in self.cards[i].mana_abilities):
                board: Any = self._board_json((2 * i,))
                try:
                    letters = could_produce(board)["could_produce"].get("p0")
                except ManasolverError:
                    letters = None
                if letters is not None:
                    types = sum(_TYPE_BITS[x] for x in letters)
            self._could[i] = types
        return types

    def _static_units(self, key: BoardKey) -> tuple[list[int], list[tuple[Mode, ...]]] | None:
        """The plain units (unsorted) and the converters' modes of the board ``key`` when each of its
        permanents is static, ``None`` otherwise."""
        plain = self._static_plain
        units: list[int] = []
        conv: list[tuple[Mode, ...]] = []
        for code in key:
            p = plain[code]
            if p is None:
                modes = self._static_conv[code]
                if modes is None:
                    return None
                conv.append(modes)
            elif p:
                units += p
        return units, conv

    def _sig_entry(self, sig: tuple[tuple[int, ...], Converters]) -> _Shared:
        """The answers known for boards of signature ``sig``, shared by every board of that signature in
        :attr:`_known`."""
        entry = self._by_sig.get(sig)
        if entry is None:
            if len(self._by_sig) >= _SIG_MEMO:
                self._by_sig.clear()
            entry = self._by_sig[sig] = _Shared(sig)
        return entry

    def _sig_castable(self, entry: _Shared, need: int) -> int | None:
        """:meth:`castable` for a board of the signature of ``entry`` (:meth:`_sig_entry`), exact on
        ``need``; ``None`` when some cost of ``need`` is not one the units decide (a snow or ``{2/W}``
        symbol, or converters too many for :func:`.converters.pools`)."""
        yes, no = entry
        sig = entry.sig
        if (yes | no) & need == need:
            return yes
        bits = self._bits
        read = _sig_units(sig)
        if read is None:
            return None
        plain, colored = read
        carry = self._carry_within if colored else self._carry
        for j in self._costs_of(need & ~(yes | no)):
            if (yes | no) & bits[j]:
                continue
            n = self._unit_need[j]
            if n is None:
                form = self._life_need[j]
                if form is None or form[1] >= _LIFE:
                    return None
                n = form[0]
            ok = self._sig_pays(sig, plain, colored, n)
            if ok is None:
                return None
            self.unit_answers += 1
            yes, no = carry(j, ok, yes, no)
            entry[0], entry[1] = yes, no
        return yes

    def _sig_pays(self, sig: tuple[tuple[int, ...], Converters], plain: Have, colored: tuple[int, ...],
                  need: CostNeed) -> bool | None:
        """Whether boards of signature ``sig`` (:func:`_sig_units`: ``plain``, ``colored``) pay the cost
        of ``need``: by their plain and colored-only units, else by some pool their converters reach
        (:meth:`_pools_of`, remembered); ``None`` when the converters are too many for
        :func:`.converters.pools`."""
        if pays_colored(plain, colored, need) if colored else pays(plain, need):
            return True
        if not sig[1]:
            return False
        reached = self._pools_of(sig)
        if reached is None:
            return None
        return any(pays_colored(h, colored, need) for h in reached) if colored else pools_pay(reached, need)

    def _pools_of(self, sig: tuple[tuple[int, ...], Converters]) -> Pools | None:
        """The pools of the plain units and converters of ``sig`` (:func:`.converters.pools`), remembered."""
        try:
            return self._pool_memo[sig]
        except KeyError:
            pass
        found = pools(_unflagged(sig[0])[0], sig[1])
        if len(self._pool_memo) >= _SIG_MEMO:
            self._pool_memo.clear()
        self._pool_memo[sig] = found
        return found

    def static_parts(self, key: BoardKey) -> _Parts | None:
        """What :meth:`castable_plus` adds to: the plain units (unsorted) and the converters' modes of
        the board ``key`` when each of its permanents is static (:meth:`_signature`), or is read as the
        board's features make it (:meth:`_dynamic_units`, their number given, else -1), and the most
        mana its permanents add; ``None`` otherwise."""
        got = self._static_units(key)
        fid = -1
        if got is None:
            dynamic = self._dynamic
            if not dynamic or not self._lands_neutral or self._idle_cards \
                    or not any(code >> 1 in dynamic for code in key) \
                    or (self._mirrors and any(code >> 1 in self._mirrors for code in key)):
                return None
            fid = self._feature_id(key)
            got = self._dynamic_units(key, key, fid=fid)
            if got is None:
                return None
        return tuple(got[0]), tuple(got[1]), sum(map(self._most_code.__getitem__, key)), fid

    def _plus(self, parts: _Parts, codes: tuple[int, ...]) -> tuple[list[int], list[tuple[Mode, ...]], int] | None:
        """The plain units and converters' modes of the board of :meth:`static_parts` ``parts`` with the
        permanents of ``codes`` added, and the most mana it adds, when each of them is static too, or the
        parts are read by the board's features and the permanent changes none of them (:attr:`_neutral`:
        the board with it has the same features, each permanent the same units); ``None`` otherwise."""
        units, conv, most, fid = parts
        out = list(units)
        modes_out = list(conv)
        if fid >= 0 and fid not in self._feature_list:
            return None
        for code in codes:
            if fid < 0:
                p = self._static_plain[code]
                modes = self._static_conv[code]
            else:
                if not self._neutral[code >> 1]:
                    return None
                got = self._in_features(code, fid)
                if got is None:
                    return None
                p, modes = got
            if p is None:
                if modes is None:
                    return None
                modes_out.append(modes)
            elif p:
                out += p
            most += self._most_code[code]
        return out, modes_out, most

    def plain_units(self, parts: _Parts, code: int) -> tuple[int, ...] | None:
        """The units the permanent of ``code`` adds on the board of :meth:`static_parts` ``parts`` when it
        is plain there as :meth:`_plus` reads it; ``None`` otherwise."""
        fid = parts[3]
        if fid < 0:
            return self._static_plain[code]
        if not self._neutral[code >> 1] or fid not in self._feature_list:
            return None
        got = self._in_features(code, fid)
        return None if got is None else got[0]

    def signature_units(self, parts: _Parts, units: Sequence[int]) -> tuple[tuple[int, ...], Converters] | None:
        """The signature of a board of :meth:`static_parts` ``parts`` with plain ``units`` more, ``None``
        when the parts' features are forgotten."""
        if parts[3] >= 0 and parts[3] not in self._feature_list:
            return None
        return _signed(list(parts[0]) + list(units), list(parts[1]))

    def parts_plus(self, parts: _Parts, codes: tuple[int, ...]) -> _Parts | None:
        """:meth:`static_parts` of the board of ``parts`` with the permanents of ``codes`` added, made from
        the parts (:meth:`_plus`, with the same features) when it can be; ``None`` otherwise (the board
        may still have parts)."""
        got = self._plus(parts, codes)
        return None if got is None else (tuple(got[0]), tuple(got[1]), got[2], parts[3])

    def signature_plus(self, parts: _Parts, codes: tuple[int, ...]) -> tuple[tuple[int, ...], Converters] | None:
        """:meth:`signature_of` the board of :meth:`static_parts` ``parts`` with the permanents of ``codes``
        added, made from the parts (:meth:`_plus`); ``None`` when it can't be (the board may still have one)."""
        if self._idle_cards:
            return None
        got = self._plus(parts, codes)
        return None if got is None else _signed(got[0], got[1])

    def castable_plus(self, parts: _Parts, code: int, key: BoardKey, need: int) -> int:
        """:meth:`castable` of ``key``: the board of :meth:`static_parts` ``parts`` with the permanent of
        ``code`` added (``-1``: none).  When :meth:`_plus` can, the board's signature is made from the
        parts and the permanent's units, not read again from every permanent."""
        known = self._known
        entry = known.get(key)
        if entry is None:
            got = self._plus(parts, (code,) if code >= 0 else ())
            if got is None:
                return self.castable(key, need)
            units, conv, most = got
            need &= self._all
            if most < len(self._fits):
                need &= self._fits[most]
                if not need:
                    return 0
            self.lookups += 1
            entry = self._keep_shared(key, self._sig_entry(_signed(units, conv)))
        if isinstance(entry, _Shared):
            got_ = self._sig_castable(entry, need & self._all)
            if got_ is not None:
                return got_
        return self.castable(key, need)

    def _keep_shared(self, key: BoardKey, entry: _Shared) -> _Shared:
        """``entry``, the answers of board ``key``'s signature, kept as the board's (:attr:`_known`, emptied
        first past :data:`_KNOWN_MEMO`), and the board noted as answered by its signature since the last
        :meth:`forget_boards`."""
        known = self._known
        if len(known) >= _KNOWN_MEMO:
            known.clear()
            self._fresh.clear()
        known[key] = entry
        self._fresh.append(key)
        return entry

    def castable(self, key: BoardKey, need: int = -1) -> int:
        """The mask of :attr:`spells` the board ``key`` can pay, exact on the bits of ``need`` (the
        others may be left unasked: a 0 there means "not known to be payable")."""
        self.lookups += 1
        need &= self._all
        known = self._known
        entry = known.get(key)
        if entry is not None and (entry[0] | entry[1]) & need == need:
            return entry[0]
        if entry is None and self._idle_cards:
            active = self._without_idle(key)
            if active is not key:
                # the same board: its answers are the smaller key's, one entry for both
                paid = self.castable(active, need)
                same = known.get(active)
                if same is not None:
                    known[key] = same
                return paid
        most = sum(map(self._most_code.__getitem__, key))
        if most < len(self._fits):
            # no spell needing more mana than the board's permanents add at most
            need &= self._fits[most]
            if entry is None and not need:
                return 0
            if entry is not None and (entry[0] | entry[1]) & need == need:
                return entry[0]
        if entry is None:
            sig = self._signature(key)
            if sig is not None:
                # boards of one signature share their answers
                entry = self._keep_shared(key, self._sig_entry(sig))
        if isinstance(entry, _Shared):
            got = self._sig_castable(entry, need)
            if got is not None:
                return got
            # a cost the units don't decide: the board's own answers from here, the engine's too
            entry = known[key] = [entry[0], entry[1]]
        units = self._units_of(key)
        if entry is None:
            # a board the units decide needs no neighbour's answers
            entry = self._known[key] = [0, 0] if units.modelled else list(self._bounds(key))
        yes, no = entry
        board: dict[str, Any] | None = None
        loaded: list[object] = []
        bits = self._bits
        shared: list[int] | None = None
        if units.modelled:
            # boards of the same units pay the same costs of single-unit symbols
            sig = (units.plain_masks, units.conv)
            shared = self._by_units.get(sig)
            if shared is None:
                shared = self._by_units[sig] = [0, 0]
            yes |= shared[0]
            no |= shared[1]
            if (yes | no) & need == need:
                entry[0], entry[1] = yes, no
                return yes
        todo = self._costs_of(need & ~(yes | no))
        # mana that pays colored symbols only (Jegantha's): a cost paid says nothing of one with a
        # generic symbol in place of a colored one, and the generic mana the board makes bounds nothing
        carry = self._carry_within if units.colored_any else self._carry
        for j in todo:
            # the units and converters answer every cost of single-unit symbols they decide
            n = self._unit_need[j]
            if (yes | no) & bits[j]:
                continue
            if n is None:
                answer = self._by_life(units, self._life_need[j])
            else:
                answer = self._decide(units, n)
            if answer is not None:
                self.unit_answers += 1
                yes, no = carry(j, answer, yes, no)
        if shared is not None:
            shared[0] |= yes & self._unit_bits
            shared[1] |= no & self._unit_bits
        if (yes | no) & need == need:
            entry[0], entry[1] = yes, no
            return yes
        most_units = units.most
        open_ = [j for j in todo if self._least[j] and not (yes | no) & bits[j]]
        if most_units is not None:
            # no cost needing more mana than the board's permanents add at most
            for j in open_:
                if (self._least[j] or 0) > most_units[0]:
                    no |= bits[j]
            open_ = [j for j in open_ if not no & bits[j]]
        if len(open_) > 3 and not self._multi(key) and not units.colored_any:
            # many costs undecided: how much generic mana the board makes settles the larger ones
            board = self._board_json(key)
            lo = max(self._least_known(key), units.plain[0] if units.droppable else 0)
            hi = max(self._least[j] or 0 for j in open_)
            if most_units is not None:
                hi = min(hi, most_units[0])
            most = self._most_generic(board, loaded, lo, hi)
            self._most[key] = max(most, self._most.get(key, 0))
            for j in open_:
                if (self._least[j] or 0) > most:
                    no |= bits[j]
        for j in todo:
            if (yes | no) & bits[j]:
                continue
            if board is None:
                board = self._board_json(key)
            yes, no = carry(j, self._engine_pays(key, self._distinct[j], board, loaded), yes, no)
        entry[0], entry[1] = yes, no
        return yes

    def _multi(self, key: BoardKey) -> bool:
        """Whether a permanent of ``key`` may have chosen any of several colors."""
        chosen = self.chosen
        return any((m := chosen.get(code >> 1, 0)) & (m - 1) for code in key)

    def _costs_of(self, spells: int) -> list[int]:
        """The distinct costs (cheapest first) of the spells of the mask ``spells``."""
        out: set[int] = set()
        cost_at = self._cost_at
        while spells:
            low = spells & -spells
            j = cost_at[low.bit_length() - 1]
            out.add(j)
            spells &= ~self._bits[j]
        return sorted(out)

    def _carry_within(self, j: int, ok: bool, yes: int, no: int) -> tuple[int, int]:
        """``(yes, no)`` with cost ``j`` answered ``ok`` on a board with mana that pays colored symbols
        only: carried to the costs whose symbols are among ``j``'s (payable) or have ``j``'s among them
        (not payable), generic to generic."""
        if ok:
            return yes | self._yes_within[j], no
        return yes, no | self._no_within[j]

    def _carry(self, j: int, ok: bool, yes: int, no: int) -> tuple[int, int]:
        """``(yes, no)`` with cost ``j`` answered ``ok`` and the answer carried to the costs it decides."""
        if ok:
            return yes | self._yes_carry[j], no
        return yes, no | self._no_carry[j]

    def _by_life(self, units: _Units, form: tuple[CostNeed, int] | None) -> bool | None:
        """A cost with Phyrexian symbols (:func:`.units.life_need` ``form``) answered by ``units`` with
        those symbols paid in life, when the player's life pays them and every life cost of the board's
        abilities at once; ``None`` otherwise."""
        if form is None or units.life + form[1] >= _LIFE:
            return None
        return self._decide(units, form[0])

    def _decide(self, units: _Units, need: CostNeed) -> bool | None:
        """The cost of ``need`` answered by a board's ``units`` when they decide it: not payable when
        the most the board adds can't pay it; payable when its plain permanents pay it or one of the
        pools its plain permanents and converters reach does, when the others can be left out; not
        payable when no pool does and every permanent is plain or a converter; ``None`` otherwise."""
        if units.most is not None and not pays(units.most, need):
            return False
        if not units.droppable:
            return None
        if pays(units.plain, need):
            return True
        if not units.conv:
            if units.colored is not None:
                return pays_colored(units.plain, units.colored, need)
            return False if units.modelled else None
        reached = self._reach(units)
        if reached is None:
            return None
        if units.colored is not None:
            # the converters' pools and the colored-only units, which pay no converter's generic cost
            return any(pays_colored(h, units.colored, need) for h in reached)
        if pools_pay(reached, need):
            return True
        return False if units.modelled else None

    def _units_of(self, key: BoardKey) -> _Units:
        """The units of board ``key`` (:mod:`.units`, :mod:`.converters`): its plain permanents' units,
        its untapped converters by class, and the units it adds at most when every permanent is bounded."""
        hit = self._unit_bounds.get(key)
        if hit is not None:
            return hit
        units = self._units
        modelled = droppable = True
        plain: list[int] = []
        conv: dict[tuple[Mode, ...], int] = {}
        most: list[int] | None = []
        feeds = False
        same = True  # the most it adds is what its plain permanents add
        dynamic = self._dynamic
        context = [units[code >> 1] for code in key]
        if dynamic and any(code >> 1 in dynamic for code in key):
            context = self._in_context(key)
        life = 0
        no_tap = self._no_tap
        colored: list[int] = []
        unread = False  # some permanent neither plain, a converter, nor of colored-only units
        for code, pu in zip(key, context):
            tapped = code & 1 and code >> 1 not in no_tap
            if pu.life and not tapped:
                life += pu.life
            feeds = feeds or (pu.feeds and not tapped)
            if pu.plain is not None:
                if not tapped:
                    plain.extend(pu.plain)
                    if most is not None:
                        most.extend(pu.plain)
                continue
            if pu.modes is not None:
                if not tapped:
                    conv[pu.modes] = conv.get(pu.modes, 0) + 1
            else:
                modelled = False
                if pu.colored:
                    if not tapped:
                        colored.extend(pu.colored)
                else:
                    unread = True
                if not pu.droppable:
                    droppable = False
            bound = pu.bound[tapped]
            if bound is None:
                most = None
            elif most is not None and bound[0]:
                same = False
                most.extend([bound[1] or ANY] * bound[0])
        if life >= _LIFE:
            modelled = droppable = False  # not every life cost payable at once: the engine knows which
        if feeds and conv:
            # restricted mana that may pay a converter's cost: the permanents adding it are converters
            converters = [self.cards[code >> 1] for code, pu in zip(key, context)
                          if pu.plain is None and pu.modes and any(need for need, _ in pu.modes)
                          and not (code & 1 and code >> 1 not in no_tap)]
            for code, pu in zip(key, context):
                if not pu.feeds or code & 1 and code >> 1 not in no_tap:
                    continue
                paid = [_feeds(self.cards[code >> 1], c) for c in converters]
                if not any(paid):
                    continue  # its mana is for the abilities of other permanents (Primal Beyond's Elementals)
                if pu.fed is None or pu.plain is None or not all(paid):
                    modelled = False
                    unread = True
                    continue
                for m in pu.plain:
                    plain.remove(m)
                conv[pu.fed] = conv.get(pu.fed, 0) + 1
        plain_masks = tuple(sorted(plain))
        plain_have = have(plain_masks)
        most_have = None if most is None else plain_have if same and not (feeds and conv) else have(most)
        # the units and colored-only units decide: no other permanent, and converters whose costs are
        # generic (colored-only mana pays none of them)
        conv_rows = tuple(sorted(conv.items()))
        exact = not (modelled or unread or life >= _LIFE) and _generic_costs(conv_rows)
        out = _Units(plain_masks, plain_have, conv_rows, modelled, droppable, most_have, life,
                     tuple(colored) if exact else None, bool(colored))
        self._unit_bounds[key] = out
        return out

    def _in_context(self, key: BoardKey) -> list[PermUnits]:
        """The :class:`.units.PermUnits` of each permanent of ``key`` on that board: the abilities its
        conditions allow there, and those the board's grants give it when it is a land (Chromatic
        Lantern; The World Tree with six lands or more)."""
        cards = [self.cards[code >> 1] for code in key]
        granted: list[ManaAbility] = []
        for pos, code in enumerate(key):
            for grant in self._grants[code >> 1] or ():
                if holds(grant.condition, cards, pos) and grant.ability not in granted:
                    granted.append(grant.ability)
        out: list[PermUnits] = []
        for pos, code in enumerate(key):
            i = code >> 1
            gets = tuple(granted) if self._land[i] else ()
            if i not in self._dynamic and not gets:
                out.append(self._units[i])
                continue
            card = self.cards[i]
            holding = tuple((holds(a.condition, cards, pos), holds(a.production.instead, cards, pos))
                            for a in card.mana_abilities)
            colors = {kind: colors_among(cards, kind) for kind in COLORS_AMONG} if i in self._dynamic else {}
            amounts = self._amounts(card, key, cards, pos)
            if amounts is None:
                out.append(self._units[i])  # a power the engine reads otherwise: the engine's board
                continue
            out.append(self._context_pu(i, holding, gets, colors, amounts))
        return out

    def _amounts(self, card: Card, key: BoardKey, cards: list[Card], pos: int) -> dict[int, int] | None:
        """The value on board ``key`` (of ``cards``) of each :func:`.units.board_amount` of ``card``'s
        mana abilities, the permanent at ``pos``, by the ability's position; ``None`` when a creature's
        power is not a number (a characteristic-defining ``*``)."""
        out: dict[int, int] = {}
        for k, a in enumerate(card.mana_abilities):
            amount = a.production.amount
            if amount is None or not board_amount(amount):
                continue
            found = matching(amount, cards, pos)
            if amount.kind == "count":
                out[k] = len(found)
                continue
            powers: list[int] = []
            for j in found:
                if "creature" not in cards[j].type_line.types:
                    continue
                try:
                    power = int(cards[j].power or 0)
                except ValueError:
                    return None
                counters = dict(self._counters[key[j] >> 1])
                powers.append(power + counters.get("+1/+1", 0) - counters.get("-1/-1", 0))
            out[k] = max(powers, default=0) if amount.kind == "max_power" else sum(powers)
        return out

    def _reach(self, units: _Units) -> Pools | None:
        """The pools a board's plain permanents and converters reach (:func:`.converters.pools`),
        remembered per plain units and converters."""
        ck = (units.plain_masks, units.conv)
        try:
            return self._pool_memo[ck]
        except KeyError:
            pass
        found = pools(units.plain_masks, units.conv)
        self._pool_memo[ck] = found
        return found

    def _least_known(self, key: BoardKey) -> int:
        """The most generic mana a board one quiet permanent smaller than ``key`` (or with one of them
        tapped) is known to pay: ``key`` pays it too."""
        most = self._most
        quiet_ = self._quiet
        best = most.get(key, 0)
        for i, code in enumerate(key):
            if not quiet_[code >> 1]:
                continue
            hit = most.get(key[:i] + key[i + 1:])
            if hit is not None and hit > best:
                best = hit
            if not code & 1:
                hit = most.get(tuple(sorted(key[:i] + key[i + 1:] + (code + 1,))))
                if hit is not None and hit > best:
                    best = hit
        return best

    def _bounds(self, key: BoardKey) -> tuple[int, int]:
        """What is known of ``key`` from boards one quiet permanent away: what a board with one quiet
        permanent fewer, or one more of them tapped, pays (``key`` pays it too: a quiet permanent only
        adds mana), and what a board with one of its tapped quiet permanents untapped can't pay (``key``
        can't either)."""
        known = self._known
        quiet_ = self._quiet
        yes = 0
        no = 0
        seen: set[int] = set()
        for i, code in enumerate(key):
            if code in seen or not quiet_[code >> 1]:
                continue
            seen.add(code)
            rest = key[:i] + key[i + 1:]
            hit = known.get(rest)
            if hit is not None:
                yes |= hit[0]
            if code & 1:
                hit = known.get(tuple(sorted(rest + (code - 1,))))
                if hit is not None:
                    no |= hit[1]
            else:
                hit = known.get(tuple(sorted(rest + (code + 1,))))
                if hit is not None:
                    yes |= hit[0]
        return yes, no

    def _without_idle(self, key: BoardKey) -> BoardKey:
        """``key`` without its permanents whose every mana ability sacrifices a creature (The Golden
        Throne) when no creature is on the board and no permanent reads the board (:attr:`_dynamic`):
        their abilities can't be activated (CR 602.2b, a cost that can't be paid), they are quiet and
        nothing counts them, so the board pays what the board without them pays; ``key`` itself (the
        same object) when it holds none of them or they may add mana."""
        idle = self._idle_cards
        if not any(code >> 1 in idle for code in key):
            return key
        creature = self._creature
        dynamic = self._dynamic
        if any(creature[code >> 1] or code >> 1 in dynamic for code in key):
            return key
        return tuple(code for code in key if code >> 1 not in idle)

    def signature_of(self, key: BoardKey) -> tuple[tuple[int, ...], Converters] | None:
        """The signature of board ``key`` as :meth:`payable` reads it (:meth:`_signature`, ``None`` when
        the board has none): boards of one signature pay the same costs."""
        if self._idle_cards:
            key = self._without_idle(key)
        entry = self._known.get(key)
        return entry.sig if isinstance(entry, _Shared) else self._signature(key)

    def _need_of(self, cost: ManaCost) -> CostNeed | None:
        """:func:`.units.cost_need` of ``cost``, remembered."""
        try:
            return self._cost_needs[cost]
        except KeyError:
            pass
        need = self._cost_needs[cost] = cost_need(cost)
        return need

    def payable(self, key: BoardKey, cost: ManaCost) -> bool:
        """Whether the board ``key`` can pay ``cost``."""
        return self.payable_signed(key, cost, self.signature_of(key))

    def sig_payable(self, sig: tuple[tuple[int, ...], Converters], cost: ManaCost) -> bool | None:
        """Whether boards of signature ``sig`` pay ``cost``, when their units decide it (Hall's condition,
        :mod:`.converters`); ``None`` otherwise."""
        sk = (sig, cost)
        hit = self._sig_costs.get(sk)
        if hit is not None:
            return hit
        need = self._need_of(cost)
        if need is None:
            return None
        read = _sig_units(sig)
        found = None if read is None else self._sig_pays(sig, read[0], read[1], need)
        if found is not None:
            if len(self._sig_costs) >= _SIG_MEMO:
                self._sig_costs.clear()
            self._sig_costs[sk] = found
            self.unit_answers += 1
        return found

    def payable_signed(self, key: BoardKey, cost: ManaCost, sig: tuple[tuple[int, ...], Converters] | None) -> bool:
        """:meth:`payable` of the board ``key`` whose :meth:`signature_of` is ``sig``."""
        if self._idle_cards:
            key = self._without_idle(key)
        if sig is not None:
            found = self.sig_payable(sig, cost)
            if found is not None:
                return found
        ck = (key, cost)
        hit = self._costs.get(ck)
        if hit is not None:
            return hit
        need = self._need_of(cost)
        units = self._units_of(key)
        ok = self._decide(units, need) if need is not None else self._by_life(units, life_need(cost))
        if ok is None:
            ok = self._engine_pays(key, cost, None, [])
        else:
            self.unit_answers += 1
        self._costs[ck] = ok
        return ok

    def forget_boards(self) -> None:
        """Forget the boards given their signature's answers since the last call (their signatures keep
        the answers; a board answered otherwise, by the engine, is kept): they are most of the answers
        per board, and a board seldom comes back long after its game."""
        known = self._known
        for key in self._fresh:
            if isinstance(known.get(key), _Shared):
                del known[key]
        self._fresh.clear()

    @property
    def boards(self) -> int:
        return len(self._known)

    def memo_size(self) -> int:
        """The entries of the oracle's memos (:data:`MEMOS`), all answers of boards and costs it met."""
        return sum(len(getattr(self, name)) for name in MEMOS)

    def forget(self) -> None:
        """Empty every memo of :data:`MEMOS` at once (they refer to one another: the features by number,
        the boards to their signatures' shared entries); the answers stay exact, asked again."""
        for name in MEMOS:
            getattr(self, name).clear()
        self._fresh.clear()


#: The oracle's memos, emptied together by :meth:`BoardOracle.forget`: answers per board, per board and
#: cost, per signature and per units; the units, pools and features computed on the way.
MEMOS = ("_known", "_costs", "_cost_needs", "_most", "_by_units", "_context_units", "_unit_bounds",
         "_pool_memo", "_feature_units", "_feature_ids", "_feature_list", "_by_sig", "_sig_costs")


#: a mana type's letter, as :func:`manasolver.solver.service.api.could_produce` gives it, and its bit
_TYPE_BITS = {"W": W, "U": U, "B": B, "R": R, "G": G, "C": C}


def _keywords_changed(card: Card, deck: Sequence[Card]) -> bool:
    """Whether some card of ``deck`` may give or take away a keyword that ``card``'s mana abilities count
    permanents by ("creatures you control with defender"): a count by printed keywords then is not the
    board's, and ``card`` is left to the engine."""
    words: set[str] = set()
    for a in card.mana_abilities:
        conditions = [a.condition, a.production.instead]
        counts = [amount for c in conditions if c is not None for amount, _ in c.counts]
        if a.production.amount is not None:
            counts.append(a.production.amount)
        for amount in counts:
            words |= amount.keywords
    return any(c is not card and re.search(rf"(?<!n't )\b(?:have|has|gains?|loses?)\s+(?:\w+,\s+)*(?:\w+,?\s+and\s+)?"
                                           rf"{re.escape(w)}\b", c.oracle_text, re.I)
               for c in deck for w in words)


#: The amounts of mana read from the top card of a library (CR 401.2: a castability board has none).
_TOP_CARD_AMOUNTS = frozenset({"revealed_nonland", "top_card"})


def _on_castability_board(card: Card) -> Card:
    """``card`` as its mana is on a castability board, which gives no library and asks only whether a
    cost is paid:

    * without its mana abilities when each of them adds an amount read from the top card of a library
      (Selvala, Explorer Returned's parley): the engine pays without such a card where the rest of the
      board pays and refuses where its mana would be needed (CR 401.2: the library is not given),
      which castability counts as not payable, so on every board it adds nothing; it stays a
      creature for what counts creatures;
    * without its triggers on tapping itself for mana that only deal damage to opponents (Zhur-Taa
      Druid): they change no payment (CR 605.4a: they are no mana abilities and wait for the stack);
    * ``card`` itself otherwise."""
    abilities = card.mana_abilities
    if abilities and all(a.production.amount is not None and a.production.amount.kind in _TOP_CARD_AMOUNTS
                         for a in abilities):
        return replace(card, mana_abilities=())
    triggers = tap_triggers_of(card)
    if triggers and all(t is not None and t.reach == "self" and t.hurt_opponents and not t.hurt and not t.hurt_you
                        for _, t in triggers):
        text = card.oracle_text
        for sentence, _ in triggers:
            text = text.replace(sentence, "")
        return replace(card, oracle_text="\n".join(line for line in text.splitlines() if line.strip()), text=None)
    return card


def _mirror_types(card: Card) -> int:
    """The types ``card`` may add when its only mana ability is "{T}: Add one mana of any type (or
    color) that a land you control could produce" (Incubation Druid; its three mana "instead" with
    counters left out: the oracle reads them only of cards entering with no counters; a land too,
    Reflecting Pool, Cactus Preserve: the lands mirroring one another add no type the others could
    not, CR 106.7): ``ANY`` or the colors; 0 for any other card."""
    if len(card.mana_abilities) != 1:
        return 0
    a = card.mana_abilities[0]
    prod = a.production
    if a.cost != AbilityCost(tap=True) or a.condition is not None or a.per_turn or a.damage or a.extra:
        return 0
    if prod.reference != "lands_you_control" or prod.reference_count != 1 or prod.options or prod.amount is not None \
            or prod.restriction is not None or prod.chosen or prod.commander or prod.colors_among or prod.doubles_pool:
        return 0
    if prod.instead is not None and any(amount.kind != "counters" for amount, _ in prod.instead.counts):
        return 0
    return ANY_COLOR if prod.colors_only else ANY


def _feeds(source: Card, converter: Card) -> bool:
    """May restricted mana of ``source`` pay the cost of ``converter``'s mana ability (CR 106.6)?
    Only mana for the abilities of what the converter is (its card types and subtypes): Primal
    Beyond's mana pays an Elemental's, not Fetid Heath's; mana "only on costs that contain {X}"
    pays none (:func:`~manasolver.solver.supply.model.ability_scope`, as the engine reads it)."""
    words = card_words(converter)
    for ability in source.mana_abilities:
        restriction = ability.production.restriction
        if restriction is not None and scope_pays(ability_scope(restriction), words):
            return True
    return False
