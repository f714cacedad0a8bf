"""A fast exact optimiser in plain Python over the grouped board (SPEC §8).

Branch and bound over *modes* (a class of identical permanents used a certain
way: one option, or several one-mana options with identical costs merged into
one type mask) deciding how many members activate each mode, with:

* the objective as the same lexicographic vector CP-SAT minimises (the policy's
  criteria in order, then the tie-break by board position), computed exactly
  at each leaf;
* the criteria counted per activation (sacrifices, life and damage, non-lands,
  activations) and the tie-break packed as the digits of one integer
  (:data:`LINEAR`, :func:`_lin_digits`), so that one fractional relaxation (the
  cheapest units per mana, for the whole cost and for small sets of its demand
  kinds) bounds all of them lexicographically at once; ``keep_castable`` and
  ``keep_colors`` are bounded by what is already used, ``keep_castable`` only
  computed when the earlier components tie;
* a Hall-condition feasibility bound per node (chosen units plus everything
  still undecided must be able to cover the form), kept incrementally over the
  subsets of the form's demand kinds;
* a first dive along a greedy cover (:meth:`_Search._greedy_plan`), so the
  bounds bite from the start;
* a stop as soon as the chosen units cover the form (more activations can only
  be worse, except that with ``use_pool`` before ``min_waste`` and
  ``min_sources`` floating mana may be sunk into activation costs).

Activations that cost mana (filter lands, Signets) are searched in a second
pass: the first leaves them out (small demand tables, and usually the answer);
then a relaxation (:meth:`_Search._lower_vector`) drops every such mode that
can't beat that answer, and the survivors are searched with the free modes —
each survivor's class alone when the relaxation also rules out every pair.  A
cover counts only when their costs are paid by sources that cost nothing or by
the pool (then an order exists: those first); a cover that needs them to pay
one another is remembered, and if it could beat the answer found the problem
goes to CP-SAT, which models the order exactly.  Forms of the cost (hybrid and
Phyrexian choices) are searched best bound first, and skipped when their bound
can't beat the answer.

It answers only what it models exactly: exclusive options without energy
costs; policies made of ``no_sacrifice``, ``min_life``, ``keep_castable``,
``keep_colors``, ``min_waste``, ``prefer_lands``, ``min_sources``, ``use_pool``,
``min_energy`` (no caller weights, no ``spend_color``/``max_colors_spent``);
fixed X; supplies whose fields outside :data:`KNOWN_FIELDS` hold their defaults
(a kind of cost or source added later is never guessed at).  Anything else, or
a search longer than its node budget, is declined (``None``) and goes to CP-SAT.

What depends only on the board (modes, keep_castable's forms and results, the
search tables per form, the relaxation's bounds) is kept with the search object,
cached per supply (:func:`_search_for`): queries on one board reuse it.  Tests
check its optimum against CP-SAT's and the brute force's on random boards.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import Any

from manasolver.models.errors import Unsupported
from manasolver.solver.casting.announce import Form, announce
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.backends.fastopt.complement import ComplementSearch
from manasolver.solver.backends.matching import UnitKind, hall_ok, solution_from_units
from manasolver.solver.policy import keep_costs
from manasolver.solver.supply.build import Supply, restriction_pays_abilities

__all__ = ["COSTLY_NODE_BUDGET", "KNOWN_FIELDS", "MAX_COSTLY_KINDS", "NODE_BUDGET", "SUPPORTED",
           "FastOptBackend", "evaluate", "shape_known"]

#: Nodes explored before the search gives the problem to CP-SAT.
NODE_BUDGET = 1500
#: The same with activations that cost mana (Signets, filter lands): such boards are
#: usually answered faster by CP-SAT than by a long search here.
COSTLY_NODE_BUDGET = 600
#: With activations that cost mana, the most demand kinds (the cost's and the activation
#: costs') the search takes on.
MAX_COSTLY_KINDS = 6
SUPPORTED = frozenset({"no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste",
                       "prefer_lands", "min_sources", "use_pool", "min_energy"})
COLOR_BITS = (1, 2, 4, 8, 16)
#: Criteria counted per activation (sacrifices, life, non-lands, activations); with the
#: tie-break they form the digits of one integer the search bounds as a whole.
LINEAR = ("no_sacrifice", "min_life", "prefer_lands", "min_sources")
#: The base of those digits: above any one criterion's value on any board.
DIGIT_BITS = 48
DIGIT = 1 << DIGIT_BITS


def _lcm_upto(n: int) -> int:
    """The least common multiple of 1..n: exact integer per-unit costs for sizes up to n."""
    out = 1
    for k in range(2, n + 1):
        out = out * k // math.gcd(out, k)
    return out


def _lin_digits(value: int, n: int) -> list[int]:
    """``value`` as ``n`` base-:data:`DIGIT` digits, most significant first.

    Digit order is lexicographic order: a lower bound on the integer is a lexicographic
    lower bound on the criteria it packs, even when rounded up from a fraction."""
    out = [0] * n
    for j in range(n - 1, 0, -1):
        value, out[j] = divmod(value, DIGIT)
    out[0] = value
    return out


@dataclass(frozen=True, slots=True)
class _Mode:
    k: int                 # class index (-1: the pool)
    options: tuple[tuple[int, int], ...]   # (type bit or 0, option index): which option makes a type
    masks: tuple[int, ...]  # unit masks one activation adds
    snow: bool
    sac: int
    life: int               # life paid plus damage taken per activation
    ab_life: int            # life paid per activation (119.4 check)
    nonland: int
    weight: int             # tie-break weight (board position + 1)
    costs: tuple[tuple[int, int], ...] = ()  # its activation's mana cost: (mask, n); mask -2 generic
    pays_ability: bool = True  # its mana may pay an activation's mana cost


def _pays_ability(opt: Any) -> bool:
    """May this option's mana pay a mana ability's activation cost (as CP-SAT reads it)?"""
    return restriction_pays_abilities(opt.restriction)


def _cost_kinds(opt: Any) -> tuple[tuple[int, int], ...] | None:
    """An option's mana cost as ``(mask, n)`` pairs (``-2``: generic), or None if unmodelled."""
    out: dict[int, int] = {}
    for sym in opt.mana_cost.symbols:
        if sym.special:
            continue
        if sym.is_numeral:
            if sym.generic:
                out[-2] = out.get(-2, 0) + sym.generic
            continue
        if sym.phyrexian or sym.snow or sym.variable or sym.generic:
            return None
        mask = sym.colors | (32 if sym.colorless else 0)
        out[mask] = out.get(mask, 0) + 1
    return tuple(sorted(out.items()))


#: The fields of the supply model this optimiser reads.  Any other field (a kind of cost
#: or source added later: sacrificing other permanents, cards in the hand, tapping
#: other creatures, per-unit snow) must hold its default, or the problem is declined
#: and goes to CP-SAT: the search never guesses at what a new field means.
KNOWN_FIELDS = {
    "Option": frozenset({"ability", "slots", "costs", "mana_cost", "life", "energy", "damage",
                         "sacrifice", "tap", "exclusive", "repeat", "restriction",
                         "tap_creatures"}),
    "SourceClass": frozenset({"members", "positions", "options", "snow", "kind", "name",
                              "creature"}),
    "Supply": frozenset({"player", "pool", "classes", "excluded", "life", "energy", "creatures"}),
}
#: Source kinds the ``prefer_lands`` term knows (lands count 0, the others 1).
KNOWN_KINDS = frozenset({"land", "creature", "artifact", "other"})


