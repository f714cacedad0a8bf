"""An independent checker of a proposed payment (STYLE practice 5, SPEC §5 ``validate``).

:func:`validate` re-derives everything from the state and the cost: it shares no
code with the solvers (it imports nothing from ``solver.supply``,
``solver.announce``, ``solver.backends`` or ``solver.policy``) so that a bug in a
backend cannot hide behind the same bug here.  Only board semantics are shared:
:mod:`manasolver.solver.graph` for amounts and "could produce".

What it checks, each failure a readable sentence naming where it is
(``activations[2]: Forest f1 is tapped``):

* the announcement (CR 601.2b): one choice per hybrid, monocolored-hybrid and
  Phyrexian symbol, each one of that symbol's ways to pay; X as fixed by the
  request, 0 when the cost has none;
* the total (CR 601.2f, 118.7): the claimed ``total`` is the cost after the
  choices, the increases, the reductions (colored excess off generic 118.7b–d,
  hybrid reductions by either half 118.7e, Phyrexian by its color 118.7f, snow
  by generic 118.7g; every way of applying them is tried) and the minimum;
* every activation: a real permanent the player controls, an existing mana
  ability, its cost parts payable — ``{T}`` needs it untapped and, for a
  creature, not summoning sick unless it has haste (302.6); ``{Q}`` needs it
  tapped; tapped or untapped consistently across the whole payment; sacrificed
  at most once; counters there to remove; the claimed mana a legal result of the
  ability now (options, "any color", amounts, could-produce via the graph);
* the mana: pool mana used is in the pool; everything produced plus the pool
  mana used covers, exactly, the total plus the activations' own mana costs plus
  the claimed floating mana — a bipartite check (a max-flow over classes of
  units) where ``{C}`` takes only colorless, ``{S}`` only mana from a snow
  source, restricted mana only what its restriction allows (106.6) and an
  activation's mana cost only mana made *before* it (some order of the
  activations must work, 601.2g);
* life (119.4: life costs of activations need that much life; the Phyrexian life
  needs that much life left after those costs and pain-land damage), energy
  (107.14), and the totals the payment states for life, energy and damage.

Conventions read from SPEC §5 and the protocol: ``req.cost`` is the cost being paid
(the alternative cost when one was named); ``Payment.life`` is all life paid (Phyrexian
symbols and "Pay N life" costs); ``damage`` is pain-land damage; an activation's
``mana`` is everything it added over its ``times`` activations.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from manasolver.models.abilities import ManaAbility, Production, Restriction
from manasolver.models.cost import ManaCost
from manasolver.models.errors import ManasolverError
from manasolver.models.state import GameState, Permanent, Player
from manasolver.models.symbols import (
    ANY_COLOR,
    ANY_TYPE,
    C,
    ManaSymbol,
    mask_letters,
    parse_symbol,
)
from manasolver.models.text.tap_costs import tap_costs_after
from manasolver.solver.graph import (
    abilities_of,
    ability_types,
    amount_value,
    could_produce,
    reference_mask,
)
from manasolver.solver.payment import Activation, Payment
from manasolver.solver.request import PaymentRequest, SpellInfo

__all__ = ["MAX_ORDERS", "ValidationResult", "validate"]

#: Orders of mana-costing activations tried before giving up on proving one exists.
MAX_ORDERS = 5040
_TYPES = (1, 2, 4, 8, 16, 32)


@dataclass(frozen=True)
class ValidationResult:
    """``legal``: the payment is legal and complete; ``problems``: why not, one sentence each."""

    legal: bool
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        """The protocol's answer (SPEC §5 ``validate``)."""
        return {"legal": self.legal, "problems": list(self.problems)}


# -- totals (601.2f) ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Total:
    """A concrete total: generic, per-type counts (W…G, C), snow."""

    generic: int
    types: tuple[int, int, int, int, int, int]
    snow: int

    def text(self) -> str:
        parts = ["{" + str(self.generic) + "}"] if self.generic else []
        for i, n in enumerate(self.types):
            parts.extend(["{" + "WUBRGC"[i] + "}"] * n)
        parts.extend(["{S}"] * self.snow)
        return "".join(parts) or "{0}"

    @property
    def mana(self) -> int:
        return self.generic + sum(self.types) + self.snow


def _idx(bit: int) -> int:
    return _TYPES.index(bit)


def _single_type(sym: ManaSymbol) -> int:
    """The type bit of a plain colored or ``{C}`` symbol, else 0."""
    if sym.phyrexian or sym.generic or sym.snow or sym.variable or sym.special:
        return 0
    if sym.colorless and not sym.colors:
        return C
    if not sym.colorless and sym.colors.bit_count() == 1:
        return sym.colors
    return 0


def _reduction_ways(sym: ManaSymbol) -> list[tuple[str, int]] | None:
    """How a reduction symbol may apply (118.7): ('generic', n) or ('type', bit); None: unknown."""
    if sym.special or sym.variable:
        return None
    if sym.is_numeral:
        return [("generic", sym.generic)]
    if sym.snow:
        return [("generic", 1)]  # 118.7g
    ways = [("type", b) for b in _TYPES[:5] if sym.colors & b]
    if sym.colorless:
        ways.append(("type", C))
    if sym.generic and not sym.phyrexian:
        ways.append(("generic", sym.generic))  # 118.7e
    return ways  # a Phyrexian symbol reduces its color (118.7f)


