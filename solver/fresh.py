"""``can_pay`` on a fresh board of quiet cards: the payable answer from per-permanent rows.

A game client's ``can_pay`` line usually carries its own new board, and on most boards every
permanent is *quiet*: what it can add depends only on its own fields (card, tapped, summoning
sick, token), its controller's life and energy, and the commander's color identity (basics, dual
and pain lands, Signets, Sol Ring, Command Tower, Arcane Signet, plain mana creatures, Treasures),
and nothing on it reaches another permanent or the payment (no effect on mana, no granted keyword,
no prohibition, no trigger on becoming tapped but City of Brass's own damage, no cost modifier,
no clause left unread, no rule of paying the engine refuses).  On such a board the supply is the sum of each
permanent's own row,
and a row is a function of a small key read from the decoded JSON object, so :func:`can_pay`
skips the :class:`~manasolver.models.state.GameState`, the grouped supply and the problem: it
sums each permanent's remembered plain units (the flow fast path's units,
:func:`~manasolver.solver.backends.flow.class_units`) and asks Hall's condition
(:func:`~manasolver.solver.backends.matching.hall_fast`) form by form, as the flow fast path
does.

Only a proof of payability is answered here (``{"payable": true}``, the whole answer of a payable
``can_pay``): a payable plain part is exact whatever else the board has (the rest only adds ways
to pay).  Everything else goes the full way (``None``): a field this lane does not read (``x``,
``spell``, ``player``, ``cards``, ``turn``, counters, attachments, haste …), any value the board
loader would refuse or read otherwise, a permanent that is not quiet anywhere on the board (an
opponent's Null Rod, Manabarbs or Fervor too), a card in the player's hand with a mana ability
(Spirit Guides) or in the graveyard whose text speaks of the graveyard, a form the plain units do
not pay, and a board whose text was answered here before (the full way keeps it, so that the
same board sent again is answered from the kept board's memo of answers).  On a kept board (a
session's, or one recognised by its text: objects never changed once kept) what the lane found
is remembered with the board, so a new cost there is one Hall check, and a board that goes the
full way is not read here again.

A permanent whose own mana counts permanents or reads what lands could produce, and that is
otherwise quiet (Elvish Archdruid, Gaea's Cradle, Exotic Orchard, Reflecting Pool:
:func:`counting`), is counted as adding nothing: the sum is then a lower bound of the board's
supply, so a payable answer from it stands and any other goes the full way.

Each row is made once per key by the real supply (:func:`~manasolver.solver.supply.build.build_supply`
on a board of the permanent alone with the same players), so the lane adds no reading of rules
of its own: it decides only which boards may be summed.  Thread-safe: tables are dictionaries
filled with whole values.
"""

from __future__ import annotations

import marshal
import weakref
from collections import Counter
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

from manasolver.models.board.cards import CardResolver
from manasolver.models.board.load import load_permanent, load_players
from manasolver.models.board.schema import LIMITS
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import ManasolverError
from manasolver.models.rules.amounts import player_identity
from manasolver.models.state import GameState, Player, Turn
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_triggers import tap_triggers_of
from manasolver.models.text.triggers import self_tap_damage
from manasolver.solver.backends.flow import class_units
from manasolver.solver.backends.matching import UnitKind, hall_fast
from manasolver.solver.casting.announce import Form, announce
from manasolver.solver.supply.build import build_supply, card_context, pool_units
from manasolver.solver.supply.unmodelled import ONLY_AS_COLORLESS

if TYPE_CHECKING:
    from manasolver.models.carddb import CardDB

__all__ = ["can_pay", "quiet"]

_QUERY_KEYS = frozenset({"query", "id", "state", "cost"})
_STATE_KEYS = frozenset({"players", "battlefield"})
_PERMANENT_KEYS = frozenset({"id", "card", "controller", "tapped", "sick", "token"})
_NAME_LIMIT = LIMITS["name"]
_PERMANENT_LIMIT = LIMITS["permanents"]
#: Past this many entries a table starts again empty (hostile variety of names or contexts).
_TABLE_LIMIT = 1 << 16

#: A row: the plain units one permanent adds, as ``((mask, snow, count), ...)``, and whether an
#: option of it deals damage (pain lands: a form that pays life is then the flow's to skip).
_Row = tuple[tuple[tuple[int, bool, int], ...], bool]
#: A permanent's rows by the context it reads (life and energy, or the commander's identity).
_Rows = dict[object, "_Row | None"]