_DEFAULTS: dict[int, tuple[Any, bool]] = {}


def _at_default(obj: Any) -> bool:
    """True when every field of ``obj`` outside :data:`KNOWN_FIELDS` holds its default
    (remembered per object: options are shared by every permanent of a card)."""
    hit = _DEFAULTS.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    ok = _fields_at_default(obj)
    if len(_DEFAULTS) > 8192:
        _DEFAULTS.clear()
    _DEFAULTS[id(obj)] = (obj, ok)
    return ok


def _fields_at_default(obj: Any) -> bool:
    """:func:`_at_default`, computed."""
    known = KNOWN_FIELDS[type(obj).__name__]
    for f in dataclasses.fields(obj):
        if f.name in known:
            continue
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            return False  # a new required field: unknown meaning
        if getattr(obj, f.name) != default:
            return False
    return True


_SHAPES: dict[int, tuple[Supply, bool]] = {}


def shape_known(sup: Supply) -> bool:
    """Does ``sup`` use only what this optimiser models (:data:`KNOWN_FIELDS`)?  Cached per
    supply object (supplies are cached per state)."""
    hit = _SHAPES.get(id(sup))
    if hit is not None and hit[0] is sup:
        return hit[1]
    ok = _at_default(sup) and all(
        _at_default(k) and k.kind in KNOWN_KINDS and all(_at_default(o) for o in k.options)
        for k in sup.classes)
    if len(_SHAPES) > 512:
        _SHAPES.clear()
    _SHAPES[id(sup)] = (sup, ok)
    return ok


@dataclass(slots=True)
class _Tables:
    """The precomputed part of one forward search (see :meth:`_Search._tables`): demand
    kinds and their subsets, what each mode adds to each subset (freely / without paying
    activation costs), activation costs per subset, the initial demand and undecided
    totals, sizes and caps, the relaxation's orders and the greedy plan."""

    kinds: list[tuple[int, bool]]
    base: list[int]
    nk: int
    subsets: int
    contrib: list[list[int]]
    contrib_r: list[list[int]]
    cost_row: list[list[int]]
    cost_total: list[int]
    need: list[int]
    size: list[int]
    caps: list[int]
    costly: bool
    undecided: list[int]
    und_total: int
    n_pool: int
    slack: int
    pool_modes: list[tuple[int, int]]
    bound_sets: list[int]
    contrib_t: dict[int, list[int]]
    reach: list[int]
    act_cost: list[int]
    scale: int
    by_unit_total: list[int]
    by_unit_set: dict[int, list[int]]
    plan: list[int]
    first_free: int


def kind_rows_masks(form: Form) -> list[tuple[int, int]]:
    """A form's demand kinds as ``(mask, count)``, snow as mask -1."""
    return list(form.demands) + ([(-1, form.snow)] if form.snow else [])