def _totals(base: list[ManaSymbol], req: PaymentRequest, problems: list[str]) -> set[_Total]:
    """Every total the modifiers can give (601.2f), from announced plain symbols."""
    generic = 0
    types = [0] * 6
    snow = 0
    increases = [m for m in req.modifiers if m.kind == "increase"]
    reductions = [m for m in req.modifiers if m.kind == "reduce"]
    minimum = max((m.amount for m in req.modifiers if m.kind == "minimum"), default=0)
    inc_choice: list[list[tuple[str, int]]] = []
    for s in base:
        if s.is_numeral:
            generic += s.generic
        elif s.snow:
            snow += 1
        else:
            types[_idx(_single_type(s))] += 1
    for i, m in enumerate(increases):
        for s in m.cost.symbols if m.cost else ():
            if s.is_numeral:
                generic += s.generic
            elif s.snow:
                snow += 1
            elif _single_type(s):
                types[_idx(_single_type(s))] += 1
            elif s.is_mana and not s.variable:
                inc_choice.append([("type" if w.kind == "mana" else w.kind, w.mask or w.amount)
                                   for w in s.ways_to_pay() if w.kind in ("mana", "generic")])
            else:
                problems.append(f"modifiers[{i}]: cannot increase a cost by {s.text}")
    red_syms: list[list[tuple[str, int]]] = []
    for i, m in enumerate(reductions):
        for s in m.cost.symbols if m.cost else ():
            ways = _reduction_ways(s)
            if ways is None:
                problems.append(f"modifiers: cannot reduce a cost by {s.text}")
                continue
            red_syms.append(ways)
    out: set[_Total] = set()
    for inc in itertools.product(*inc_choice):
        g0, t0 = generic, list(types)
        for kind, val in inc:
            if kind == "generic":
                g0 += val
            else:
                t0[_idx(val)] += 1
        for red in itertools.product(*red_syms):
            g, t = g0, list(t0)
            for kind, val in red:
                if kind == "generic":
                    g = max(0, g - val)
                elif t[_idx(val)]:
                    t[_idx(val)] -= 1
                else:
                    g = max(0, g - 1)  # 118.7b-d: excess off generic
            fixed = sum(t) + snow
            if g + fixed < minimum:
                g = minimum - fixed  # Trinisphere: after every increase and reduction
            out.add(_Total(g, (t[0], t[1], t[2], t[3], t[4], t[5]), snow))
    return out


def _parse_total(text: str, problems: list[str]) -> _Total | None:
    try:
        cost = ManaCost.parse(text or "{0}", "total", allow_empty=True)
    except ManasolverError as err:
        problems.append(f"total: {err.message}")
        return None
    g = snow = 0
    t = [0] * 6
    for s in cost.symbols:
        if s.is_numeral:
            g += s.generic
        elif s.snow:
            snow += 1
        elif _single_type(s):
            t[_idx(_single_type(s))] += 1
        else:
            problems.append(f"total: {s.text} is not a symbol of a locked total (announce it first)")
            return None
    return _Total(g, (t[0], t[1], t[2], t[3], t[4], t[5]), snow)


def _announce(req: PaymentRequest, pay: Payment, problems: list[str]
              ) -> tuple[list[ManaSymbol], int, int]:
    """The announced plain symbols (601.2b), life from choices, energy from ``{E}``."""
    cost = req.cost  # already the alternative cost when one was named (solver.protocol)
    if pay.x < 0:
        problems.append(f"x: X must be 0 or more, not {pay.x}")
    if cost.variables:
        if req.x is not None and pay.x != req.x:
            problems.append(f"x: the request fixes X at {req.x}, the payment says {pay.x}")
    elif pay.x != 0:
        problems.append(f"x: the cost {cost.format()} has no X, but the payment says X={pay.x}")
    pending: dict[str, list[ManaSymbol]] = {}
    plain: list[ManaSymbol] = []
    energy = 0
    for s in cost.symbols:
        if s.special == "E":
            energy += 1
        elif s.special:
            continue
        elif s.variable:
            if pay.x > 0:
                plain.append(parse_symbol(str(pay.x)))
        elif len(s.ways_to_pay()) > 1:
            pending.setdefault(s.text, []).append(s)
        else:
            plain.append(s)
    life = 0
    for i, ch in enumerate(pay.choices):
        try:
            sym = parse_symbol(ch.symbol, f"choices[{i}].symbol")
        except ManasolverError as err:
            problems.append(f"choices[{i}]: {err.message}")
            continue
        if not pending.get(sym.text):
            problems.append(f"choices[{i}]: the cost has no (other) {sym.text} to announce")
            continue
        pending[sym.text].pop()
        ways = {w.text: w for w in sym.ways_to_pay()}
        way = ways.get(ch.paid_as.strip() if ch.paid_as.strip() == "life" else ch.paid_as.strip().upper())
        if way is None:
            problems.append(f"choices[{i}]: {sym.text} cannot be paid as {ch.paid_as!r}; "
                            f"its ways are {', '.join(ways)} (CR 107.4)")
            continue
        if way.kind == "life":
            life += way.amount
        elif way.kind == "generic":
            plain.append(parse_symbol(str(way.amount)))
        else:
            plain.append(parse_symbol("{" + mask_letters(way.mask) + "}"))
    for text, left in pending.items():
        if left:
            problems.append(f"choices: {len(left)} {text} in the cost {'has' if len(left) == 1 else 'have'} "
                            f"no announced way to pay (CR 601.2b)")
    return plain, life, energy


# -- productions ----------------------------------------------------------------------------


def _hall(units: Counter[int], slots: Sequence[int]) -> bool:
    """Can every unit (a type bit) take a distinct slot (a mask), all slots filled?"""
    if sum(units.values()) != len(slots):
        return False
    present = [b for b in _TYPES if units.get(b)]
    for r in range(1, len(present) + 1):
        for combo in itertools.combinations(present, r):
            mask = sum(combo)
            need = sum(units[b] for b in combo)
            if need > sum(1 for s in slots if s & mask):
                return False
    return True


def _production_ok(state: GameState, perm: Permanent, ab: ManaAbility, units: Counter[int], times: int,
                   cp: dict[str, int]) -> str:
    """Empty string when ``units`` is a legal result of ``times`` activations, else why not.

    With A's board-effect models, the legal results are
    :func:`manasolver.models.rules.production.activation_results` (board-read options,
    replacement effects in every order, triggered mana); otherwise the ability's own
    options and amounts."""
    try:
        from manasolver.models.rules.production import activation_results
    except ImportError:  # pragma: no cover - shipped with the package
        return _production_ok_plain(state, perm, ab, units, times, cp)
    ref = reference_mask(state, perm, ab, cp) if ab.production.reference else 0
    results = activation_results(state, perm, ab, reference_mask=ref)
    if results is None:
        return "its activation condition does not hold now (CR 602.5b)"
    ways = list(dict.fromkeys(tuple(s & ANY_TYPE for s in r.mana + r.extra) for r in results))
    if not ways:
        if not units:
            return ""
        return ("it could produce no mana now (CR 106.7)" if ab.production.reference
                else "it adds no mana now (CR 106.5, 107.1b)")
    if len(ways) > 1 and times > 8:
        return f"cannot check {times} activations of an ability with {len(ways)} results"
    for combo in itertools.combinations_with_replacement(ways, times):
        if _hall(units, [s for w in combo for s in w]):
            return ""
    if ab.production.reference:
        mask = 0
        for w in ways:
            for slot in w:
                mask |= slot
        return f"it could produce only {{{'}{'.join(mask_letters(mask))}}} now (CR 106.7)"
    shown = ", ".join("".join("{" + "/".join(mask_letters(s)) + "}" for s in w) for w in ways[:6])
    return f"it adds one of {shown}"


