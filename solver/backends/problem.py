"""What every payment backend receives and returns: :class:`Problem`, :class:`Solution`, PAYMENT.

A backend receives a :class:`Problem` (the request, the grouped supply, the
announced forms of the cost) and answers with a :class:`Solution` (which form, which
activations, which mana paid what) when it finds one (the outcomes and the registry:
:mod:`manasolver.solver.backends`).  :func:`to_payment` turns any backend's solution into
the one result type, :class:`~manasolver.solver.payment.Payment`, so the backends share
the way answers are written and nothing else.

Unit and demand keys used in :attr:`Solution.spend`:

* sources: ``("pool", bit)`` for floating mana of one type; ``("act", k, o, mask)``
  for the slots of mask ``mask`` of option ``o`` of class ``k`` (``("act", k, o, mask,
  "nonsnow")`` for a snow member's nonsnow triggered mana, Wild Growth on a snow land);
* destinations: ``("spell", mask)`` a colored/colorless/hybrid demand of the
  total, ``("generic",)``, ``("snow",)``, and ``("cost", k, member, o)`` for the
  mana cost of one activation (filter lands, Signets).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from manasolver.models._memo import KeyMemo
from manasolver.models.cost import ManaCost
from manasolver.models.effects import SpendTable
from manasolver.models.errors import Unsupported
from manasolver.models.rules.counts import payment_spend_table, spend_effects, spend_table
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import ANY_COLOR, TYPE_BITS, C, ManaSymbol
from manasolver.solver.casting.announce import Announcement, Form, announce, mask_text
from manasolver.solver.policy import for_backends
from manasolver.solver.request import Modifier, PaymentRequest, Policy
from manasolver.models.rules.ability_scope import ability_scope
from manasolver.solver.request import restriction_allows
from manasolver.models.slots import slot_setters
from manasolver.solver.supply.model import Option, Options, SourceClass, Supply
from manasolver.solver.supply.resources import NO_ASSISTS, Assists, build_assists
from manasolver.solver.supply.unmodelled import guard_spent_on_costs

if TYPE_CHECKING:  # the payment's types, imported when a payment is written
    from manasolver.solver.payment import Activation, Choice, Payment

__all__ = [
    "Problem",
    "Solution",
    "activation_of",
    "announced",
    "executable_order",
    "idle_classes",
    "kept_spend_table",
    "lowest_bit",
    "mana_string",
    "merged_pick",
    "order_constraints",
    "sacrifices_last",
    "snow_units",
    "spend_table_of",
    "spending_supply",
    "to_payment",
]

#: What a backend is asked: is it payable, the best payment, the largest X then the best payment.
Mode = Literal["feasible", "optimal", "max_x"]

SrcKey = tuple[object, ...]
DstKey = tuple[object, ...]


def spend_table_of(req: PaymentRequest) -> SpendTable:
    """The 609.4b table of the rules reaching ``req``'s payment
    (:func:`~manasolver.models.rules.counts.payment_spend_table`)."""
    return payment_spend_table(req.state, req.player, req.spell)


def spending_supply(state: GameState, supply: Supply) -> Supply:
    """``supply`` with each activation's mana cost written as the 609.4b rules reaching it let it
    be paid (:func:`~manasolver.models.rules.counts.spend_table` for an ability of that card: a
    filter land's ``{W/U}`` under Chromatic Orrery is paid by any mana, a ``{R/G}`` under
    Celestial Dawn by white only): each colored or ``{C}`` symbol becomes one of the same text
    whose colors and colorless flag are the types that may pay it, so every backend, which reads
    a cost symbol's colors and colorless flag as the mana that pays it, pays it by the rule.
    ``supply`` itself when no rule changes a cost; kept in ``supply.derived`` with its state."""
    if not spend_effects(state):
        return supply
    hit = supply.derived.spending
    if hit is not None and hit[0] is state:
        return hit[1]
    classes: list[SourceClass] = []
    for cls in supply.classes:
        table = SpendTable() if cls.hand or cls.free else spend_table(state, supply.player, None, cls.name)
        if table.identity:
            classes.append(cls)
            continue
        options = Options(o if o.free else dataclasses.replace(o, mana_cost=_paid_as(o.mana_cost, table))
                          for o in cls.options)
        classes.append(cls if options == cls.options else dataclasses.replace(cls, options=options))
    out = supply if all(a is b for a, b in zip(classes, supply.classes)) else \
        dataclasses.replace(supply, classes=tuple(classes))
    supply.derived.spending = (state, out)
    return out


def _paid_as(cost: ManaCost, table: SpendTable) -> ManaCost:
    """``cost`` with each colored or ``{C}`` symbol as the mana ``table`` lets pay it."""
    out: list[ManaSymbol] = []
    for sym in cost.symbols:
        mask = sym.colors | (C if sym.colorless else 0)
        wide = table.mask(mask) if mask and not (sym.phyrexian or sym.generic or sym.snow or sym.variable) else mask
        out.append(sym if wide == mask else dataclasses.replace(sym, colors=wide & ANY_COLOR, colorless=bool(wide & C)))
    return ManaCost(tuple(out))


def kept_spend_table(problem: Problem) -> SpendTable:
    """The 609.4b table ``keep_castable``'s kept costs are read under: the rules of this
    payment that reach every spell of the player (not those limited to spells of some card types
    or to a source's abilities, which a kept cost's text does not say), the identity when the
    payment itself is paid by type."""
    if problem.announcement.spend.identity:
        return SpendTable()
    return spend_table(problem.req.state, problem.req.player, frozenset(), None)


def idle_classes(problem: Problem) -> tuple[tuple[SourceClass, int], ...]:
    """The classes of the request's ``idle`` permanents (:class:`~manasolver.solver.request.Sources`:
    taken as tapped on this board, untapped on the player's), each with how many of them it
    holds: read on this board with them untapped, as the board the payment leaves, so that
    ``keep_colors`` and ``keep_castable`` count them as left (their colors, the converters they
    feed or are).  Empty, and nothing read, for a request without them."""
    idle = problem.req.sources.idle
    if not idle:
        return ()
    try:  # read once per problem (the keep terms, the search's key and CP-SAT each ask)
        return problem.idle_read
    except AttributeError:
        pass
    from manasolver.solver.supply.build import build_supply
    state = problem.req.state
    ids = frozenset(idle)
    board = dataclasses.replace(state, battlefield=tuple(
        p._replace(tapped=False) if p.id in ids else p for p in state.battlefield))
    supply = build_supply(board, problem.supply.player, resources=True)
    if spend_effects(board):
        supply = spending_supply(board, supply)
    out = []
    for cls in supply.classes:
        n = sum(m in ids for m in cls.members)
        if n and not cls.hand:
            out.append((cls, n))
    read = tuple(out)
    object.__setattr__(problem, "idle_read", read)  # a field of this problem, set on first ask
    return read


class _Announced:
    """One cost's announcement under some modifiers, or why it is refused, and the same cost
    announced again under each 609.4b table asked (``spent``, at most :data:`_SPENT_PER_COST`)."""

    __slots__ = ("announcement", "refused", "spent")

    def __init__(self, announcement: Announcement | None, refused: Unsupported | None = None) -> None:
        self.announcement = announcement
        self.refused = refused
        self.spent: dict[SpendTable, Announcement] = {}


#: The announced costs kept across queries (the one cache of announcements): by the cost object and
#: the modifiers (a query's cost is the parser's one object per text, a kept cost the card's own),
#: the entry keeping its cost.  Bounded and thread-safe as every
#: :class:`~manasolver.models._memo.KeyMemo`; an entry's ``spent`` dictionary holds whole
#: announcements stored by single stores and starts again empty past its limit.
_ANNOUNCED: KeyMemo[tuple[int, tuple[Modifier, ...]], _Announced] = KeyMemo(4097)
_SPENT_PER_COST = 16


def announced(cost: ManaCost, modifiers: tuple[Modifier, ...] = (), spend: SpendTable | None = None) -> Announcement:
    """:func:`announce` of ``cost`` (as its text reads: parsed again, so symbols come in their
    canonical order) under ``modifiers`` with X free, each demand paid as the 609.4b ``spend``
    table allows (``None``: by type); remembered per cost object, modifiers and table, since
    hashing a long cost's symbols on every query costs more than the Hall check itself.  Raises
    :class:`Unsupported` (remembered) as :func:`announce` does."""
    key = (id(cost), modifiers)
    entry = _ANNOUNCED.get(key, cost)
    if entry is None:
        try:
            made = announce(ManaCost.parse(cost.format(), allow_empty=True), None, modifiers)
        except Unsupported as err:
            entry = _ANNOUNCED.put(key, cost, _Announced(None, err))
        else:
            entry = _ANNOUNCED.put(key, cost, _Announced(made))
    ann = entry.announcement
    if ann is None:
        assert entry.refused is not None
        raise Unsupported(entry.refused.message, entry.refused.where)
    if spend is None or spend.identity:
        return ann
    spent = entry.spent
    hit = spent.get(spend)
    if hit is None:
        hit = announce(ann.cost, None, modifiers, spend)
        if len(spent) >= _SPENT_PER_COST:
            spent = entry.spent = {}
        spent[spend] = hit
    return hit


def merged_pick(members: list[tuple[int, Option]]) -> tuple[int, list[tuple[int, int]]]:
    """Single-slot options of one class merged into one choice (the fast optimiser's mode, the
    flow's unit): the union of their types, and for each type the first option (in printed order)
    that makes it."""
    mask = 0
    pick: list[tuple[int, int]] = []
    for o, opt in members:
        for b in TYPE_BITS:
            if opt.slots[0] & b and not mask & b:
                pick.append((b, o))
        mask |= opt.slots[0]
    return mask, pick


def lowest_bit(mask: int) -> int:
    """The first type of a mask in W U B R G C order (a deterministic realization)."""
    return mask & -mask


def mana_string(bits: list[int]) -> str:
    """Units of mana (type bits) as text in W U B R G C order: ``[16, 1]`` → ``{W}{G}``."""
    if len(bits) == 1:
        return mask_text(bits[0])
    return "".join(mask_text(b) for b in sorted(bits, key=TYPE_BITS.index))


@dataclass(frozen=True, slots=True, init=False)
class Problem:
    """A payment question ready for a backend.

    ``mode``: ``feasible`` (is it payable), ``optimal`` (best under ``policy``) or
    ``max_x`` (largest X, then best); ``x``: fixed X (``None`` only in ``max_x``
    mode); ``spell_ok``: for each class and option, whether its mana may pay this
    spell (restrictions, CR 106.6); ``ignore_restrictions`` lifts them (used to
    tell ``restricted_mana`` apart); ``assists``: what convoke, improvise and delve may
    use when the request allows them (702.51, 702.126, 702.66), empty otherwise.

    ``forms`` (the announcement's forms) and ``has_assists`` (some assist could pay part of the
    cost: the fast paths then decline, so that CP-SAT decides them with the mana) are read from
    those fields as the problem is made: every backend reads them, most more than once.
    """

    req: PaymentRequest
    supply: Supply
    announcement: Announcement
    mode: Mode
    x: int | None
    policy: Policy
    spell_ok: tuple[tuple[bool, ...], ...]
    assists: Assists = NO_ASSISTS  # frozen, so a shared default is safe
    forms: tuple[Form, ...] = field(init=False, repr=False, compare=False)
    has_assists: bool = field(init=False, repr=False, compare=False)
    #: The classes of the request's ``idle`` permanents (:func:`idle_classes`), read when first asked.
    idle_read: tuple[tuple[SourceClass, int], ...] = field(init=False, repr=False, compare=False)

    def __init__(self, req: PaymentRequest, supply: Supply, announcement: Announcement, mode: Mode,
                 x: int | None, policy: Policy, spell_ok: tuple[tuple[bool, ...], ...],
                 assists: Assists = NO_ASSISTS) -> None:
        # Each field set through its slot (see slot_setters): a problem per query.
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, _idle_read = _PROBLEM_SLOTS  # (idle_read: set when first asked)
        s0(self, req)
        s1(self, supply)
        s2(self, announcement)
        s3(self, mode)
        s4(self, x)
        s5(self, policy)
        s6(self, spell_ok)
        s7(self, assists)
        s8(self, announcement.forms)
        s9(self, assists.usable)

    @staticmethod
    def build(req: PaymentRequest, supply: Supply, ann: Announcement, mode: Mode, x: int | None,
              ignore_restrictions: bool = False) -> Problem:
        """The problem of ``req``: ``ann`` announced again under the 609.4b rules reaching this
        payment (:func:`spend_table_of`), so that its forms' demands say what mana pays them,
        and ``supply``'s activation costs likewise (:func:`spending_supply`)."""
        guard_spent_on_costs(req)
        if spend_effects(req.state):  # (without a 609.4b rule on the board, both are as they are)
            supply = spending_supply(req.state, supply)
            table = spend_table_of(req)
            if not table.identity:
                ann = announced(req.cost, req.modifiers, table)
        if ignore_restrictions or not supply.restricted:
            ok = supply.all_ok
        else:
            has_x = ann.x_count > 0
            ok = tuple(tuple(restriction_allows(o.restriction, req.spell, has_x, req.cost.has_colorless)
                             for o in k.options) for k in supply.classes)
        assists = build_assists(req.state, supply, req.convoke, req.improvise, req.delve)
        return Problem(req, supply, ann, mode, x, for_backends(req.policy), ok, assists)

    def at(self, mode: Mode, x: int | None) -> Problem:
        """The same question in another mode or at another X (supply, forms, restrictions and
        assists do not depend on them)."""
        return Problem(self.req, self.supply, self.announcement, mode, x, self.policy, self.spell_ok, self.assists)

    def without_restrictions(self) -> Problem:
        """The same question with every spending restriction lifted (CR 106.6), as
        ``build(..., ignore_restrictions=True)`` makes it."""
        return Problem(self.req, self.supply, self.announcement, self.mode, self.x, self.policy, self.supply.all_ok,
                       self.assists)


_PROBLEM_SLOTS = slot_setters(Problem)


@dataclass
class Solution:
    """A backend's answer: the form paid, X, the activations and where each mana went.

    ``acts``: ``(class index, member index, option index)`` per activation, one
    entry per activation (a repeatable option activated twice appears twice);
    ``spend``: ``(source, type bit, destination, count)`` (keys in the module
    docstring); ``objective``: the backend's objective values, for tests; ``optimal``:
    false when a time bound stopped the search before optimality was proven;
    ``assists``: ``(kind, group index, count)`` with kind ``convoke`` or ``improvise``
    (groups of :attr:`Problem.assists`); ``delved``: graveyard cards exiled by delve;
    ``sacrifices``: ``(class, option, sacrifice part, fodder group, count)``: how many members
    of a fodder group (:attr:`Supply.fodder`) the activations of that option sacrificed;
    ``taps``: ``(class, option, tappable group, count)``: how many members of a group of
    :attr:`Supply.tappable` the activations of that option tapped as a cost; ``roles``:
    ``(member group, role, count)`` (:func:`manasolver.solver.supply.resources.member_groups`, roles as
    :func:`manasolver.solver.backends.cpsat.member_roles` lists them): how many members of
    a group play each combination of assisting, own activation, tapped and sacrificed;
    ``keep``: the keep terms the fast optimiser counted this solution with (its ``KeepTerms``,
    which no module here imports), which its payment's score reads rather than building them
    again (None: another backend, built when scored).
    A convoked creature paying a colored symbol also appears in ``spend`` with source
    ``("convoke", group)``, so hybrid symbols show the color it paid.
    """

    form: int
    x: int
    acts: list[tuple[int, int, int]]
    spend: list[tuple[SrcKey, int, DstKey, int]]
    objective: tuple[int, ...] = field(default=())
    optimal: bool = True
    assists: list[tuple[str, int, int]] = field(default_factory=list)
    delved: int = 0
    sacrifices: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    taps: list[tuple[int, int, int, int]] = field(default_factory=list)
    roles: list[tuple[int, tuple[object, ...], int]] = field(default_factory=list)
    keep: Any = field(default=None, compare=False, repr=False)


def to_payment(problem: Problem, sol: Solution) -> Payment:
    """Write a solution as the protocol's PAYMENT."""
    from manasolver.solver.payment import Choice, Payment
    supply = problem.supply
    form = problem.forms[sol.form]
    # Units produced by each (class, option, slot mask), realized per spend.
    realized: dict[tuple[int, int, int], list[int]] = {}
    counts: dict[tuple[int, int], int] = {}
    for k, _m, o in sol.acts:
        counts[(k, o)] = counts.get((k, o), 0) + 1
    spent_by_src: dict[SrcKey, list[int]] = {}
    spell_units: dict[int, list[int]] = {}
    pool_used: list[int] = []
    spent: list[int] = []  # mana that paid the spell's total (convoke is not mana, 702.51a)
    for src, bit, dst, n in sol.spend:
        if n <= 0:
            continue
        spent_by_src.setdefault(src, []).extend([bit] * n)
        if dst[0] in ("spell", "generic", "snow") and src[0] in ("pool", "act", "inst"):
            spent.extend([bit] * n)
        if src[0] == "pool":
            pool_used.extend([bit] * n)
        if dst[0] == "spell":
            spell_units.setdefault(int(dst[1]), []).extend([bit] * n)  # type: ignore[call-overload]
    floating: list[int] = []
    for (k, o), n in counts.items():
        opt: Option = supply.classes[k].options[o]
        for mask in sorted(set(opt.slots)):
            total = n * opt.slots.count(mask)
            used = list(spent_by_src.get(("act", k, o, mask), []))
            used += spent_by_src.get(("act", k, o, mask, "nonsnow"), [])  # Wild Growth on snow
            rest = [lowest_bit(mask)] * (total - len(used))
            floating.extend(rest)
            realized[(k, o, mask)] = used + rest
    if sol.roles:
        convoked, improvised, queues, tap_queues, members = _role_plan(problem, sol)
    else:
        convoked, improvised, taken = _assist_members(problem, sol)
        queues, tap_queues = {}, {}
        members = _exclusive_members(problem, sol, taken)
    # Activations in board order, each taking its slots' units in turn.
    acts: list[tuple[int, Activation]] = []
    option_of: dict[int, tuple[Option, bool]] = {}  # by id() of the activation
    cursor: dict[tuple[int, int, int], int] = {}
    for a, (k, m, o) in enumerate(sol.acts):
        cls: SourceClass = supply.classes[k]
        m = members.get(a, m)
        opt = cls.options[o]
        bits: list[int] = []
        for mask in opt.slots:
            i = cursor.get((k, o, mask), 0)
            bits.append(realized[(k, o, mask)][i])
            cursor[(k, o, mask)] = i + 1
        gone = tuple(queues[(k, o, p)].pop(0) for p in range(len(opt.sacrifice_other)))
        taps = tuple(tap_queues[(k, o)].pop(0) for _ in range(opt.tap_creatures))
        act = activation_of(cls, m, opt, mana_string(bits), gone, taps)
        option_of[id(act)] = (opt, problem.spell_ok[k][o])
        acts.append((cls.positions[m], act))
    acts.sort(key=lambda t: t[0])
    merged = sacrifices_last([a for _, a in acts])
    # Choices: a merged mask is shown as the type that paid it.
    resolved = {mask: list(units) for mask, units in spell_units.items()}
    take = {mask: 0 for mask in resolved}
    choices: list[Choice] = []
    for way in form.choices:
        if way.kind == "mana":
            if way.mask & (way.mask - 1):
                got = resolved.get(way.mask, [])
                i = take.get(way.mask, 0)
                bit = got[i] if i < len(got) else lowest_bit(way.mask)
                take[way.mask] = i + 1
                choices.append(Choice(way.symbol, mask_text(bit)))
            else:
                choices.append(Choice(way.symbol, mask_text(way.mask)))
        elif way.kind == "generic":
            choices.append(Choice(way.symbol, "{" + str(way.amount) + "}"))
        else:
            choices.append(Choice(way.symbol, "life"))
    opts = [supply.classes[k].options[o] for k, _m, o in sol.acts]
    total_text = form.total_text(sol.x, resolved)
    merged = executable_order(merged, [option_of[id(a)] for a in merged], total_text, mana_string(pool_used),
                              mana_string(floating), convoked, improvised,
                              problem.assists.graveyard[:sol.delved], spend_table_of(problem.req),
                              problem.req.state)
    return Payment(
        total=total_text,
        choices=tuple(choices),
        x=sol.x,
        activations=tuple(merged),
        pool_used=mana_string(pool_used),
        life=problem.req.ability_life + form.life + sum(o.life for o in opts),
        energy=form.energy + sum(o.energy for o in opts),
        damage=sum(o.damage for o in opts),
        floating=mana_string(floating),
        convoked=convoked,
        improvised=improvised,
        delved=problem.assists.graveyard[:sol.delved],
        extra=_spent_report(problem.policy, spent),
    )


def _spent_report(policy: Policy, spent: list[int]) -> tuple[tuple[str, object], ...]:
    """``spent`` and ``colors_spent`` (converge, sunburst, adamant), added to the PAYMENT only
    when the policy asks about colors spent, so the protocol's shape is unchanged otherwise."""
    if "max_colors_spent" not in policy.criteria and not policy.spend_color:
        return ()
    colors = [c for i, c in enumerate("WUBRG") if any(b == 1 << i for b in spent)]
    return (("spent", mana_string(spent)), ("colors_spent", colors))


def activation_of(cls: SourceClass, m: int, opt: Option, mana: str,
                  sacrificed: tuple[str, ...] = (), tapped: tuple[str, ...] = ()) -> Activation:
    """The PAYMENT activation of option ``opt`` by member ``m`` of ``cls``: a permanent's,
    or for a card in the hand (Simian Spirit Guide) ``{"hand": index, "card": name}``."""
    from manasolver.solver.payment import Activation
    if cls.hand:
        return Activation("", opt.ability, opt.costs, mana, hand=cls.hand[m], card=cls.name)
    return Activation(cls.members[m], opt.ability, opt.costs, mana, sacrificed=sacrificed, tapped=tapped)


def executable_order(acts: list[Activation], options: Sequence[tuple[Option, bool]], total: str, pool_used: str,
                     floating: str, convoked: Sequence[str] = (), improvised: Sequence[str] = (),
                     delved: Sequence[str] = (), table: SpendTable | None = None,
                     state: GameState | None = None) -> list[Activation]:
    """``acts`` (each with its option and whether its mana may pay the spell) in an order that can
    be carried out: every activation's own mana cost paid by the pool or earlier activations
    (:func:`manasolver.solver.payment_order.executable`; CR 605.3a), the order of
    :func:`order_constraints` kept, ties in the given order.  Unchanged when no activation costs
    mana.  ``table``: the payment's 609.4b table (what may pay each type), None: by type.
    ``state``: the board, for the card types of each activation's permanent (mana restricted to
    abilities of some types pays only those, CR 106.6); None: such mana pays no ability."""
    if not any(opt.mana_cost for opt, _ok in options):
        return acts
    from manasolver.solver.payment_order import Assist, Step, cost_masks, mana_bits, order_of
    widen = table.mask if table is not None and not table.identity else None
    steps = [Step(mana_bits(a.mana), cost_masks(opt.mana_cost, a.times, widen), ok, ability_scope(opt.restriction),
                  _types(state, a.permanent), snow_units(state, a.permanent, opt, a.mana),
                  opt.restriction is not None and opt.restriction.no_generic)
             for a, (opt, ok) in zip(acts, options)]
    assists = ([Assist("convoke", pid, ANY_COLOR) for pid in convoked]
               + [Assist("improvise", pid) for pid in improvised]
               + [Assist("delve", name) for name in delved])
    order = order_of(steps, total, pool_used, floating, assists, order_constraints(acts), widen)
    return [acts[i] for i in order]


def snow_units(state: GameState | None, pid: str, opt: Option, mana: str) -> tuple[bool, ...]:
    """Which units of an activation's ``mana`` are snow (CR 107.4h): all of a snow permanent's
    when none of them is triggered mana from a nonsnow source (Wild Growth), else none known."""
    perm = _on_board(state, pid)
    if perm is None or not perm.is_snow or opt.nonsnow_tail:
        return ()
    return (True,) * mana.count("{")


def _types(state: GameState | None, pid: str) -> frozenset[str]:
    """The card types of permanent ``pid`` (none for a card of the hand or without a board)."""
    perm = _on_board(state, pid)
    return frozenset(perm.types) if perm is not None else frozenset()


def _on_board(state: GameState | None, pid: str) -> Permanent | None:
    """The permanent ``pid`` of ``state``, or ``None`` for an activation of a card of the hand (a
    Spirit Guide: no permanent) or without a board (one lookup in the board's index)."""
    if state is None:
        return None
    try:
        return state.permanent(pid)
    except KeyError:
        return None


def order_constraints(acts: list[Activation]) -> list[set[int]]:
    """For each activation, the activations that must come before it: an activation sacrificing
    a permanent comes after that permanent's own activations and after the activations whose
    costs tap it (it is gone after, CR 701.21a), and one that discards the whole hand (Lion's Eye
    Diamond) after those that use cards of the hand."""
    discards = [i for i, a in enumerate(acts) if "discard your hand" in a.costs]
    before: list[set[int]] = [set() for _ in acts]
    if not discards and not any(a.sacrificed or a.tapped for a in acts):
        return before
    by_perm: dict[str, list[int]] = {}
    for i, a in enumerate(acts):
        by_perm.setdefault(a.permanent, []).append(i)
    tapping: dict[str, list[int]] = {}
    for i, a in enumerate(acts):
        for pid in a.tapped:
            tapping.setdefault(pid, []).append(i)
    for i, a in enumerate(acts):
        for pid in a.sacrificed:  # after its own activations and after being tapped for a cost
            before[i].update(j for j in by_perm.get(pid, []) + tapping.get(pid, []) if j != i)
        for pid in a.tapped:  # tapped for this cost before it sacrifices itself for mana
            for j in by_perm.get(pid, []):
                if j != i and any(c.startswith("sacrifice") for c in acts[j].costs):
                    before[j].add(i)
    for i in discards:  # the hand's cards are used before the hand is discarded
        before[i].update(j for j, a in enumerate(acts) if j != i and (
            a.hand is not None or any(pid.startswith("hand:") for pid in a.sacrificed)))
    return before


def sacrifices_last(acts: list[Activation]) -> list[Activation]:
    """Activations in an order a player can follow: board order, except as
    :func:`order_constraints` says; a stable topological order."""
    before = order_constraints(acts)
    if not any(before):
        return acts
    out: list[int] = []
    done: set[int] = set()
    while len(out) < len(acts):
        ready = next((i for i in range(len(acts)) if i not in done and before[i] <= done), None)
        if ready is None:  # pragma: no cover - the solvers never sacrifice in a cycle
            return acts
        out.append(ready)
        done.add(ready)
    return [acts[i] for i in out]


def _role_plan(problem: Problem, sol: Solution) -> tuple[
        tuple[str, ...], tuple[str, ...], dict[tuple[int, int, int], list[str]],
        dict[tuple[int, int], list[str]], dict[int, int]]:
    """Members for each role of a solution with sacrifice or tapping costs: each member group's
    members take its role counts in board order; then the assists (a group's assisting members
    first, then its members outside member groups), the ids each sacrifice part and each tapping
    option takes (per (class, option, part) and (class, option), in the order the activations
    take them), and the member each exclusive activation uses (by index into ``sol.acts``)."""
    from manasolver.solver.supply.resources import member_groups

    supply = problem.supply
    groups = member_groups(supply)
    by_role: dict[tuple[int, tuple[object, ...]], list[str]] = {}
    for u, role, n in sorted(sol.roles, key=lambda t: (t[0], repr(t[1]))):
        start = sum(len(v) for (uu, _), v in by_role.items() if uu == u)
        by_role[(u, role)] = list(groups[u].members[start:start + n])
    grouped = {m for g in groups for m in g.members}
    order: dict[int, list[str]] = {}
    assist_of = {m: g for g, grp in enumerate(problem.assists.groups) for m in grp.members}
    for (u, role), ids in sorted(by_role.items(), key=lambda t: (t[0][0], repr(t[0][1]))):
        if role == ("A",):
            order.setdefault(assist_of[ids[0]], []).extend(ids)
    for g, grp in enumerate(problem.assists.groups):
        order.setdefault(g, []).extend(m for m in grp.members if m not in grouped)
    convoked, improvised, taken = _assist_members(problem, sol, order)
    sac_left: dict[int, list[str]] = {}
    tap_left: dict[int, list[str]] = {}
    own: dict[tuple[int, int], list[int]] = {}
    for (u, role), ids in sorted(by_role.items(), key=lambda t: (t[0][0], repr(t[0][1]))):
        mg = groups[u]
        if "S" in role:
            sac_left.setdefault(mg.fodder, []).extend(ids)
        if "T" in role:
            tap_left.setdefault(mg.tappable, []).extend(ids)
        if role and isinstance(role[0], tuple):
            cls = supply.classes[mg.cls]
            own.setdefault((mg.cls, int(role[0][1])), []).extend(cls.members.index(m) for m in ids)
    for v in list(sac_left.values()) + list(tap_left.values()):
        v.sort(key=lambda m: next(p for g in groups for mm, p in zip(g.members, g.positions) if mm == m))
    queues: dict[tuple[int, int, int], list[str]] = {}
    for k, o, p, f, n in sorted(sol.sacrifices):
        queues.setdefault((k, o, p), []).extend(sac_left[f][:n])
        sac_left[f] = sac_left[f][n:]
    tap_queues: dict[tuple[int, int], list[str]] = {}
    for k, o, f, n in sorted(sol.taps):
        tap_queues.setdefault((k, o), []).extend(tap_left[f][:n])
        tap_left[f] = tap_left[f][n:]
    members: dict[int, int] = {}
    rest = _exclusive_members(problem, sol, taken)
    for a, (k, _m, o) in enumerate(sol.acts):
        if (k, o) in own:
            members[a] = own[(k, o)].pop(0)
        elif a in rest:
            members[a] = rest[a]
    return convoked, improvised, queues, tap_queues, members


def _exclusive_members(problem: Problem, sol: Solution, taken: dict[int, set[int]]) -> dict[int, int]:
    """The member each exclusive activation uses (by index into ``sol.acts``), never one that
    convoked or improvised; without assists, the solution's own numbering."""
    out: dict[int, int] = {}
    if not taken:
        return out
    supply = problem.supply
    free: dict[int, list[int]] = {}
    for a, (k, _m, o) in enumerate(sol.acts):
        cls = supply.classes[k]
        if not cls.options[o].exclusive or not taken.get(k):
            continue
        if k not in free:
            free[k] = [i for i in range(cls.count) if i not in taken[k]]
        out[a] = free[k].pop(0)
    return out


def _assist_members(problem: Problem, sol: Solution, order: dict[int, list[str]] | None = None
                    ) -> tuple[tuple[str, ...], tuple[str, ...], dict[int, set[int]]]:
    """Which permanents convoke and improvise (each group's members in board order, or in
    ``order`` when given), and per supply class the member indices they take away from its
    activations."""
    groups = problem.assists.groups
    used: dict[int, int] = {}
    picked: list[tuple[int, str, str]] = []
    taken: dict[int, set[int]] = {}
    for kind, g, n in sorted(sol.assists, key=lambda t: (t[1], t[0])):
        grp = groups[g]
        ids = order[g] if order is not None and g in order else list(grp.members)
        start = used.get(g, 0)
        for pid in ids[start:start + n]:
            picked.append((grp.positions[grp.members.index(pid)], kind, pid))
            if grp.cls >= 0:
                members = problem.supply.classes[grp.cls].members
                taken.setdefault(grp.cls, set()).add(members.index(pid))
        used[g] = start + n
    picked.sort()
    return (tuple(pid for _, kind, pid in picked if kind == "convoke"),
            tuple(pid for _, kind, pid in picked if kind == "improvise"), taken)