class _Entry:
    """What one permanent key is: quiet or not, whether the player asked about controls it, and
    for the player's own permanents what its rows read and the rows made so far."""

    __slots__ = ("commander", "inert", "mine", "pays", "plain", "quiet", "rows")

    def __init__(self, card: Card, quiet: bool, mine: bool) -> None:
        self.inert = not quiet and counting(card)
        self.quiet = quiet or self.inert
        self.mine = mine and not self.inert
        context = card_context(card) if quiet else None
        self.pays = bool(context and context[0])
        self.commander = bool(context and context[1])
        self.rows: _Rows = {}
        #: Per line context (the player's life, energy and commander identity), the row made for
        #: it as one ``(mask, snow)`` key per unit, and whether it deals damage.
        self.plain: dict[tuple[int, int, int], tuple[tuple[tuple[int, bool], ...], bool]] = {}


class _Table:
    """What one card database and one tuple of player names have met: entries by (card name,
    controlled by the first player, tapped, sick, token) as the JSON gives them, and permanent
    objects by their typed serialisation (``marshal`` format 2: equal bytes are equal content of
    equal types, ``true`` never ``1``) with their id and entry (``None``: not quiet)."""

    __slots__ = ("entries", "perms")

    def __init__(self) -> None:
        self.entries: dict[tuple[object, ...], _Entry] = {}
        self.perms: dict[bytes, tuple[str, _Entry | None]] = {}


#: Per card database, a table per tuple of player names.
_TABLES: weakref.WeakKeyDictionary[CardDB, dict[tuple[str, ...], _Table]] = weakref.WeakKeyDictionary()
#: The longest permanent serialisation remembered (a longer one goes the full way).
_MAX_KEY = 4096
#: What a permanent of another player adds to the player asked about: nothing.
_NOT_MINE: tuple[tuple[tuple[int, bool], ...], bool] = ((), False)
#: Whether each card is quiet, by card object.
_QUIET: dict[int, tuple[Card, bool]] = {}
#: Whether each card is :func:`counting`, by card object.
_COUNTING: dict[int, tuple[Card, bool]] = {}
#: The references to other lands' mana a counting card may make (the rest go the full way).
_COUNTED_REFERENCES = ("", "lands_you_control", "lands_opponents_control")
#: Forms of a cost, by its text (``None``: the text is not a cost this lane reads).
_FORMS: dict[str, tuple[Form, ...] | None] = {}
#: Board texts this lane answered (the last :data:`_SEEN_LIMIT` at most): a board sent again
#: goes the full way.
_SEEN: dict[str, None] = {}
_SEEN_LIMIT = 64
#: Kept boards (:mod:`~manasolver.solver.service.boards`: objects never changed once kept) and what
#: this lane found on each: its units, or ``None`` when it goes the full way.
_KEPT: dict[int, tuple[object, tuple[list[UnitKind], bool, int, int] | None]] = {}


def quiet(card: Card) -> bool:
    """Is ``card`` quiet: its own mana abilities read nothing of the board but its controller's
    life, energy and commander, and nothing on it reaches another permanent or a payment?"""
    hit = _QUIET.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    calm = _calm(card, context_free=True)
    if len(_QUIET) >= _TABLE_LIMIT:
        _QUIET.clear()
    _QUIET[id(card)] = (card, calm)
    return calm


def _calm(card: Card, context_free: bool) -> bool:
    """Nothing on ``card`` reaches another permanent or a payment, no clause of it is left
    unread, and (``context_free``) its own rows read nothing but its controller and commander."""
    text = card_text(card)
    oracle = card.oracle_text
    return not (text.mana_effects or text.granted_keywords or text.prohibitions or text.unread
                or text.tap_costs or text.cost_effects or text.cost_unknown or text.about_activation
                or text.keyword_costs is None or card.unsupported or not _own_tap_triggers(card)
                or "rather than pay that mana" in oracle or ONLY_AS_COLORLESS in oracle.lower()
                or (context_free and card_context(card) is None))


def counting(card: Card) -> bool:
    """Is ``card`` quiet but for what its own mana reads of the board: a count of permanents
    (Elvish Archdruid, Priest of Titania, Gaea's Cradle, CR 107.1b) or what lands could produce
    (Exotic Orchard, Reflecting Pool, Fellwar Stone, CR 106.7)?  The lane counts such a permanent
    as adding nothing: a payable answer from the rest stands (it only adds ways to pay), and a
    board whose rest does not pay goes the full way."""
    hit = _COUNTING.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    ok = bool(card.mana_abilities) and _calm(card, context_free=False)
    for ab in card.mana_abilities:
        production = ab.production
        if (production.amount is not None and production.amount.kind != "count") \
                or production.reference not in _COUNTED_REFERENCES or ab.condition is not None \
                or production.chosen or production.colors_among or production.instead \
                or ab.cost.remove_any:
            ok = False
    if len(_COUNTING) >= _TABLE_LIMIT:
        _COUNTING.clear()
    _COUNTING[id(card)] = (card, ok)
    return ok