def _production_ok_plain(state: GameState, perm: Permanent, ab: ManaAbility, units: Counter[int], times: int,
                         cp: dict[str, int]) -> str:
    prod: Production = ab.production
    k = amount_value(prod.amount, state, perm)
    if prod.reference:
        mask = ability_types(state, perm, ab, cp)
        per = prod.reference_count * k if mask else 0
        if per == 0:
            return "" if not units else "it could produce no mana now (CR 106.7)"
        if sum(units.values()) != per * times:
            return f"it adds {per} mana per activation"
        bad = [b for b in units if not b & mask]
        if bad:
            return (f"it could produce only {{{'}{'.join(mask_letters(mask))}}} now "
                    f"(CR 106.7)")
        if times == 1 and len(units) > 1:
            return "it adds mana of one type"
        return ""
    options = [o for o in prod.options if o]
    if k == 0 or not options:
        return "" if not units else "it adds no mana now (CR 107.1b)"
    if len(options) > 1 and times > 8:
        return f"cannot check {times} activations of an ability with {len(options)} choices"
    for combo in itertools.combinations_with_replacement(options, times):
        slots = [s & ANY_TYPE for o in combo for s in o for _ in range(k)]
        if _hall(units, slots):
            return ""
    return "that is not one of the ways it adds mana"


def _mana_units(text: str, where: str, problems: list[str]) -> Counter[int] | None:
    try:
        cost = ManaCost.parse(text, where, allow_empty=True) if text.strip() else ManaCost()
    except ManasolverError as err:
        problems.append(f"{where}: {err.message}")
        return None
    out: Counter[int] = Counter()
    for s in cost.symbols:
        bit = _single_type(s)
        if bit:
            out[bit] += 1
        elif s.is_numeral and s.generic == 0:
            continue
        else:
            problems.append(f"{where}: {s.text} is not a type of mana (write {{C}} for colorless)")
            return None
    return out


# -- the matching ---------------------------------------------------------------------------


def _restriction(ab: ManaAbility, perm: Permanent) -> Restriction | None:
    """The spending restriction of an activation's mana (a chosen creature type filled in)."""
    try:
        from manasolver.models.rules.amounts import ability_restriction
    except ImportError:  # pragma: no cover
        return ab.production.restriction
    r: Restriction | None = ability_restriction(ab, perm)
    return r


def _max_flow(cap: dict[object, dict[object, int]], s: object, t: object) -> int:
    """Edmonds–Karp on a small graph of classes."""
    flow = 0
    res: dict[object, dict[object, int]] = {}
    for u, nbrs in cap.items():
        for v, c in nbrs.items():
            res.setdefault(u, {})[v] = res.get(u, {}).get(v, 0) + c
            res.setdefault(v, {}).setdefault(u, 0)
    while True:
        parent: dict[object, object] = {s: s}
        queue = [s]
        for u in queue:
            if t in parent:
                break
            for v, c in res.get(u, {}).items():
                if c > 0 and v not in parent:
                    parent[v] = u
                    queue.append(v)
        if t not in parent:
            return flow
        path = []
        v = t
        while v != s:
            path.append((parent[v], v))
            v = parent[v]
        push = min(res[u][v] for u, v in path)
        for u, v in path:
            res[u][v] -= push
            res[v][u] += push
        flow += push


@dataclass(frozen=True)
class _Unit:
    """A class of supply: ``kind`` pool/made/convoke/delve/improvise, type mask, snow,
    restriction, and the activation that made it (-1: none)."""

    kind: str
    mask: int
    snow: bool = False
    restriction: Restriction | None = None
    maker: int = -1
    source: int = -1  # an activation that named sacrificed permanents (for the order check)


@dataclass(frozen=True)
class _Demand:
    """A class of demand: ``kind`` type/snow/generic/float; ``mask`` the types it takes;
    ``payer``: the activation whose cost it is (-1: the spell's total)."""

    kind: str
    mask: int = ANY_TYPE
    payer: int = -1


def _allows_spell(r: Restriction | None, spell: SpellInfo | None, has_x: bool) -> bool:
    """Restricted mana (106.6) against the spell or ability being paid for."""
    if r is None:
        return True
    if spell is None or (r.x_only and not has_x):
        return False
    if spell.ability:
        return r.any_ability or (r.abilities and (not r.spell_types or bool(r.spell_types & spell.types)))
    if not r.spells:
        return False
    if r.spell_types and not r.spell_types & spell.types:
        return False
    if r.subtypes and not r.subtypes & spell.subtypes:
        return False
    if r.multicolored and (spell.colors & ANY_COLOR).bit_count() < 2:
        return False
    return not (r.colorless and spell.colors & ANY_COLOR)


def _allows_ability(r: Restriction | None, source: Permanent) -> bool:
    """May restricted mana pay a mana ability's cost of ``source``?"""
    if r is None:
        return True
    return r.any_ability or (r.abilities and (not r.spell_types or bool(r.spell_types & set(source.types))))


def _compatible(u: _Unit, d: _Demand, rank: dict[int, int], spell_ok: dict[_Unit, bool],
                sources: dict[int, Permanent]) -> bool:
    if d.kind == "float":
        return u.kind == "made" and u.mask == d.mask
    if u.kind in ("delve", "improvise"):
        return d.payer < 0 and d.kind == "generic"
    if u.kind == "convoke":
        return d.payer < 0 and (d.kind == "generic" or (d.kind == "type" and bool(u.mask & d.mask)
                                                         and d.mask != C))
    if d.payer >= 0:
        if u.kind == "made" and not rank.get(u.maker, -1) < rank[d.payer]:
            return False
        if not _allows_ability(u.restriction, sources[d.payer]):
            return False
    elif not spell_ok[u]:
        return False
    if d.kind == "snow":
        return u.snow
    if d.kind == "type":
        return bool(u.mask & d.mask)
    return True