class _Search(ComplementSearch):
    """The branch and bound for one problem (see the module docstring)."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...]) -> None:
        self.p = problem
        self.sup = problem.supply
        self.criteria = criteria
        self.nodes = 0
        self.best: tuple[int, ...] | None = None
        self.best_plan: tuple[int, list[int]] | None = None
        self.uncertain: tuple[int, ...] | None = None
        self.budget = NODE_BUDGET
        self.modes: list[_Mode] = []
        self.class_cap: list[int] = [k.count for k in self.sup.classes]
        self._keep_cache: dict[tuple[int, ...], int] = {}
        self._colors_cache: dict[tuple[int, ...], int] = {}
        self._prepare_keep()
        self.lin_names = [n for n in criteria if n in LINEAR] + ["tiebreak"]
        self.place: dict[str, int] = {n: 1 << (DIGIT_BITS * (len(self.lin_names) - 1 - j))
                                      for j, n in enumerate(self.lin_names)}
        self.best_modes: list[_Mode] = []
        self.modes_all: list[_Mode] = []
        self.skip_free_only = False
        self._act_costs: dict[int, int] = {}  # by id of a mode of self.modes_all (kept alive)
        self._relax_rows: dict[tuple[int, int], Any] = {}
        self._kind_tables: dict[int | str, list[tuple[int, int, int, _Mode]]] = {}
        self._payer = 0  # set with the tables (_rows_for)
        self._lower_memo: dict[tuple[int, ...], tuple[Form, tuple[int, ...] | None]] = {}
        self._table_cache: dict[tuple[object, ...], tuple[Form, _Tables]] = {}

    def reset(self, problem: Problem) -> None:
        """Ready this search for a new query on the same board (see :func:`_search_for`)."""
        self.p = problem
        self.nodes = 0
        self.best = None
        self.best_plan = None
        self.best_modes = []
        self.uncertain = None
        self.budget = NODE_BUDGET
        self.modes = list(self.modes_all)
        self.skip_free_only = False

    # -- supply shape ---------------------------------------------------------------------
    def build_modes(self) -> bool:
        """Turn the supply into modes; False when a class is outside the modelled shape.

        One-mana options with identical costs merge into one mode of their union mask;
        every other option is a mode of its own; a class's modes share its members."""
        for bit, _n in self.sup.pool:
            self.modes.append(_Mode(-1, ((bit, -1),), (bit,), False, 0, 0, 0, 0, 0))
        self.costly = False
        for k, cls in enumerate(self.sup.classes):
            ok = self.p.spell_ok[k]
            usable = [(o, opt) for o, opt in enumerate(cls.options) if ok[o]]
            for o, opt in enumerate(cls.options):
                if not opt.exclusive or opt.energy or opt.tap_creatures:
                    return False
                if not ok[o] and _pays_ability(opt):
                    self.restricted_ability_mana = True
            if not usable:
                continue
            nonland = 0 if cls.kind == "land" else 1
            weight = cls.positions[0] + 1
            groups: dict[tuple[int, int, int, bool], list[tuple[int, Any]]] = {}
            for o, opt in usable:
                if len(opt.slots) == 1 and opt.free:
                    key = (int(opt.sacrifice), opt.life + opt.damage, opt.life, _pays_ability(opt))
                    groups.setdefault(key, []).append((o, opt))
                    continue
                costs = _cost_kinds(opt)
                if costs is None:
                    return False
                if costs:
                    self.costly = True
                self.modes.append(_Mode(k, ((0, o),), opt.slots, cls.snow, int(opt.sacrifice),
                                        opt.life + opt.damage, opt.life, nonland, weight,
                                        costs, _pays_ability(opt)))
            for (sac, life, ab_life, pays), members in sorted(groups.items()):
                mask = 0
                pick: list[tuple[int, int]] = []
                for o, opt in members:
                    for b in (1, 2, 4, 8, 16, 32):
                        if opt.slots[0] & b and not mask & b:
                            pick.append((b, o))
                    mask |= opt.slots[0]
                self.modes.append(_Mode(k, tuple(pick), (mask,), cls.snow, sac, life, ab_life,
                                        nonland, weight, (), pays))
        if self.costly and getattr(self, "restricted_ability_mana", False):
            return False  # restricted mana that could still pay activations: CP-SAT decides
        # The pool first, then modes whose activation costs mana (so that every cost is
        # known before the free sources are counted), then the rest in board order.
        self.modes.sort(key=lambda md: (md.k >= 0, not md.costs, md.weight, len(md.masks)))
        self.modes_all = list(self.modes)
        return True

    # -- keep terms ---------------------------------------------------------------------
    def _prepare_keep(self) -> None:
        sup = self.sup
        self.keep_forms: list[list[Form]] = []
        if "keep_castable" in self.criteria:
            for cost in keep_costs(self.p.policy, self.p.req.state, sup.player):
                try:
                    forms = [f for f in announce(cost, 0).forms if f.life <= sup.life and not f.energy]
                except Unsupported:
                    continue
                if forms:
                    self.keep_forms.append(forms)
        # Units each class offers to keep_castable (free, exclusive, unrestricted options).
        self.keep_units: list[list[tuple[int, bool, int]]] = []  # per class: (mask, snow, per member)
        self.keep_shape_ok = True
        for cls in sup.classes:
            opts = [o for o in cls.options if o.free and o.exclusive and o.restriction is None]
            if not opts:
                self.keep_units.append([])
            elif all(len(o.slots) == 1 for o in opts):
                m = 0
                for o in opts:
                    m |= o.slots[0]
                self.keep_units.append([(m, cls.snow, 1)])
            elif len(opts) == 1:
                self.keep_units.append([(s, cls.snow, opts[0].slots.count(s))
                                        for s in sorted(set(opts[0].slots))])
            else:
                self.keep_units.append([])
                if self.keep_forms:
                    self.keep_shape_ok = False
        # Colors some free option could still make (restricted ones too, as CP-SAT counts).
        self.class_colors = [0] * len(sup.classes)
        for k, cls in enumerate(sup.classes):
            for o in cls.options:
                if o.free:
                    self.class_colors[k] |= o.union & 31
        self.able_colors = 0
        for m in self.class_colors:
            self.able_colors |= m
        self.color_makers: list[list[int]] = []
        for bit in COLOR_BITS:
            makers = [k for k, cls in enumerate(sup.classes)
                      if any(o.free and o.union & bit for o in cls.options)]
            if makers:
                self.color_makers.append(makers)

    def keep_lost(self, used: list[int]) -> int:
        """How many keep_castable costs the members left unused can no longer pay."""
        if not self.keep_forms:
            return 0
        key = tuple(used)
        hit = self._keep_cache.get(key)
        if hit is not None:
            return hit
        units: list[UnitKind] = []
        for k, per in enumerate(self.keep_units):
            left = self.class_cap[k] - used[k]
            if left > 0:
                for m, snow, mult in per:
                    units.append((m, snow, left * mult, k, ()))
        lost = 0
        for forms in self.keep_forms:
            if not any(hall_ok(units, f, f.generic(0)) for f in forms):
                lost += 1
        self._keep_cache[key] = lost
        return lost

    def colors_lost_bound(self, decided_kept: int, gains: list[int], k_left: int) -> int:
        """A lower bound on colors lost when ``decided_kept`` (a color mask) is kept for
        sure and at most ``k_left`` more classes, with color masks ``gains``, stay untapped."""
        able = self.able_colors
        kept = decided_kept & able
        fresh = {g & able & ~kept for g in gains} - {0}
        if k_left <= 2 and len(fresh) <= 40:
            # Few units left to keep: the best one or two classes, exactly.
            best = 0
            opts = list(fresh)
            for i, a in enumerate(opts):
                best = max(best, a.bit_count())
                if k_left == 2:
                    for b in opts[i + 1:]:
                        best = max(best, (a | b).bit_count())
            return max(0, able.bit_count() - kept.bit_count() - best)
        extra = sorted((g.bit_count() for g in fresh), reverse=True)[:k_left]
        union = 0
        for g in fresh:
            union |= g
        ub = kept.bit_count() + min(sum(extra), union.bit_count())
        return max(0, able.bit_count() - ub)

    def colors_lost(self, used: list[int]) -> int:
        """How many colors no member left unused can make any more (keep_colors)."""
        key = tuple(used)
        hit = self._colors_cache.get(key)
        if hit is None:
            hit = sum(1 for makers in self.color_makers
                      if all(used[k] >= self.class_cap[k] for k in makers))
            if len(self._colors_cache) > 4096:
                self._colors_cache.clear()
            self._colors_cache[key] = hit
        return hit

    # -- search ------------------------------------------------------------------------------
    def run(self) -> bool:
        """Search every form; False when the node budget ran out.

        First without the modes whose activation costs mana (small demand tables, and
        usually the answer); then each such mode is kept only if a relaxation says a
        payment using it could beat that answer, and the survivors are searched with the
        free modes, skipping the part already searched (no costly activation).  When the
        relaxation also rules out every pair of survivors (so a better payment has at most
        one costly activation), each survivor's class is searched on its own: fewer
        demand kinds than all of them together."""
        sup = self.sup
        x = self.p.x
        assert x is not None
        every = self.modes
        forms = [(fi, f) for fi, f in enumerate(self.p.forms)
                 if f.life <= sup.life and f.energy <= sup.energy]
        self.modes = [md for md in every if not md.costs]
        self.skip_free_only = False
        if not self._pass(forms, x):
            return False
        costly = [md for md in every if md.costs]
        if costly:
            keep = [md for md in costly
                    if any(self._costly_may_win(form, x, md) for _, form in forms)]
            if keep:
                self.budget = self.nodes + COSTLY_NODE_BUDGET
                self.skip_free_only = True
                groups = [keep]
                if len({md.k for md in keep}) > 1 and not self._pairs_may_win(forms, x, keep):
                    groups = [[md for md in keep if md.k == k] for k in sorted({md.k for md in keep})]
                width = max(len(f.demands) + (1 if f.snow else 0) for _, f in forms)
                for group in groups:
                    if len({m for md in group for m, _ in md.costs}) + width > MAX_COSTLY_KINDS:
                        return False  # 2^kinds demand sets per node: CP-SAT is faster here
                for group in groups:
                    self.modes = [md for md in every if not md.costs or any(md is c for c in group)]
                    if not self._pass(forms, x):
                        return False
        self.modes = every
        return True

    def _pass(self, forms: list[tuple[int, Form]], x: int) -> bool:
        """One search of every form over :attr:`modes`."""
        before = self.best_plan
        lows: dict[int, tuple[int, ...] | None] = {}
        if len(forms) > 1:
            # Most promising forms first (Reaper King has 32); a form whose relaxation
            # can't beat the answer found is not searched.
            lows = {fi: self._lower_vector(form, x) for fi, form in forms}
            forms = sorted((ff for ff in forms if lows[ff[0]] is not None),
                           key=lambda ff: (lows[ff[0]], ff[0]))
        for fi, form in forms:
            low = lows.get(fi)
            if low is not None and self.best is not None and low >= self.best:
                continue
            if not self.skip_free_only and self._complement_fits(form, x):
                if not self._complement_form(fi, form, x):
                    return False
            elif not self._search_form(fi, form, x):
                return False
        if self.best_plan is not before:
            self.best_modes = list(self.modes)
        return True

    def act_cost(self, md: _Mode) -> int:
        """One activation of ``md`` as the linear criteria's packed integer (:data:`LINEAR`)."""
        hit = self._act_costs.get(id(md))
        if hit is not None:
            return hit
        place = self.place
        cost = (md.sac * place.get("no_sacrifice", 0) + md.life * place.get("min_life", 0)
                + md.nonland * place.get("prefer_lands", 0) + place.get("min_sources", 0)
                + md.weight)
        self._act_costs[id(md)] = cost
        return cost

    def _pairs_may_win(self, forms: list[tuple[int, Form]], x: int, keep: list[_Mode]) -> bool:
        """Could a payment with two or more costly activations (two of ``keep``) beat the
        answer found?  The relaxation of :meth:`_lower_vector` with both taken."""
        best = self.best
        if best is None:
            return True
        for a, b in itertools.combinations_with_replacement(keep, 2):
            if a.k == b.k and self.class_cap[a.k] < 2:
                continue  # one member makes one exclusive activation
            for _, form in forms:
                low = self._lower_vector(form, x, (a, b))
                if low is not None and low < best:
                    return True
        return False

    def _costly_may_win(self, form: Form, x: int, md: _Mode) -> bool:
        """Could a payment of ``form`` that activates ``md`` (an ability with a mana cost)
        beat the answer found?  (:meth:`_lower_vector`.)"""
        best = self.best
        if best is None:
            return True
        if self._vector_of(form, self.act_cost(md), [md]) >= best:
            return False  # its own activation already costs too much: no tables needed
        low = self._lower_vector(form, x, (md,))
        return low is not None and low < best

    def _vector_of(self, form: Form, lin: int, mds: list[_Mode]) -> tuple[int, ...]:
        """The criteria vector of the packed linear cost ``lin`` (plus the form's life),
        keep terms counted with the members of ``mds`` used, waste and pool at 0."""
        used = [0] * len(self.sup.classes)
        for md in mds:
            used[md.k] += 1
        digits = _lin_digits(lin + form.life * self.place.get("min_life", 0), len(self.lin_names))
        vec: list[int] = []
        for name in self.criteria:
            if name in self.place:
                vec.append(digits[self.lin_names.index(name)])
            elif name == "keep_castable":
                vec.append(self.keep_lost(used))
            elif name == "keep_colors":
                vec.append(self.colors_lost(used))
            elif name == "min_energy":
                vec.append(form.energy)
            else:  # min_waste, use_pool: at least 0
                vec.append(0)
        vec.append(digits[-1])
        return tuple(vec)

    def _lower_vector(self, form: Form, x: int,
                      mds: tuple[_Mode, ...] = ()) -> tuple[int, ...] | None:
        """A lexicographic lower bound on every payment of ``form`` (that makes the
        activations ``mds``), or None when none exists.  A relaxation: every mode gives its
        units at its cost per unit (net of its own activation cost for the total), the
        members of ``mds`` are taken; the total and each demand kind alone must be covered;
        the costs of ``mds`` need their units more; the pool pays anything."""
        key = (id(form), x)
        hit = self._relax_rows.get(key)
        if hit is None or hit[0] is not form:
            if len(self._relax_rows) > 256:
                self._relax_rows.clear()
            hit = self._relax_rows[key] = (form, self._rows_for(form))
        rows = hit[1]
        memo_key = (id(form), x) + tuple(id(md) for md in mds)
        memo = self._lower_memo.get(memo_key)
        if memo is not None and memo[0] is form:
            return memo[1]
        low = self._lower_vector_of(form, x, mds, rows)
        if len(self._lower_memo) > 4096:
            self._lower_memo.clear()
        self._lower_memo[memo_key] = (form, low)
        return low

    def _lower_vector_of(self, form: Form, x: int, mds: tuple[_Mode, ...],
                         rows: Any) -> tuple[int, ...] | None:
        """:meth:`_lower_vector`, computed."""
        scale: int = rows[0]
        total_rows: list[tuple[int, int, int, _Mode]] = rows[1]
        kind_rows: list[tuple[int, int, list[tuple[int, int, int, _Mode]]]] = rows[2]
        cap = self.class_cap
        pool = self.sup.pool_total
        taken: dict[int, int] = {}
        for md in mds:
            taken[md.k] = taken.get(md.k, 0) + 1
        if any(cap[k] < n for k, n in taken.items()):
            return None

        def relax(d: int, table: list[tuple[int, int, int, _Mode]]) -> int:
            num = 0
            for unit_cost, per, k, _m in table:
                left = cap[k] - taken.get(k, 0)
                if left <= 0:
                    continue
                take = min(d, left * per)
                num += take * unit_cost
                d -= take
                if d <= 0:
                    return -(-num // scale)
            return -1

        own = [(u, md.snow) for md in mds for u in md.masks]
        base = 0  # packed linear cost (the form's life is added by _vector_of)
        if len(mds) == 1 and not form.generic(x) and not any(
                u & mask if mask > 0 else snow for u, snow in own
                for mask, _ in kind_rows_masks(form)):
            # Its mana pays nothing of the form: only another activation's cost (a
            # payment using it activates another costly mode too, if there is one).
            md = mds[0]
            if not any(m.costs and m is not md and (m.k != md.k or cap[m.k] > 1)
                       for m in self.modes_all):
                return None
            own = []
        # Two bounds on the mana still to find: the mana paying the costs of ``mds`` charged
        # at ``payer`` per unit and every unit counted (total_rows), or those costs asked
        # for and each activation counted net of its own cost (the "net" rows).
        costs = sum(n for md in mds for _, n in md.costs)
        paid = self._payer * costs
        total = form.mana_total(x) - len(own) - pool
        extra = relax(total, total_rows) + paid if total > 0 else paid
        if total > 0 and extra < paid:
            return None
        if total + costs > 0:
            net = relax(total + costs, self._kind_tables["net"])
            if net < 0:
                return None
            extra = max(extra, net)
        for mask, n, table in kind_rows:
            d = n - sum(1 for u, snow in own if (u & mask if mask > 0 else snow))
            d -= pool if mask > 0 else 0
            if d > 0:
                got = relax(d, table)
                if got < 0:
                    return None
                extra = max(extra, got + paid)
        base += sum(self.act_cost(md) for md in mds)
        return self._vector_of(form, base + extra, list(mds))

    def _rows_for(self, form: Form) -> tuple[int, list[tuple[int, int, int, _Mode]],
                                              list[tuple[int, int, list[tuple[int, int, int, _Mode]]]]]:
        """The relaxation's tables for one form: every mode's units as
        ``(cost per unit × scale, units per activation, class, mode)``, cheapest first, for
        the total (net of activation costs) and for each demand kind."""
        modes = [m for m in self.modes_all if m.k >= 0]
        scale = _lcm_upto(max((len(m.masks) for m in modes), default=1))

        # An activation with a mana cost also spends the units paying it: at least the
        # cheapest cost per unit of any mode each (0 with floating mana), rounded down.
        payer = self._payer = 0 if self.sup.pool_total else min(
            (self.act_cost(m) // len(m.masks) for m in modes if m.masks), default=0)

        def table(per_of: Any) -> list[tuple[int, int, int, _Mode]]:
            """Rows cheapest first: a unit costs its share of the activation (1/size) plus
            the units paying the activation's cost (``payer`` each) over the units it
            gives of the kind; the mana paying activation costs is not counted as given
            (shares of one payment never overlap, so this bounds its linear cost)."""
            out = []
            for m in modes:
                per = per_of(m)
                if per <= 0:
                    continue
                paid = payer * sum(n for _, n in m.costs)
                cost = self.act_cost(m) * (scale // len(m.masks)) + paid * (scale // per)
                out.append((cost, per, m.k, m))
            out.sort(key=lambda r: r[0])
            return out

        # The tables depend on the board and a demand kind's mask, not on the form: kept
        # per mask (Reaper King's 32 forms share five masks).
        memo = self._kind_tables
        if "total" not in memo:
            memo["total"] = table(lambda m: len(m.masks))
            # Each activation's units net of its own cost, at its own cost only.
            net_rows = []
            for m in modes:
                per = len(m.masks) - sum(n for _, n in m.costs)
                if per > 0:
                    net_rows.append((self.act_cost(m) * (scale // per), per, m.k, m))
            net_rows.sort(key=lambda r: r[0])
            memo["net"] = net_rows
        kind_rows = []
        for mask, n in kind_rows_masks(form):
            if mask not in memo:
                memo[mask] = table(lambda m, mask=mask: sum(
                    1 for u in m.masks if (u & mask if mask > 0 else m.snow)))
            kind_rows.append((mask, n, memo[mask]))
        return scale, memo["total"], kind_rows

    def _tables(self, form: Form, x: int) -> _Tables:
        """What the forward search of ``form`` over :attr:`modes` precomputes, cached per
        (modes, form, X): the search object lives as long as its supply (:func:`_search_for`)."""
        key = (tuple(id(md) for md in self.modes), id(form), x)
        hit = self._table_cache.get(key)
        if hit is not None and hit[0] is form:
            return hit[1]
        modes = self.modes
        nm = len(modes)
        # Demand kinds: the form's mask demands and snow, then the masks of activation costs
        # (only mana that may pay abilities) and their generic part; ``need`` grows as
        # activations with mana costs are chosen (filter lands, Signets).
        kinds: list[tuple[int, bool]] = [(m, False) for m, _ in form.demands]
        base: list[int] = [c for _, c in form.demands]
        if form.snow:
            kinds.append((-1, False))
            base.append(form.snow)
        cost_masks = sorted({m for md in modes for m, _ in md.costs})
        for m in cost_masks:
            kinds.append((m if m != -2 else -3, True))
            base.append(0)
        nk = len(kinds)
        subsets = 1 << nk
        kind_of_cost = {m: nk - len(cost_masks) + j for j, m in enumerate(cost_masks)}

        def pays(md: _Mode, unit: int, j: int, restricted: bool) -> bool:
            m, ability = kinds[j]
            if ability:
                if not md.pays_ability or (restricted and md.costs):
                    return False
                return m == -3 or bool(unit & m)
            return (md.snow if m == -1 else bool(unit & m))

        contrib: list[list[int]] = []
        contrib_r: list[list[int]] = []
        cost_row: list[list[int]] = []
        cost_total: list[int] = []
        # Rows are shared by modes with the same per-unit demand kinds (most lands of a
        # color): the search only reads them.
        shared: dict[tuple[object, ...], tuple[list[int], list[int], list[int]]] = {}
        for md in modes:
            # Per unit, the demand kinds it can pay (as a bit set), freely and without
            # paying another activation's cost (the no-chain reading).
            ub = tuple(sum(1 << j for j in range(nk) if pays(md, u, j, False)) for u in md.masks)
            ub_r = tuple(sum(1 << j for j in range(nk) if pays(md, u, j, True)) for u in md.masks)
            cb = tuple((1 << kind_of_cost[m], n) for m, n in md.costs)
            sig = (ub, ub_r, cb)
            if sig not in shared:
                row = [0] * subsets
                row_r = [0] * subsets
                crow = [0] * subsets
                for t in range(1, subsets):
                    row[t] = sum(1 for b in ub if b & t)
                    row_r[t] = sum(1 for b in ub_r if b & t)
                    crow[t] = sum(n for b, n in cb if b & t)
                shared[sig] = (row, row_r, crow)
            row, row_r, crow = shared[sig]
            contrib.append(row)
            contrib_r.append(row_r)
            cost_row.append(crow)
            cost_total.append(sum(n for _, n in md.costs))
        need = [0] * subsets
        for t in range(1, subsets):
            need[t] = sum(base[j] for j in range(nk) if t >> j & 1)
        size = [len(md.masks) for md in modes]
        caps = [self._mode_cap(i) for i in range(nm)]
        costly = any(cost_total)
        undecided = [0] * subsets
        und_total = 0
        weight_of: dict[int, int] = {}  # caps per shared row
        for i in range(nm):
            weight_of[id(contrib[i])] = weight_of.get(id(contrib[i]), 0) + caps[i]
            und_total += size[i] * caps[i]
        for row, _r, _c in shared.values():
            w = weight_of.get(id(row), 0)
            if w:
                for t in range(1, subsets):
                    undecided[t] += row[t] * w
        n_pool = sum(1 for md in modes if md.k < 0)
        # Mana that may go unspent: at most all but one unit of each multi-mana activation.
        slack = sum((size[i] - 1) * caps[i] for i in range(nm) if size[i] > 1)
        pool_modes = [(i, md.masks[0]) for i, md in enumerate(modes) if md.k < 0]
        bound_sets = [t for t in range(1, subsets) if t.bit_count() <= 2 or t == subsets - 1]
        contrib_t = {t: [contrib[j][t] for j in range(nm)] for t in bound_sets}
        reach = [sum(1 << kk for kk in range(nk) if contrib[j][1 << kk]) for j in range(nm)]

        act_cost = [0 if md.k < 0 else self.act_cost(md) for md in modes]
        scale = _lcm_upto(max(size, default=1))  # every per-activation unit count divides it
        by_unit_total = sorted((j for j in range(nm) if modes[j].k >= 0 and caps[j] and size[j]),
                               key=lambda j: act_cost[j] * (scale // size[j]))
        by_unit_set = {t: sorted((j for j in range(nm) if modes[j].k >= 0 and caps[j]
                                  and contrib[j][t]), key=lambda j: act_cost[j] * (scale // contrib[j][t]))
                       for t in bound_sets}
        plan = self._greedy_plan(form, x, kinds, base, contrib, size, caps, act_cost)
        first_free = next((j for j in range(nm) if modes[j].k >= 0 and not modes[j].costs), nm)
        tab = _Tables(kinds, base, nk, subsets, contrib, contrib_r, cost_row, cost_total, need,
                      size, caps, costly, undecided, und_total, n_pool, slack, pool_modes,
                      bound_sets, contrib_t, reach, act_cost, scale, by_unit_total, by_unit_set,
                      plan, first_free)
        if len(self._table_cache) > 64:
            self._table_cache.clear()
        self._table_cache[key] = (form, tab)
        return tab

    def _search_form(self, fi: int, form: Form, x: int) -> bool:
        """The forward search: how many members activate each mode (module docstring)."""
        modes = self.modes
        nm = len(modes)
        tab = self._tables(form, x)
        (subsets, contrib, contrib_r, cost_row, cost_total, size, caps, costly,
         n_pool, slack, pool_modes, bound_sets, contrib_t, reach, act_cost, scale,
         by_unit_total, by_unit_set, plan, first_free) = (
            tab.subsets, tab.contrib, tab.contrib_r, tab.cost_row,
            tab.cost_total, tab.size, tab.caps, tab.costly, tab.n_pool, tab.slack,
            tab.pool_modes, tab.bound_sets, tab.contrib_t, tab.reach, tab.act_cost, tab.scale,
            tab.by_unit_total, tab.by_unit_set, tab.plan, tab.first_free)
        need = list(tab.need)
        undecided = list(tab.undecided)
        und_total = tab.und_total
        generic_spell = form.generic(x)
        pool_total = self.sup.pool_total
        sup_life = self.sup.life
        have = [0] * subsets
        have_r = [0] * subsets
        counts = [0] * nm
        used = [0] * len(self.sup.classes)
        pool_used = 0
        life_form = form.life
        spell_total = form.mana_total(x)
        state = {"sac": 0, "life": life_form, "ab_life": 0, "nonland": 0, "sources": 0,
                 "tb": 0, "units": 0, "need": spell_total, "overshoot": 0}
        def covered(table: list[int]) -> bool:
            if state["units"] < state["need"]:
                return False
            return all(need[t] <= table[t] for t in range(1, subsets))

        def pool_fits() -> bool:
            """Every chosen pool unit can be spent (pool-side Hall; with the demand side
            covered, Mendelsohn–Dulmage gives one assignment saturating both)."""
            chosen = [(counts[i], m) for i, m in pool_modes if counts[i]]
            if not chosen:
                return True
            generic = generic_spell + sum(counts[i] * n for i, md in enumerate(modes)
                                          for m, n in md.costs if m == -2)
            for sub in range(1, 1 << len(chosen)):
                units = 0
                mask = 0
                for j, (n, m) in enumerate(chosen):
                    if sub >> j & 1:
                        units += n
                        mask |= m
                room = generic + sum(c for m, c in form.demands if m & mask)
                room += sum(counts[i] * n for i, md in enumerate(modes)
                            for m, n in md.costs if m != -2 and m & mask)
                if units > room:
                    return False
            return True

        # The linear criteria (counted per activation) as digits of one integer, in the
        # policy's order, the tie-break last: a fractional relaxation of that integer is a
        # lexicographic lower bound (see _lin_digits).
        lin_names = self.lin_names
        nd = len(lin_names)
        place = self.place
        lin0 = life_form * place.get("min_life", 0)
        lin_state = [lin0]

        def relax(i: int, order: list[int], per: list[int], d: int) -> int:
            """The least linear cost of ``d`` more units from the modes from ``i`` on, each
            giving ``per[j]`` units per activation (fractional: a lower bound)."""
            num = 0  # in 1/scale units: activations × act_cost × scale / per
            for j in order:
                if j < i:
                    continue
                md = modes[j]
                left = min(caps[j], self.class_cap[md.k] - used[md.k])
                if left <= 0:
                    continue
                give = per[j]
                take = min(d, left * give)
                num += take * act_cost[j] * scale // give
                d -= take
                if d <= 0:
                    return -(-num // scale)
            return -1  # cannot be covered

        def nested(i: int, t: int, d: int, room: int) -> int:
            """The least linear cost of ``d`` more units able to pay demand set ``t`` among
            ``room`` more units in all, each unit at its share of its activation (the
            covering problem is nested, so cheapest first is exact for it: a lower bound)."""
            num = 0
            taken: dict[int, int] = {}
            want = d
            for j in by_unit_total:
                if j < i or not contrib[j][t]:
                    continue
                md = modes[j]
                left = min(caps[j], self.class_cap[md.k] - used[md.k])
                if left <= 0:
                    continue
                take = min(want, left * contrib[j][t])
                num += take * act_cost[j] * (scale // size[j])
                taken[j] = take
                want -= take
                if want <= 0:
                    break
            if want > 0:
                return -1
            want = room - d
            for j in by_unit_total:
                if want <= 0:
                    break
                if j < i:
                    continue
                md = modes[j]
                left = min(caps[j], self.class_cap[md.k] - used[md.k])
                pieces = left * size[j] - taken.get(j, 0)
                if pieces <= 0:
                    continue
                take = min(want, pieces)
                num += take * act_cost[j] * (scale // size[j])
                want -= take
            if want > 0:
                return -1
            return -(-num // scale)

        def vector(final: bool, i: int) -> tuple[int, ...] | None:
            lin = lin_state[0]
            if not final and i >= n_pool:
                room = state["need"] - state["units"]
                extra = 0
                if room > 0:
                    extra = relax(i, by_unit_total, size, room)
                    if extra < 0:
                        return None
                for t in bound_sets:
                    d = need[t] - have[t]
                    if d > 0:
                        got = relax(i, by_unit_set[t], contrib_t[t], d)
                        if got < 0:
                            return None
                        extra = max(extra, got)
                        if room > d:
                            got = nested(i, t, d, room)
                            if got < 0:
                                return None
                            extra = max(extra, got)
                lin += extra
            digits = _lin_digits(lin, nd)
            out: list[int] = []
            for name in self.criteria:
                if name in place:
                    out.append(digits[lin_names.index(name)])
                elif name == "keep_castable":
                    out.append(-1)  # computed lazily, only when earlier terms tie
                elif name == "keep_colors":
                    out.append(-2)  # computed lazily too
                elif name == "min_waste":
                    out.append(state["units"] - state["need"] if final else 0)
                elif name == "use_pool":
                    out.append(pool_total - pool_used if final or i >= n_pool else 0)
                elif name == "min_energy":
                    out.append(form.energy)
            out.append(digits[-1])
            return tuple(out)

        def no_better(vec: tuple[int, ...] | None) -> bool:
            """Is this (lower bound) vector no better than the incumbent, lexicographically?
            (``None``: nothing below this node covers the cost.)"""
            if vec is None:
                return True
            best = self.best
            if best is None:
                return False
            for j, v in enumerate(vec):
                if v < 0:
                    v = self.keep_lost(used) if v == -1 else self.colors_lost(used)
                if v != best[j]:
                    return v > best[j]
            return True

        def resolve(v: int) -> int:
            """A vector component, the lazy ones (-1, -2) computed."""
            if v >= 0:
                return v
            return self.keep_lost(used) if v == -1 else self.colors_lost(used)

        def apply(i: int, md: _Mode, d: int) -> None:
            nonlocal pool_used
            counts[i] += d
            row = contrib[i]
            row_r = contrib_r[i]
            crow = cost_row[i]
            for t in range(1, subsets):
                have[t] += row[t] * d
                have_r[t] += row_r[t] * d
                need[t] += crow[t] * d
            state["units"] += size[i] * d
            state["overshoot"] += max(0, size[i] - 1) * d
            state["need"] += cost_total[i] * d
            if md.k < 0:
                pool_used += d
                return
            used[md.k] += d
            state["sac"] += md.sac * d
            state["life"] += md.life * d
            state["ab_life"] += md.ab_life * d
            state["nonland"] += md.nonland * d
            state["sources"] += d
            state["tb"] += md.weight * d
            lin_state[0] += act_cost[i] * d

        def life_ok() -> bool:
            if state["ab_life"] > sup_life:
                return False  # 119.4
            return not (life_form and state["life"] > sup_life)

        skip = self.skip_free_only
        crit = self.criteria
        pool_sink = pool_total > 0 and "use_pool" in crit and all(
            crit.index("use_pool") < crit.index(c) for c in ("min_waste", "min_sources") if c in crit)

        def dfs(i: int) -> bool:
            nonlocal und_total
            self.nodes += 1
            if self.nodes > self.budget:
                return False
            if skip and i == first_free and not any(counts[j] for j in range(n_pool, first_free)):
                return True  # no costly activation: the first pass searched this
            uncertain = False
            if covered(have):
                if not costly or covered(have_r):
                    if pool_fits():
                        vec = vector(True, i)
                        assert vec is not None
                        if not no_better(vec):
                            self.best = tuple(resolve(v) for v in vec)
                            self.best_plan = (fi, list(counts))
                        if not (pool_sink and costly and i < first_free):
                            return True
                    elif not (costly and i < first_free):
                        return True
                    # Floating mana chosen that the cost can't absorb: an activation cost
                    # still to be decided may.
                # Covered only if activations with mana costs pay one another's costs: legal
                # or not depending on an order this search does not model.  Remember its
                # score (nothing built on it scores better); if it could beat the answer
                # found, the problem goes to CP-SAT.
                uncertain = True
                leaf = vector(True, i)
                assert leaf is not None
                vec = tuple(resolve(v) for v in leaf)
                if self.uncertain is None or vec < self.uncertain:
                    self.uncertain = vec
            units = state["units"]
            total_need = state["need"]
            if i == nm or units + und_total < total_need:
                return True
            for t in range(1, subsets):
                if need[t] > have[t] + undecided[t]:
                    return True
                # Every chosen unit is spent (up to the multi-mana overshoot): units that
                # can't pay T must fit in the demands outside T (not with mana costs to
                # come: they add demands).
                if not costly and units - have[t] > total_need - need[t] + slack:
                    return True
            if not costly and total_need + slack - units < 0:
                return True
            if no_better(vector(False, i)):
                return True
            md = modes[i]
            cap_i = caps[i]
            left = cap_i if md.k < 0 else min(cap_i, self.class_cap[md.k] - used[md.k])
            row = contrib[i]
            for t in range(1, subsets):
                undecided[t] -= row[t] * cap_i
            und_total -= size[i] * cap_i
            # Mana a multi-mana activation adds beyond what it pays may go unspent (Sol
            # Ring paying {1}), so it doesn't count against what is still needed.
            room = max(0, total_need - units + state["overshoot"])
            if uncertain:
                room = max(1, max(need[t] - have_r[t] for t in range(1, subsets)))
            net = size[i] - cost_total[i]
            hi = left if net <= 0 else min(left, -(-room // net))
            if (md.k < 0 and costly) or md.costs:
                # The pool may pay activation costs not chosen yet (decided after it); an
                # activation with a mana cost may be worth making with enough mana chosen
                # already: to turn floating mana into colors the cost needs (Mystic Gate
                # paid with {W} from the pool for {W}{U}), or, with use_pool before
                # min_waste and min_sources, only to spend floating mana on its cost.
                hi = left
            # Each activation of an optimal payment spends at least one of its units (one
            # that spends none only adds waste, sources and tie-break weight), on a demand
            # it can pay: the form's generic part or a demand kind of its own.
            # (Known only once every activation cost is: after the modes with mana costs.)
            if i >= first_free:
                hi = min(hi, need[reach[i]] + generic_spell)
            ok = True
            # Modes with mana costs (decided first, before any free source) are tried from
            # none upwards; the others from as many as are useful downwards.
            tries = list(range(hi + 1) if md.costs else range(hi, -1, -1))
            if plan[i] <= hi:  # the greedy plan first: an incumbent on the first dive
                tries.remove(plan[i])
                tries.insert(0, plan[i])
            for n in tries:
                if n:
                    apply(i, md, n)
                    if life_ok():
                        ok = dfs(i + 1)
                    apply(i, md, -n)
                else:
                    ok = dfs(i + 1)
                if not ok:
                    break
            und_total += size[i] * cap_i
            for t in range(1, subsets):
                undecided[t] += row[t] * cap_i
            return ok

        return dfs(0)

    def _greedy_plan(self, form: Form, x: int, kinds: list[tuple[int, bool]], base: list[int],
                     contrib: list[list[int]], size: list[int], caps: list[int],
                     act_cost: list[int]) -> list[int]:
        """Activations per mode of a cheap cover, tried first by the search so that its
        first leaf is a good incumbent: the pool first, then each demand kind (fewest able
        units first) from the cheapest units per mana able to pay it, then the generic
        part; modes with mana costs are left out.  Only an order: never assumed feasible."""
        modes = self.modes
        nm = len(modes)
        plan = [0] * nm
        left = list(self.class_cap)
        pool_left = {i: caps[i] for i in range(nm) if modes[i].k < 0}
        spare: dict[int, int] = {}  # units made but not yet assigned, per mode

        def avail(i: int) -> int:
            return pool_left[i] if modes[i].k < 0 else left[modes[i].k]

        def take(i: int, want: int, per: int) -> int:
            """Activate mode ``i`` for up to ``want`` units it gives ``per`` of each time."""
            got = 0
            while got < want and avail(i) > 0:
                if modes[i].k < 0:
                    pool_left[i] -= 1
                else:
                    left[modes[i].k] -= 1
                plan[i] += 1
                got += per
                spare[i] = spare.get(i, 0) + size[i] - per
            if got > want:
                spare[i] = spare.get(i, 0) + got - want
                got = want
            return got

        free = [i for i in range(nm) if not modes[i].costs and size[i]]
        spell_kinds = [j for j in range(len(kinds)) if not kinds[j][1] and base[j] > 0]
        spell_kinds.sort(key=lambda j: sum(caps[i] * contrib[i][1 << j] for i in free))
        for j in spell_kinds:
            want = base[j]
            for i in list(spare):
                if want and contrib[i][1 << j]:
                    use = min(want, spare[i])
                    spare[i] -= use
                    want -= use
            order = sorted((i for i in free if contrib[i][1 << j]),
                           key=lambda i: (modes[i].k >= 0, act_cost[i] / contrib[i][1 << j]))
            for i in order:
                if want <= 0:
                    break
                want -= take(i, want, contrib[i][1 << j])
        want = form.generic(x) - sum(spare.values())
        for i in sorted(free, key=lambda i: (modes[i].k >= 0, act_cost[i] / size[i])):
            if want <= 0:
                break
            want -= take(i, want, size[i])
        return plan

    def _mode_cap(self, i: int) -> int:
        md = self.modes[i]
        if md.k < 0:
            bit = md.masks[0]
            return dict(self.sup.pool)[bit]
        return self.class_cap[md.k]


class FastOptBackend:
    """The plain-Python exact optimiser; ``None`` when it declines (see module docstring)."""

    name = "fastopt"

    def solve(self, problem: Problem) -> Solution | bool | None:
        if problem.mode not in ("optimal", "feasible") or problem.x is None or problem.has_assists:
            return None  # convoke/improvise/delve: CP-SAT decides them with the mana
        pol = problem.policy
        if pol.weights or pol.spend_color or any(c not in SUPPORTED for c in pol.criteria):
            return None
        if not shape_known(problem.supply):
            return None
        criteria = pol.criteria if problem.mode == "optimal" else ("min_sources",)
        if _pool_may_sink(problem, criteria):
            return None
        search = _search_for(problem, criteria)
        if search is None:
            return None
        if not search.run():
            return None
        if search.uncertain is not None and (search.best is None or search.uncertain < search.best):
            return None  # a circular-looking cover might be better: CP-SAT decides
        if search.best_plan is None:
            return False
        fi, counts = search.best_plan
        units: list[UnitKind] = []
        cost_ok: list[bool] = []
        extra: list[tuple[tuple[object, ...], int, int]] = []
        forced: dict[tuple[int, int], int] = {}
        for md, n in zip(search.best_modes, counts):
            if not n:
                continue
            for m in sorted(set(md.masks)):
                units.append((m, md.snow, n * md.masks.count(m), md.k, md.options))
                cost_ok.append(md.pays_ability and not md.costs)
            if md.costs:
                o = md.options[0][1]
                forced[(md.k, o)] = n
                for m, c in md.costs:
                    extra.append((("cost", md.k, o, m), m, n * c))
        sol = solution_from_units(problem, units, fi, problem.x, tuple(extra), tuple(cost_ok),
                                  forced)
        if sol is None:  # pragma: no cover - the search checked Hall's condition
            return None
        sol.objective = search.best or ()
        return sol


_SEARCHES: dict[tuple[object, ...], tuple[Problem, _Search | None]] = {}


_BY_CONTENT: dict[tuple[object, ...], _Search | None] = {}


def _content_key(problem: Problem, criteria: tuple[str, ...]) -> tuple[object, ...]:
    """What a search depends on, by content: equal keys, interchangeable searches (the
    options are frozen values, compared by value)."""
    sup = problem.supply
    classes = tuple((c.options, c.members, c.positions, c.snow, c.kind, c.creature)
                    for c in sup.classes)
    kept = tuple(c.format() for c in keep_costs(problem.policy, problem.req.state, sup.player))
    return (classes, sup.pool, sup.life, sup.energy, sup.player, problem.spell_ok, criteria,
            kept, problem.policy.keep_castable is None)


def _search_for(problem: Problem, criteria: tuple[str, ...]) -> _Search | None:
    """A search for ``problem``, ready to run; ``None`` when its supply is outside the
    modelled shape.  What depends only on the supply, the spell's restrictions, the
    criteria and the kept costs (modes, keep_castable's forms and cache, the search
    tables) is reused across queries on one board: supplies are cached per state."""
    sup = problem.supply
    key = (id(sup), id(problem.req.state), problem.spell_ok, criteria, problem.policy.keep_castable)
    hit = _SEARCHES.get(key)
    if hit is not None and hit[0].supply is sup and hit[0].req.state is problem.req.state:
        search = hit[1]
    else:
        # The same board sent again as a new state (a client's next query, a batch line):
        # equal content — the classes' option objects (shared per card and state), members,
        # positions, pool, life, energy, kept costs — gives the same search.
        same = _content_key(problem, criteria)
        found = _BY_CONTENT.get(same)
        if found is not None:
            search = found
        else:
            search = _Search(problem, criteria)
            if not search.build_modes() or not search.keep_shape_ok:
                search = None
            if len(_BY_CONTENT) > 256:
                _BY_CONTENT.clear()
            _BY_CONTENT[same] = search
        if len(_SEARCHES) > 256:
            _SEARCHES.clear()
        _SEARCHES[key] = (problem, search)
    if search is not None:
        search.reset(problem)
    return search


def evaluate(problem: Problem, sol: Solution, criteria: tuple[str, ...]) -> tuple[int, ...]:
    """The objective vector of any backend's solution, as the fast optimiser scores it
    (for tests comparing optima)."""
    search = _Search(problem, criteria)
    used = [0] * len(problem.supply.classes)
    sac = life = nonland = tb = produced = 0
    for k, _m, o in sol.acts:
        opt = problem.supply.classes[k].options[o]
        used[k] += 1
        sac += int(opt.sacrifice)
        life += opt.life + opt.damage
        nonland += problem.supply.classes[k].kind != "land"
        tb += problem.supply.classes[k].positions[0] + 1
        produced += len(opt.slots)
    form = problem.forms[sol.form]
    spent_act = sum(n for src, _b, _d, n in sol.spend if src[0] == "act")
    pool_spent = sum(n for src, _b, _d, n in sol.spend if src[0] == "pool")
    out: list[int] = []
    for name in criteria:
        out.append({
            "no_sacrifice": sac, "min_life": life + form.life,
            "keep_castable": search.keep_lost(used) if name == "keep_castable" else 0,
            "keep_colors": search.colors_lost(used), "min_waste": produced - spent_act,
            "prefer_lands": nonland, "min_sources": len(sol.acts),
            "use_pool": problem.supply.pool_total - pool_spent, "min_energy": form.energy,
        }[name])
    out.append(tb)
    return tuple(out)


def _pool_may_sink(problem: Problem, criteria: tuple[str, ...]) -> bool:
    """Floating mana, abilities that cost mana, and ``use_pool`` ranked before ``min_waste`` or
    ``min_sources``: the best payment may spend the pool on an activation it does not need
    (a Signet's {1}), which the search's bounds do not cover (hypothesis found {B} with pool
    {W}, Bayou and Azorius Signet under (use_pool, min_sources)); CP-SAT decides those."""
    if problem.supply.pool_total <= 0 or "use_pool" not in criteria:
        return False
    if not any(c in criteria and criteria.index("use_pool") < criteria.index(c) for c in ("min_waste", "min_sources")):
        return False
    return any(opt.mana_cost for cls in problem.supply.classes for opt in cls.options)