def _own_tap_triggers(card: Card) -> bool:
    """Are ``card``'s triggers on becoming tapped (if any) all read, and each harmless or its own
    damage to its controller that the parser already put on its ``{T}`` abilities (City of Brass):
    the ones the board's tap damage passes over
    (:func:`~manasolver.models.rules.board_effects.tap_damage_from_attachments`)?"""
    return all(t is not None and (t.harmless or (t.reach == "self" and bool(self_tap_damage(card))
                                                 and bool(t.hurt_you)))
               for _, t in tap_triggers_of(card))


def _forms(text: str) -> tuple[Form, ...] | None:
    """The forms of the cost ``text``, announced as the full path announces a query's cost
    (parsed, written canonically, announced without modifiers); ``None`` when it is refused."""
    if text in _FORMS:
        return _FORMS[text]
    try:
        cost = ManaCost.parse(text, "cost")
        forms: tuple[Form, ...] | None = announce(ManaCost.parse(cost.format(), allow_empty=True), None, ()).forms
    except ManasolverError:
        forms = None
    if len(_FORMS) >= 4096:
        _FORMS.clear()
    _FORMS[text] = forms
    return forms


def _player_ok(player: Player) -> bool:
    """No card in the player's hand with a mana ability from there, none in the graveyard whose
    text speaks of the graveyard (the full way reads or refuses both)."""
    return (not any(card_text(c).hand_abilities for c in player.hand)
            and not any("graveyard" in c.oracle_text for c in player.graveyard))


def _row(raw: dict[str, Any], index: int, players: tuple[Player, ...], cards: CardResolver) -> _Row | None:
    """The plain units of one permanent of the player asked about, made by the real supply on a
    board of the permanent alone (``None``: it is left out, costs resources, has a spending
    restriction, or adds mana in a shape the flow fast path does not sum)."""
    names = tuple(p.name for p in players)
    perm = load_permanent(raw, f"battlefield[{index}]", names, cards)
    alone = GameState(players=players, turn=Turn(active=names[0]), battlefield=(perm,))
    sup = build_supply(alone, names[0], resources=True)
    if sup.excluded or sup.resource_costs or sup.restricted or sup.fodder or sup.tappable or len(sup.classes) > 1:
        return None
    units: list[tuple[int, bool, int]] = []
    for cls in sup.classes:
        if cls.count != 1:
            return None
        units += class_units(cls.options, sup.all_ok[0], cls.snow)
    return tuple(units), sup.has_damage


def _table(db: CardDB, names: tuple[str, ...]) -> _Table:
    """The table of ``db`` and these player names."""
    tables = _TABLES.get(db)
    if tables is None:
        tables = _TABLES.setdefault(db, {})
    table = tables.get(names)
    if table is None:
        if len(tables) >= 64:
            tables.clear()
        table = tables[names] = _Table()
    return table


def _permanent(raw: object, index: int, names: tuple[str, ...], table: _Table,
               cards: CardResolver) -> tuple[str, _Entry | None] | None:
    """The id and entry of a permanent object met for the first time; ``None`` for a field or
    value the lane does not read (the full way reads it, or refuses it with its error)."""
    if type(raw) is not dict or not raw.keys() <= _PERMANENT_KEYS:
        return None
    pid = raw.get("id")
    name = raw.get("card")
    if type(pid) is not str or type(name) is not str:
        return None
    if not 0 < len(pid) <= _NAME_LIMIT or (pid[0].isspace() and not pid.strip()):
        return None
    controller = raw.get("controller", names[0])
    tapped = raw.get("tapped", False)
    sick = raw.get("sick", False)
    token = raw.get("token")
    if type(controller) is not str or controller not in names or type(tapped) is not bool \
            or type(sick) is not bool or ("token" in raw and type(token) is not bool):
        return None
    mine = controller == names[0]
    key = (name, mine, tapped, sick, token)
    entry = table.entries.get(key)
    if entry is None:
        try:
            card = cards.named(name, f"battlefield[{index}].card")
        except ManasolverError:
            return None
        entry = _Entry(card, quiet(card), mine)
        if len(table.entries) >= _TABLE_LIMIT:
            table.entries.clear()
        table.entries[key] = entry
    return pid, (entry if entry.quiet else None)