def _covers(units: Counter[_Unit], demands: Counter[_Demand], rank: dict[int, int],
            spell_ok: dict[_Unit, bool], sources: dict[int, Permanent]) -> bool:
    need = sum(demands.values())
    if sum(units.values()) != need:
        return False
    cap: dict[object, dict[object, int]] = {"s": {}}
    for u, n in units.items():
        cap["s"][("u", u)] = n
        cap[("u", u)] = {("d", d): n for d in demands if _compatible(u, d, rank, spell_ok, sources)}
    for d, n in demands.items():
        cap[("d", d)] = {"t": n}
    return _max_flow(cap, "s", "t") == need


# -- the checker ----------------------------------------------------------------------------


def _who(perm: Permanent) -> str:
    return f"{perm.card.name} {perm.id}"


def validate(req: PaymentRequest, payment: Payment) -> ValidationResult:
    """Check ``payment`` against ``req`` from first principles; see the module docstring."""
    problems: list[str] = []
    try:
        return _validate(req, payment, problems)
    except ManasolverError as err:
        problems.append(f"{err.where or 'payment'}: {err.message}")
        return ValidationResult(False, problems)


def _validate(req: PaymentRequest, pay: Payment, problems: list[str]) -> ValidationResult:
    state = req.state
    try:
        player: Player = state.player(req.player)
    except KeyError:
        return ValidationResult(False, [f"player: there is no player named {req.player!r}"])
    me = player.name

    # 601.2b and 601.2f.
    plain, choice_life, cost_energy = _announce(req, pay, problems)
    totals = _totals(plain, req, problems)
    claimed = _parse_total(pay.total, problems)
    if claimed is not None and totals and claimed not in totals:
        expect = " or ".join(sorted(t.text() for t in totals)[:4])
        problems.append(f"total: {claimed.text()} is not the total cost after the choices and modifiers "
                        f"(CR 601.2f, 118.7): expected {expect}")
    total = claimed if claimed is not None else (min(totals, key=_Total.text) if totals else None)
    has_x = bool(req.cost.variables)

    # Activations.
    cp: dict[str, int] | None = None
    by_id = {p.id: p for p in state.battlefield}
    taps: Counter[str] = Counter()
    untaps: Counter[str] = Counter()
    first_use: dict[str, int] = {}
    sac_self: Counter[str] = Counter()
    sac_other: list[tuple[int, str]] = []
    named_sac: list[tuple[int, str, str]] = []
    named_taps: list[tuple[int, tuple[str, ...], str]] = []
    split_choices: list[list[Counter[_Unit]]] = []  # activations whose snow units are ambiguous
    anon_taps: list[tuple[int, tuple[str, ...]]] = []
    counters: dict[tuple[str, str], int] = {}
    life_costs = energy_costs = damage = 0
    units: Counter[_Unit] = Counter()
    demands: Counter[_Demand] = Counter()
    sources: dict[int, Permanent] = {}
    costly: list[int] = []
    # Caches for big boards: many activations share an ability and a mana text.
    parts_cache: dict[object, list[str]] = {}
    units_cache: dict[str, Counter[int]] = {}
    ok_cache: dict[tuple[object, str, int], str] = {}
    exiled: set[int] = set()
    # The card being cast is on the stack (601.2a), not in the hand: one copy fewer to exile.
    cast = (req.spell.card.name.lower() if req.spell is not None and req.spell.card is not None
            and not req.spell.ability else "")
    in_hand = {cast: sum(1 for c in player.hand if c.name.lower() == cast) - 1} if cast else {}
    for i, act in enumerate(pay.activations):
        where = f"activations[{i}]"
        if act.hand is not None:
            _check_hand_activation(where, act, player, exiled, units, problems, in_hand)
            continue
        perm = by_id.get(act.permanent)
        if perm is None:
            problems.append(f"{where}: there is no permanent {act.permanent!r} on the battlefield")
            continue
        if perm.controller != me:
            problems.append(f"{where}: {_who(perm)} is controlled by {perm.controller}, not {me}")
            continue
        abilities = abilities_of(state, perm)  # effective: Blood Moon, Urborg, granted (613)
        # Abilities whose cost taps other permanents, which the parser leaves unread (Heritage
        # Druid, Urza), come after them (models/text/tap_costs.py).
        tapping = tap_costs_after(perm.card, len(abilities)) if perm.card.unsupported else ()
        if not 0 <= act.ability < len(abilities) + len(tapping):
            problems.append(f"{where}: {_who(perm)} has no mana ability {act.ability} "
                            f"(it has {len(abilities) + len(tapping)})")
            continue
        if act.times < 1:
            problems.append(f"{where}: times must be 1 or more, not {act.times}")
            continue
        n = act.times
        if act.ability < len(abilities):
            ab = abilities[act.ability]
            tap_types: tuple[str, ...] = ("creature",)
            tap_n = ab.cost.tap_creatures
            expected_parts = parts_cache.get(ab.cost)
            if expected_parts is None:
                expected_parts = parts_cache[ab.cost] = ab.cost.parts()
        else:
            reading = tapping[act.ability - len(abilities)]
            ab, tap_types, tap_n = reading.ability, reading.types, reading.count
            expected_parts = list(reading.parts)
        cost = ab.cost
        first_use.setdefault(perm.id, i)
        if list(act.costs) != expected_parts and sorted(act.costs) != sorted(expected_parts):
            problems.append(f"{where}: costs {list(act.costs)} are not the ability's costs {expected_parts}")
        sick = perm.sick and not perm.has_haste and perm.is_creature
        if (cost.tap or cost.untap) and sick:
            what = "{T}" if cost.tap else "{Q}"
            problems.append(f"{where}: {_who(perm)} is a creature that has not been under {me}'s control "
                            f"since the turn began, so it cannot pay {what} (CR 302.6)")
        if cost.tap and cost.untap:
            problems.append(f"{where}: {_who(perm)} cannot both tap and untap in one cost")
        taps[perm.id] += n if cost.tap else 0
        untaps[perm.id] += n if cost.untap else 0
        if cost.sacrifice_self:
            sac_self[perm.id] += n
        if act.sacrificed:
            if len(act.sacrificed) != len(cost.sacrifice) * n:
                problems.append(f"{where}: it names {len(act.sacrificed)} sacrificed permanents, but "
                                f"its cost sacrifices {len(cost.sacrifice) * n}")
            whats = [what for _ in range(n) for what in cost.sacrifice]
            named_sac.extend((i, what, pid) for what, pid in zip(whats, act.sacrificed))
        else:
            sac_other.extend((i, what) for what in cost.sacrifice for _ in range(n))
        if tap_n and act.tapped:
            if len(act.tapped) != tap_n * n:
                problems.append(f"{where}: it names {len(act.tapped)} tapped permanents, but its cost "
                                f"taps {tap_n * n}")
            named_taps.extend((i, tap_types, pid) for pid in act.tapped)
        elif tap_n:
            anon_taps.extend((i, tap_types) for _ in range(tap_n * n))
        for kind, k in cost.remove_counters:
            counters[(perm.id, kind)] = counters.get((perm.id, kind), 0) + k * n
        life_costs += cost.life * n
        energy_costs += cost.energy * n
        damage += ab.damage * n
        # The mana it claims.
        made = units_cache.get(act.mana)
        if made is None:
            made = _mana_units(act.mana, f"{where}.mana", problems)
            if made is not None:
                units_cache[act.mana] = made
        if made is not None:
            if cp is None:
                cp = could_produce(state, strict=False)
            plain_ab = ab.production.amount is None and not ab.production.reference
            key = (ab, act.mana, n)
            why = ok_cache.get(key) if plain_ab else None
            if why is None:
                why = _production_ok(state, perm, ab, made, n, cp)
                if plain_ab:
                    ok_cache[key] = why
            if why:
                problems.append(f"{where}: {_who(perm)} cannot add {act.mana or 'nothing'}: {why}")
            snow = perm.is_snow
            # Only mana of activations that cost mana needs its maker (for the order check);
            # the rest is grouped by class so the flow stays small on big boards.
            maker = i if cost.mana else -1
            restriction = _restriction(ab, perm)
            source = i if cost.sacrifice and act.sacrificed else -1
            splits = _snow_splits(state, perm, ab, made, n, cp) if snow and not why else None
            if splits is not None and len(splits) != 1:
                if not splits:
                    problems.append(f"{where}: {_who(perm)}: cannot tell its snow mana from the "
                                    f"triggered mana of {act.times} activations")
                split_choices.append([Counter({_Unit("made", b, sn, restriction, maker, source): k
                                               for (b, sn), k in sp.items()}) for sp in splits])
                made = Counter()
            elif splits is not None:  # Wild Growth's {G} on a snow land is not snow (107.4h)
                for (bit, sn), k in splits[0].items():
                    units[_Unit("made", bit, sn, restriction, maker, source)] += k
                made = Counter()
            for bit, k in made.items():
                units[_Unit("made", bit, snow, restriction, maker, source)] += k
        # Its mana cost, paid from mana made before it.
        if cost.mana:
            sources[i] = perm
            costly.append(i)
            for s in cost.mana.symbols:
                if s.special:
                    continue
                if s.variable or s.phyrexian or (s.generic and not s.is_numeral):
                    problems.append(f"{where}: an activation cost of {s.text} is not supported")
                    continue
                if s.is_numeral:
                    demands[_Demand("generic", ANY_TYPE, i)] += s.generic * n
                elif s.snow:
                    demands[_Demand("snow", ANY_TYPE, i)] += n
                else:
                    demands[_Demand("type", s.colors | (C if s.colorless else 0), i)] += n

    # Permanents: tapped and untapped consistently, sacrificed at most once, counters there.
    convoked = list(pay.convoked)
    improvised = list(pay.improvised)
    if convoked and not req.convoke:
        problems.append("convoked: the request does not allow convoke")
    if improvised and not req.improvise:
        problems.append("improvised: the request does not allow improvise")
    if pay.delved and not req.delve:
        problems.append("delved: the request does not allow delve")
    extra_taps: Counter[str] = Counter()
    for label, ids, need in (("convoked", convoked, "creature"), ("improvised", improvised, "artifact")):
        for j, pid in enumerate(ids):
            perm = by_id.get(pid)
            if perm is None or perm.controller != me:
                problems.append(f"{label}[{j}]: {pid!r} is not a permanent {me} controls")
                continue
            if need not in perm.types:
                problems.append(f"{label}[{j}]: {_who(perm)} is not an {need}" if need[0] == "a"
                                else f"{label}[{j}]: {_who(perm)} is not a {need}")
                continue
            extra_taps[pid] += 1
            if sac_self[pid]:
                problems.append(f"{label}[{j}]: {_who(perm)} was sacrificed for mana (CR 601.2g)")
            unit_mask = perm.card.colors & ANY_COLOR if label == "convoked" else 0
            units[_Unit("convoke" if label == "convoked" else "improvise", unit_mask)] += 1
    cost_taps = _check_named_taps(state, me, named_taps, problems)
    for pid in set(taps) | set(untaps) | set(extra_taps) | set(cost_taps):
        perm = by_id[pid]
        t, q = taps[pid] + extra_taps[pid] + cost_taps[pid], untaps[pid]
        i = first_use.get(pid, -1)
        where = f"activations[{i}]" if i >= 0 else "convoked/improvised"
        if perm.tapped:
            if t > q:
                problems.append(f"{where}: {_who(perm)} is tapped (CR 107.5)" if q == 0 else
                                f"{where}: {_who(perm)} would be tapped {t} times but untapped only {q}")
            elif q > t + 1:
                problems.append(f"{where}: {_who(perm)} would be untapped {q} times but tapped only {t} "
                                f"(CR 107.6)")
        else:
            if q > t:
                problems.append(f"{where}: {_who(perm)} is untapped, so it cannot pay {{Q}} (CR 107.6)"
                                if t == 0 else f"{where}: {_who(perm)} would be untapped more often "
                                f"than tapped")
            elif t > q + 1:
                problems.append(f"{where}: {_who(perm)} would be tapped {t} times (CR 107.5)")
    for pid, k in sac_self.items():
        if k > 1:
            problems.append(f"activations[{first_use[pid]}]: {_who(by_id[pid])} is sacrificed {k} times")
    for (pid, kind), k in counters.items():
        have = by_id[pid].counter(kind)
        if have < k:
            problems.append(f"activations[{first_use[pid]}]: {_who(by_id[pid])} has {have} {kind} "
                            f"counter{'s' if have != 1 else ''}, {k} removed (CR 118.3)")
    # The source of the ability being paid for, when its cost sacrifices it (Mind Stone), is
    # sacrificed in 601.2h: no mana ability's cost may sacrifice it first.
    act_src = req.activation.permanent if req.activation is not None else None
    act_cost = req.activation.ability.cost if req.activation is not None else None
    if act_src is not None and act_cost is not None and act_cost.sacrifice_self:
        sac_self[act_src.id] += 1
        if sac_self[act_src.id] > 1:
            problems.append(f"activations[{first_use[act_src.id]}]: {_who(act_src)} is sacrificed for "
                            f"mana and for the ability being paid for")
        for i, _what, pid in named_sac:
            if pid == act_src.id:
                problems.append(f"activations[{i}]: {_who(act_src)} is sacrificed for the ability being "
                                f"paid for (CR 602.2b, 601.2h), so no other cost can sacrifice it")
    sacrificed = _check_named_sacrifices(state, me, named_sac, sac_self, extra_taps, problems)
    after = _sacrifice_order(pay, named_sac, costly, problems)
    for i in after:  # its mana comes after the sacrificed permanent's mana-costing activations
        for u in [u for u in units if u.kind == "made" and u.maker == -1 and u.source == i]:
            units[_Unit("made", u.mask, u.snow, u.restriction, i, i)] += units.pop(u)
        costly.append(i)
        sources.setdefault(i, by_id[pay.activations[i].permanent])
    _check_other_costs(state, me, sac_other, anon_taps, sac_self + sacrificed, taps,
                       extra_taps + cost_taps, problems)

    # Delve: cards from the graveyard, generic only.
    grave = Counter(c.name.lower() for c in player.graveyard)
    for j, name in enumerate(pay.delved):
        lname = name.lower()
        if grave[lname] <= 0:
            problems.append(f"delved[{j}]: no (other) card named {name!r} in {me}'s graveyard")
            continue
        grave[lname] -= 1
        units[_Unit("delve", 0)] += 1

    # Pool mana used.
    pool: Counter[int] = Counter()
    for s in player.pool.symbols:
        if s.is_numeral:
            pool[C] += s.generic
        elif _single_type(s):
            pool[_single_type(s)] += 1
    used = _mana_units(pay.pool_used, "pool_used", problems)
    if used is not None:
        for bit, k in used.items():
            if pool[bit] < k:
                problems.append(f"pool_used: {me}'s pool has {pool[bit]} {{{mask_letters(bit)}}}, "
                                f"{k} used")
            units[_Unit("pool", bit)] += k

    # Life, energy, damage (119.4, 107.14, 118.3).
    if life_costs > player.life:
        problems.append(f"life: the activations cost {life_costs} life but player {me} has "
                        f"{player.life} (CR 119.4)")
    left = player.life - life_costs - damage
    if choice_life and left < choice_life:
        problems.append(f"life: paying {choice_life} life for the cost needs {choice_life} life, but {me} "
                        f"has {left} after the activations' costs and damage (CR 119.4)")
    if pay.life != choice_life + life_costs:
        problems.append(f"life: the payment says {pay.life} life, but it pays {choice_life + life_costs}")
    energy = cost_energy + energy_costs
    if energy > player.energy:
        problems.append(f"energy: it pays {energy} energy but player {me} has {player.energy} (CR 107.14)")
    if pay.energy != energy:
        problems.append(f"energy: the payment says {pay.energy} energy, but it pays {energy}")
    if pay.damage != damage:
        problems.append(f"damage: the payment says {pay.damage} damage, but the sources deal {damage}")

    # The matching of mana to symbols.
    floating = _mana_units(pay.floating, "floating", problems)
    if total is not None and floating is not None:
        if total.generic:
            demands[_Demand("generic")] += total.generic
        for k, count in enumerate(total.types):
            if count:
                demands[_Demand("type", _TYPES[k])] += count
        if total.snow:
            demands[_Demand("snow")] += total.snow
        for bit, k in floating.items():
            demands[_Demand("float", bit)] += k
        first: list[str] | None = None
        for picks in itertools.islice(itertools.product(*split_choices), MAX_ORDERS):
            trial = Counter(units)
            for pick in picks:
                trial.update(pick)
            found: list[str] = []
            _check_cover(trial, demands, costly, pay, req.spell, has_x, sources, found, after)
            if not found:
                first = []
                break
            if first is None:
                first = found
        problems.extend(first or [])
    return ValidationResult(not problems, problems)


def _snow_splits(state: GameState, perm: Permanent, ab: ManaAbility, made: Counter[int], times: int,
                 cp: dict[str, int]) -> list[Counter[tuple[int, bool]]] | None:
    """For a snow permanent whose activation also adds triggered mana (Wild Growth, Fertile
    Ground, Mana Flare: their source is the nonsnow Aura or enchantment, CR 107.4h, 605.1b):
    the distinct ways the claimed mana ``made`` splits into the ability's own (snow) mana and
    the triggered (nonsnow) mana, as ``(type bit, snow)`` counts; None when no triggered mana
    is involved (then all of it is snow); an empty list for several activations at once."""
    from manasolver.models.rules.production import activation_results

    ref = reference_mask(state, perm, ab, cp) if ab.production.reference else 0
    results = activation_results(state, perm, ab, reference_mask=ref) or ()
    if not any(r.extra for r in results):
        return None
    if times != 1:
        return []
    out: list[Counter[tuple[int, bool]]] = []
    for r in results:
        for own in itertools.product(*([b for b in _TYPES if s & b] for s in r.mana)):
            mine = Counter(own)
            rest = made - mine
            if mine - made or sum(rest.values()) != len(r.extra) or not _hall(rest, list(r.extra)):
                continue
            split: Counter[tuple[int, bool]] = Counter({(b, True): k for b, k in mine.items()})
            split.update({(b, False): k for b, k in rest.items()})
            if split not in out:
                out.append(split)
    return out