def can_pay(query: dict[str, Any], db: CardDB) -> dict[str, Any] | None:
    """``{"payable": True}`` when the plain units of a quiet board pay some form of the cost, as
    the full path would answer; ``None`` to go the full way (see the module docstring)."""
    if not query.keys() <= _QUERY_KEYS:
        return None
    state = query.get("state")
    cost = query.get("cost")
    if type(state) is not dict or type(cost) is not str or not state.keys() <= _STATE_KEYS:
        return None
    forms = _forms(cost)
    if not forms:
        return None
    from manasolver.solver.service.boards import identified, pending_text
    kept = identified(state, db)
    if kept is not None:  # a kept board (its text seen before, or a session's): its verdict, once
        verdict = _KEPT.get(id(kept))
        if verdict is None or verdict[0] is not kept:
            verdict = (kept, _units(state, db))
            if len(_KEPT) >= _SEEN_LIMIT:
                _KEPT.clear()  # (whole: another thread may be evicting too)
            _KEPT[id(kept)] = verdict
        return _answer(verdict[1], forms)
    text = pending_text(state)
    if text is not None and text in _SEEN:
        return None
    found = _units(state, db)
    if found is None:
        return None
    answered = _answer(found, forms)
    if answered is not None and text is not None:
        if len(_SEEN) >= _SEEN_LIMIT:
            _SEEN.clear()
        _SEEN[text] = None
    return answered


def _answer(found: tuple[list[UnitKind], bool, int, int] | None, forms: tuple[Form, ...]) -> dict[str, Any] | None:
    """``{"payable": True}`` when the units pay some form (as the flow fast path asks), else ``None``."""
    if found is None:
        return None
    units, damage, life, energy = found
    for form in forms:
        if form.life and damage:
            continue  # damage taken before the life payment matters: the full way decides
        if form.life > life or form.energy > energy:
            continue
        if hall_fast(units, form, form.generic(0)):
            return {"payable": True}
    return None


def _units(state: dict[str, Any], db: CardDB) -> tuple[list[UnitKind], bool, int, int] | None:
    """The plain units of a quiet board, whether one of them deals damage, and the player's life
    and energy; ``None`` for a board that goes the full way."""
    raw_field = state.get("battlefield", [])
    if type(raw_field) is not list or len(raw_field) > _PERMANENT_LIMIT:
        return None
    cards = CardResolver(db)
    try:
        players = load_players(state, cards)
    except ManasolverError:
        return None
    me = players[0]
    if not _player_ok(me):
        return None
    names = tuple(p.name for p in players)
    table = _table(db, names)
    perms = table.perms
    try:  # each permanent's key and remembered hit, in C loops (the line's hot part)
        keys = list(map(marshal.dumps, raw_field, repeat(2)))
    except (ValueError, TypeError):
        return None
    hits = list(map(perms.get, keys))
    if None in hits:
        for index, hit in enumerate(hits):
            if hit is None:
                key = keys[index]
                if len(key) > _MAX_KEY:
                    return None
                hit = _permanent(raw_field[index], index, names, table, cards)
                if hit is None:
                    return None
                if len(perms) >= _TABLE_LIMIT:
                    perms.clear()
                perms[key] = hits[index] = hit
    pids, entries = zip(*hits) if hits else ((), ())
    if None in entries:
        return None
    if len(set(pids)) != len(pids):
        return None  # a duplicate id: the loader's error
    identity = player_identity(me)
    line = (me.life, me.energy, identity)
    for index, entry in enumerate(entries):
        if entry.mine and line not in entry.plain:  # its row for this context, made once
            context = ((me.life, me.energy) if entry.pays else None, identity if entry.commander else None)
            rows = entry.rows
            if context in rows:
                row = rows[context]
            else:
                try:
                    row = _row(raw_field[index], index, players, cards)
                except ManasolverError:
                    return None
                if len(rows) >= 256:
                    rows.clear()
                rows[context] = row
            if row is None:
                return None
            if len(entry.plain) >= 256:
                entry.plain.clear()
            entry.plain[line] = (tuple((mask, snow) for mask, snow, n in row[0] for _ in range(n)), row[1])
    made = [e.plain.get(line) if e.mine else _NOT_MINE for e in entries]
    if None in made:
        return None  # another thread emptied a table meanwhile: the full way
    counts = Counter(chain.from_iterable([keys for keys, _ in made]))  # summed in C
    for bit, n in pool_units(me):
        counts[(bit, False)] += n
    hurts = any([hurt for _, hurt in made])
    return [(mask, snow, n, -1, ()) for (mask, snow), n in counts.items()], hurts, me.life, me.energy