def _greedy_order(units: Counter[_Unit], demands: Counter[_Demand], costly: list[int]) -> list[int] | None:
    """A likely order of the activations that cost mana (filter-land chains): repeatedly the
    first one whose cost the mana made so far can pay, narrowest demands first.  Only a
    candidate: :func:`_covers` decides; the permutations remain the fallback."""
    available: Counter[int] = Counter()
    for u, n in units.items():
        if u.maker < 0:
            available[u.mask] += n
    left = list(costly)
    order: list[int] = []
    while left:
        for i in left:
            need = sorted(((d.mask, n) for d, n in demands.items() if d.payer == i),
                          key=lambda mn: bin(mn[0]).count("1"))
            trial = Counter(available)
            ok = True
            for mask, n in need:
                for have in sorted(trial, key=lambda m: bin(m).count("1")):
                    if not n:
                        break
                    if have & mask:
                        take = min(n, trial[have])
                        trial[have] -= take
                        n -= take
                if n:
                    ok = False
                    break
            if ok:
                available = +trial
                for u, k in units.items():
                    if u.maker == i:
                        available[u.mask] += k
                order.append(i)
                left.remove(i)
                break
        else:
            return None
    return order


def _check_cover(units: Counter[_Unit], demands: Counter[_Demand], costly: list[int], pay: Payment,
                 spell: SpellInfo | None, has_x: bool, sources: dict[int, Permanent],
                 problems: list[str], after: dict[int, set[int]] | None = None) -> None:
    supply = sum(units.values())
    need = sum(demands.values())
    if supply != need:
        made = sum(n for u, n in units.items() if u.kind in ("made", "pool"))
        problems.append(f"mana: {made} mana is available (produced and pool used) and {supply - made} "
                        f"paid otherwise, but the total, the activations' mana costs and the floating "
                        f"mana account for {need}")
        return
    spell_ok = {u: _allows_spell(u.restriction, spell, has_x) for u in units}
    seen: set[tuple[object, ...]] = set()
    after = after or {}

    def follows(rank: dict[int, int]) -> bool:
        return all(rank[j] < rank[i] for i, js in after.items() for j in js)

    greedy = _greedy_order(units, demands, costly)
    if greedy is not None:
        rank0 = {i: k for k, i in enumerate(greedy)}
        if follows(rank0) and _covers(units, demands, rank0, spell_ok, sources):
            return
    orders = itertools.permutations(costly)
    for count, order in enumerate(orders):
        if count >= MAX_ORDERS:
            problems.append(f"mana: could not find an order for {len(costly)} activations with mana costs "
                            f"within {MAX_ORDERS} tries")
            return
        sig = tuple((pay.activations[i].permanent, pay.activations[i].mana, pay.activations[i].sacrificed)
                    for i in order)
        if sig in seen and len(costly) > 1:
            continue
        seen.add(sig)
        rank = {i: k for k, i in enumerate(order)}
        if follows(rank) and _covers(units, demands, rank, spell_ok, sources):
            return
    if any(not ok for ok in spell_ok.values()):
        problems.append("mana: the mana cannot pay the total exactly: restricted mana "
                        "(CR 106.6) cannot pay for this spell")
    else:
        problems.append("mana: the mana produced and used cannot pay the total, the activations' mana "
                        "costs and the floating mana exactly ({C} takes only colorless, {S} only snow "
                        "mana, an activation's cost only mana made before it)")


def _check_hand_activation(where: str, act: Activation, player: Player, exiled: set[int],
                           units: Counter[_Unit], problems: list[str], in_hand: dict[str, int]) -> None:
    """An ability activated from the hand (Simian Spirit Guide, CR 602.2a): the card is at that
    index of the hand, has that ability, is exiled once (it is gone after), and adds what the
    ability says."""
    from manasolver.models.text.hand import HAND_COST, hand_abilities

    idx = act.hand
    assert idx is not None
    if not 0 <= idx < len(player.hand):
        problems.append(f"{where}: {player.name}'s hand has no card {idx}")
        return
    card = player.hand[idx]
    if act.card and act.card.lower() != card.name.lower():
        problems.append(f"{where}: card {idx} of {player.name}'s hand is {card.name}, not {act.card}")
        return
    abilities = hand_abilities(card)
    if not 0 <= act.ability < len(abilities):
        problems.append(f"{where}: {card.name} has no mana ability {act.ability} that works from the hand")
        return
    if act.times != 1 or idx in exiled:
        problems.append(f"{where}: {card.name} (hand {idx}) is exiled more than once")
        return
    exiled.add(idx)
    name = card.name.lower()
    if name in in_hand:
        if in_hand[name] <= 0:
            problems.append(f"{where}: {card.name} is the card being cast, on the stack and no longer "
                            f"in the hand to exile (CR 601.2a)")
        in_hand[name] -= 1
    if list(act.costs) != [HAND_COST]:
        problems.append(f"{where}: costs {list(act.costs)} are not the ability's costs {[HAND_COST]}")
    made = _mana_units(act.mana, f"{where}.mana", problems)
    if made is None:
        return
    got = sorted(b for b, n in made.items() for _ in range(n))
    options = abilities[act.ability].production.options
    if not any(len(o) == len(got) and any(all(b & s for b, s in zip(got, perm_slots))
                                          for perm_slots in itertools.permutations(o))
               for o in options):
        problems.append(f"{where}: {card.name} cannot add {act.mana or 'nothing'}")
        return
    snow = "snow" in card.type_line.supertypes
    for bit, k in made.items():
        units[_Unit("made", bit, snow)] += k


def _unmatched(cands: list[list[str]]) -> list[int]:
    """The costs (indices into ``cands``, each a list of the permanent ids that could pay it)
    left without a distinct permanent by a maximum matching (augmenting paths; CR 118.10: one
    permanent pays one cost)."""
    owner: dict[str, int] = {}

    def augment(k: int, seen: set[str]) -> bool:
        for pid in cands[k]:
            if pid in seen:
                continue
            seen.add(pid)
            if pid not in owner or augment(owner[pid], seen):
                owner[pid] = k
                return True
        return False

    return [k for k in range(len(cands)) if not augment(k, set())]


def _is_a(perm: Permanent, what: str) -> bool:
    """Does ``perm`` have the card type, subtype or supertype ``what`` (lower case)?"""
    from manasolver.models.card import CARD_TYPES
    return what in perm.types if what in CARD_TYPES else perm.card.type_line.has(what)


def _check_named_sacrifices(state: GameState, me: str, named: list[tuple[int, str, str]],
                            sac_self: Counter[str], extra_taps: Counter[str],
                            problems: list[str]) -> Counter[str]:
    """The permanents an activation says it sacrificed ("sacrificed": [...]): each one the
    player controls, of the type the cost names, sacrificed once in the whole payment (by an
    Altar or by its own ability), and not convoked or improvised (601.2h comes after the mana
    abilities of 601.2g, when it is gone).  Returns how often each was named."""
    by_id = {p.id: p for p in state.battlefield}
    seen: Counter[str] = Counter()
    for i, what, pid in named:
        where = f"activations[{i}]"
        perm = by_id.get(pid)
        if perm is None or perm.controller != me:
            problems.append(f"{where}: {pid!r} is not a permanent {me} controls, so it cannot be "
                            f"sacrificed (CR 701.21a)")
            continue
        if not _is_a(perm, what):
            problems.append(f"{where}: {_who(perm)} is not a {what}, so it cannot pay "
                            f"\"sacrifice a {what}\"")
        seen[pid] += 1
        if seen[pid] == 2 or (seen[pid] == 1 and sac_self[pid]):
            problems.append(f"{where}: {_who(perm)} is sacrificed more than once (CR 701.21a)")
        if seen[pid] == 1 and extra_taps[pid]:
            problems.append(f"{where}: {_who(perm)} was sacrificed for mana, so it cannot convoke or "
                            f"improvise afterwards (CR 601.2g-h)")
    return seen


def _sacrifice_order(pay: Payment, named: list[tuple[int, str, str]], costly: list[int],
                     problems: list[str]) -> dict[int, set[int]]:
    """An activation that sacrifices a permanent comes after that permanent's own activations
    (it is gone afterwards): such orders must not be circular.  Returns, per sacrificing
    activation, the mana-costing activations it must follow (the mana check orders them)."""
    if not named:
        return {}
    acts = pay.activations
    by_perm: dict[str, list[int]] = {}
    for j, a in enumerate(acts):
        by_perm.setdefault(a.permanent, []).append(j)
    before: dict[int, set[int]] = {}
    for i, _what, pid in named:
        before.setdefault(i, set()).update(j for j in by_perm.get(pid, []) if j != i)
    # Kahn's algorithm over the activations involved.
    nodes = set(before) | {j for js in before.values() for j in js}
    done: set[int] = set()
    while True:
        ready = [v for v in nodes - done if before.get(v, set()) <= done]
        if not ready:
            break
        done.update(ready)
    if done != nodes:
        stuck = sorted(nodes - done)
        problems.append(f"activations[{stuck[0]}]: the sacrifices are circular: each of activations "
                        f"{stuck} sacrifices a permanent whose activation must come first")
        return {}
    costly_set = set(costly)
    out: dict[int, set[int]] = {}
    for i in before:
        need = _closure(i, before) & costly_set
        if need and i not in costly_set:
            out[i] = need
    for i in out:  # and after the sacrificing activations it follows that are ordered too
        out[i] |= _closure(i, before) & set(out)
    return out


def _closure(i: int, before: dict[int, set[int]]) -> set[int]:
    """Every activation that must come before ``i`` (transitively)."""
    out: set[int] = set()
    stack = list(before.get(i, ()))
    while stack:
        j = stack.pop()
        if j not in out:
            out.add(j)
            stack.extend(before.get(j, ()))
    return out


def _check_named_taps(state: GameState, me: str, named: list[tuple[int, tuple[str, ...], str]],
                      problems: list[str]) -> Counter[str]:
    """The permanents an activation says its cost tapped ("tapped": [...]; Springleaf Drum,
    Heritage Druid): each one the player controls with one of the types the cost names.
    Returns how often each was tapped, for the tapped/untapped consistency check (an
    untapped permanent taps once; summoning sickness does not matter, CR 302.6)."""
    by_id = {p.id: p for p in state.battlefield}
    out: Counter[str] = Counter()
    for i, types, pid in named:
        where = f"activations[{i}]"
        perm = by_id.get(pid)
        if perm is None or perm.controller != me:
            problems.append(f"{where}: {pid!r} is not a permanent {me} controls, so its cost cannot "
                            f"tap it")
            continue
        if not any(_is_a(perm, t) for t in types):
            problems.append(f"{where}: {_who(perm)} is not {' or '.join(types)}, so its cost cannot "
                            f"tap it")
            continue
        out[pid] += 1
    return out


def _check_other_costs(state: GameState, me: str, sac_other: list[tuple[int, str]],
                       tap_others: list[tuple[int, tuple[str, ...]]],
                       sac_self: Counter[str], taps: Counter[str], extra_taps: Counter[str],
                       problems: list[str]) -> None:
    """"Sacrifice a creature" and "tap an untapped creature you control" costs: enough
    distinct permanents must exist (118.10: one permanent pays one cost)."""
    mine = [p for p in state.battlefield if p.controller == me]
    if sac_other:
        # A matching of sacrifice costs to distinct permanents.
        cands = [[p.id for p in mine if not sac_self[p.id] and not extra_taps[p.id]
                  and (what in p.types or p.card.type_line.has(what))] for _, what in sac_other]
        for k in _unmatched(cands):
            i, what = sac_other[k]
            problems.append(f"activations[{i}]: no (other) {what} to sacrifice (CR 118.10)")
    if tap_others:
        # The same matching for "tap an untapped <type> you control" costs that name nothing.
        tap_cands = [[p.id for p in mine if not p.tapped and not taps[p.id] and not extra_taps[p.id]
                      and any(_is_a(p, t) for t in types)] for _, types in tap_others]
        for k in _unmatched(tap_cands):
            i, types = tap_others[k]
            problems.append(f"activations[{i}]: player {me} has no (other) untapped "
                            f"{' or '.join(types)} to tap for its cost (CR 118.3)")
