"""Each activation of a payment checked against the board (CR 602, 605, 106.7, 302.6).

:func:`read_activations` goes through the payment's activations once.  Each must name a real
permanent the player controls and one of its effective mana abilities (613: land-type
changes, granted abilities; then the abilities whose cost taps other permanents, read by
:mod:`manasolver.models.text.tap_costs`); its cost parts must be the ability's; ``{T}`` and
``{Q}`` need a creature free of summoning sickness unless it has haste (302.6); and the mana
it claims must be a legal result of ``times`` activations now
(:func:`manasolver.models.rules.production.activation_results`: board-read options,
replacement effects in every order, triggered mana; a claim fits a combination of results
when its units can take distinct slots, Hall's condition via
:func:`manasolver.solver.validate.matching.unplaced`).  A repeatable ability's activations over
the whole payment stay within its limit ("Activate only once each turn", "no more than three
times", 602.5b), and "Remove X storage counters" removes the least X that the claimed mana
needs (107.3), counted with the other counters removed (118.3, :mod:`.resources`).  An ability activated from the hand
(Simian Spirit Guide, 602.2a) is checked against the card in the hand.

What the activations use and make is gathered in a :class:`Ledger` for the checks that need
the whole payment: tapping and sacrifices (:mod:`.resources`) and the mana cover
(:mod:`.cover`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from manasolver.models.abilities import ManaAbility, Restriction
from manasolver.models.rules.amounts import (
    SACRIFICED_COUNT,
    SACRIFICED_KINDS,
    TAPPED_COUNT,
    ability_restriction,
    hand_without_cast_card,
    reveals_from_hand,
    sacrificed_value,
)
from manasolver.models.text.own_spending import PRODUCERS, not_for_spells, own_rule, produced_ok, rule_text
from manasolver.models.errors import Unsupported
from manasolver.models.rules.counts import spend_table, unowned_spend_rules
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.rules.board_effects import prohibited
from manasolver.models.rules.production import activation_results
from manasolver.models.state import GameState, Permanent, Player
from manasolver.models.symbols import ANY_TYPE, TYPE_BITS, C, mask_letters
from manasolver.models.text.hand import HAND_COST, hand_abilities
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_costs import tap_costs_after
from manasolver.solver.graph import abilities_of, could_produce, reference_mask
from manasolver.solver.payment import Activation, Payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.validate.cover import Demand, Unit
from manasolver.solver.validate.matching import unplaced
from manasolver.solver.validate.totals import mana_units

__all__ = ["Ledger", "fits", "least_removed", "read_activations", "who"]


@dataclass(slots=True)
class Ledger:
    """What a payment's activations use and make, for the checks of the whole payment.

    Per permanent id: ``taps``, ``untaps``, ``sac_self`` (sacrificed by its own ability),
    ``first_use`` (the first activation naming it); ``counters`` removed per (id, kind), a
    variable counter cost's X (storage lands, CR 107.3) the least that the claimed mana needs;
    ``activated``: activations per (id, ability), for the limits of 602.5b.
    The costs that need other permanents: ``sac_other`` ("sacrifice a creature" naming
    none), ``named_sac`` (activation, type, id), ``named_taps`` (activation, types, id),
    ``anon_taps`` (activation, types).  ``life_costs``, ``energy_costs`` and ``damage``
    summed.  The mana: ``units`` made, ``split_choices`` (per snow activation whose mana
    splits several ways, the ways), ``demands`` of the activations' own mana costs, the
    ``costly`` activations that have one and their ``sources``.
    """

    by_id: dict[str, Permanent]
    taps: Counter[str] = field(default_factory=Counter)
    untaps: Counter[str] = field(default_factory=Counter)
    first_use: dict[str, int] = field(default_factory=dict)
    sac_self: Counter[str] = field(default_factory=Counter)
    sac_other: list[tuple[int, str]] = field(default_factory=list)
    named_sac: list[tuple[int, str, str]] = field(default_factory=list)
    named_taps: list[tuple[int, tuple[str, ...], str]] = field(default_factory=list)
    anon_taps: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    counters: dict[tuple[str, str], int] = field(default_factory=dict)
    activated: Counter[tuple[str, int]] = field(default_factory=Counter)
    life_costs: int = 0
    energy_costs: int = 0
    damage: int = 0
    units: Counter[Unit] = field(default_factory=Counter)
    split_choices: list[list[Counter[Unit]]] = field(default_factory=list)
    demands: Counter[Demand] = field(default_factory=Counter)
    sources: dict[int, Permanent] = field(default_factory=dict)
    costly: list[int] = field(default_factory=list)
    restrictions: dict[int, tuple[Restriction | None, bool]] = field(default_factory=dict)  # each one's mana:
    # its restriction and whether it is snow (the stated-order check gives its units back by them)


def who(perm: Permanent) -> str:
    return f"{perm.card.name} {perm.id}"


def fits(units: Counter[int], slots: Sequence[int]) -> bool:
    """Can every unit (a type bit) take a distinct slot (a mask), all slots filled?"""
    if sum(units.values()) != len(slots):
        return False
    masks = list(dict.fromkeys(slots))
    room = Counter(slots)
    bits = [b for b in TYPE_BITS if units.get(b)]
    return not any(unplaced([units[b] for b in bits], [room[m] for m in masks],
                            [[j for j, m in enumerate(masks) if b & m] for b in bits]))


def read_activations(req: PaymentRequest, pay: Payment, player: Player, problems: list[str]) -> Ledger:
    """Check every activation on its own and gather what they use and make."""
    state = req.state
    me = player.name
    cp: dict[str, int] | None = None
    by_id = {p.id: p for p in state.battlefield}
    led = Ledger(by_id)
    taps, untaps, first_use, sac_self = led.taps, led.untaps, led.first_use, led.sac_self
    sac_other, named_sac, named_taps, anon_taps = led.sac_other, led.named_sac, led.named_taps, led.anon_taps
    counters, units, demands = led.counters, led.units, led.demands
    split_choices, sources, costly = led.split_choices, led.sources, led.costly
    restrictions = led.restrictions
    life_costs = energy_costs = damage = 0
    # Caches for big boards: many activations share an ability and a mana text.
    parts_cache: dict[object, list[str]] = {}
    units_cache: dict[str, Counter[int]] = {}
    ok_cache: dict[tuple[object, str, int], str] = {}
    exiled: set[int] = set()
    # The card being cast is on the stack (601.2a), not in the hand: one copy fewer to exile.
    cast = (req.spell.card.name.lower() if req.spell is not None and req.spell.card is not None
            and not req.spell.ability else "")
    spell_card = req.spell.card if req.spell is not None and not req.spell.ability else None
    own = own_rule(spell_card)
    own = own if own in PRODUCERS else None
    own_text = rule_text(spell_card, own) if own is not None else ""
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
            problems.append(f"{where}: {who(perm)} is controlled by {perm.controller}, not {me}")
            continue
        abilities = abilities_of(state, perm)  # effective: Blood Moon, Urborg, granted (613)
        # Abilities whose cost taps other permanents, which the parser leaves unread (Heritage
        # Druid, Urza), come after them (models/text/tap_costs.py).
        # A prohibition stops them too (Null Rod on Diamond Kaleidoscope, CR 602.5).
        tapping = tap_costs_after(perm.card, len(abilities)) \
            if card_text(perm.card).tap_costs and not prohibited(state, perm) else ()
        # a forage cost is one ability read once for each way to pay it (CR 701.61a)
        count = len(abilities) + len({t.ability.index for t in tapping})
        if not 0 <= act.ability < count:
            problems.append(f"{where}: {who(perm)} has no mana ability {act.ability} (it has {count})")
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
            ways = [t for t in tapping if t.ability.index == act.ability]
            reading = next((t for t in ways if sorted(act.costs) == sorted(t.parts)), ways[0])
            ab, tap_types, tap_n = reading.ability, reading.types, reading.count
            expected_parts = list(reading.parts)
        cost = ab.cost
        first_use.setdefault(perm.id, i)
        if list(act.costs) != expected_parts and sorted(act.costs) != sorted(expected_parts):
            problems.append(f"{where}: costs {list(act.costs)} are not the ability's costs {expected_parts}")
        sick = summoning_sick(state, perm)
        if (cost.tap or cost.untap) and sick:
            what = "{T}" if cost.tap else "{Q}"
            problems.append(f"{where}: {who(perm)} is a creature that has not been under {me}'s control "
                            f"since the turn began, so it cannot pay {what} (CR 302.6)")
        if cost.tap and cost.untap:
            problems.append(f"{where}: {who(perm)} cannot both tap and untap in one cost")
        taps[perm.id] += n if cost.tap else 0
        untaps[perm.id] += n if cost.untap else 0
        if cost.sacrifice_self:
            sac_self[perm.id] += n
        by_count = ab.production.amount is not None and ab.production.amount.kind == SACRIFICED_COUNT
        if act.sacrificed:
            if len(act.sacrificed) != len(cost.sacrifice) * n and not by_count:
                problems.append(f"{where}: it names {len(act.sacrificed)} sacrificed permanents, but "
                                f"its cost sacrifices {len(cost.sacrifice) * n}")
            # "Sacrifice X Goats": as many as it names, X read from its mana below
            whats = ([cost.sacrifice[0]] * len(act.sacrificed) if by_count
                     else [what for _ in range(n) for what in cost.sacrifice])
            named_sac.extend((i, what, pid) for what, pid in zip(whats, act.sacrificed))
            if any(what.startswith("another ") and pid == perm.id for what, pid in zip(whats, act.sacrificed)):
                problems.append(f"{where}: {who(perm)} cannot sacrifice itself for \"another\" (its cost names "
                                f"any other)")
        else:
            if any(what.startswith("another ") for what in cost.sacrifice):
                problems.append(f"{where}: name the permanent {who(perm)} sacrifices: \"another\" is any but "
                                f"itself")
            sac_other.extend((i, what) for what in cost.sacrifice for _ in range(n))
        by_taps = ab.production.amount is not None and ab.production.amount.kind == TAPPED_COUNT
        if by_taps and n == 1 and act.tapped:
            tap_n = len(act.tapped)  # "Tap X untapped tokens": X read from its mana below
        if tap_n and act.tapped:
            if len(act.tapped) != tap_n * n:
                problems.append(f"{where}: it names {len(act.tapped)} tapped permanents, but its cost "
                                f"taps {tap_n * n}")
            named_taps.extend((i, tap_types, pid) for pid in act.tapped)
        elif tap_n:
            anon_taps.extend((i, tap_types) for _ in range(tap_n * n))
        for kind, k in cost.remove_counters:
            counters[(perm.id, kind)] = counters.get((perm.id, kind), 0) + k * n
        if act.ability < len(abilities) and ab.per_turn:
            key_turn = (perm.id, act.ability)
            if key_turn not in led.activated:  # the activations the board says this turn already made
                led.activated[key_turn] = dict(perm.activated_this_turn).get(act.ability, 0)
            led.activated[key_turn] += n
            if led.activated[key_turn] > ab.per_turn and led.activated[key_turn] - n <= ab.per_turn:
                problems.append(f"{where}: {who(perm)}: its mana ability {act.ability} may be activated at "
                                f"most {ab.per_turn} time{'s' if ab.per_turn > 1 else ''} each turn, and the "
                                f"payment activates it {led.activated[key_turn]} times (CR 602.5b)")
        life_costs += cost.life * n
        energy_costs += cost.energy * n
        damage += ab.damage * n
        # The mana it claims.
        made = units_cache.get(act.mana)
        if made is None:
            made = mana_units(act.mana, f"{where}.mana", problems)
            if made is not None:
                units_cache[act.mana] = made
        if made is not None:
            if cp is None and ab.production.reference:
                # what lands could produce, read only for an ability that mirrors it: another
                # permanent's could-produce this engine does not follow is then no concern
                cp = could_produce(state, strict=False)
            plain_ab = ab.production.amount is None and not ab.production.reference
            key = (ab, act.mana, n)
            why = ok_cache.get(key) if plain_ab else None
            if why is None:
                # the card being cast is on the stack (601.2a): Metalworker can't reveal it
                seen = state
                if spell_card is not None and reveals_from_hand(ab, spell_card):
                    seen = hand_without_cast_card(state, me, spell_card) or state
                why = _production_ok(seen, perm, ab, made, n, cp or {})
                if plain_ab:
                    ok_cache[key] = why
            if not why and ab.production.reference == "sacrificed_land" and act.sacrificed:
                why = _sacrificed_could_produce(made, act.sacrificed, cp or {})
            amount = ab.production.amount
            if not why and amount is not None and (amount.kind in SACRIFICED_KINDS or by_count):
                why = _by_sacrificed_value(state, perm, ab, made, act.sacrificed, n, by_id)
            if not why and by_taps:
                why = _by_count(state, perm, ab, made, len(act.tapped) if n == 1 else 0,
                                "name the permanents the activation taps: their number is X (CR 107.3)",
                                "X is the number of permanents tapped")
            if why:
                problems.append(f"{where}: {who(perm)} cannot add {act.mana or 'nothing'}: {why}")
            elif cost.remove_any:
                least = least_removed(state, perm, ab, made, n)
                if least is None:
                    problems.append(f"{where}: {who(perm)}: cannot tell how many {cost.remove_any} counters "
                                    f"{n} activations adding {act.mana} remove")
                else:
                    key_c = (perm.id, cost.remove_any)
                    counters[key_c] = counters.get(key_c, 0) + least
            snow = perm.is_snow
            # Only mana of activations that cost mana needs its maker (for the order check);
            # the rest is grouped by class so the matching stays small on big boards.
            maker = i if cost.mana else -1
            restriction = ability_restriction(ab, perm)  # a chosen creature type filled in
            if own is not None and not produced_ok(own, perm):  # Myr Superion: only creatures' mana
                restriction = not_for_spells(restriction, own_text)
            restrictions[i] = (restriction, perm.is_snow)
            source = i if cost.sacrifice and act.sacrificed else -1
            splits = _snow_splits(state, perm, ab, made, n, cp or {}) if snow and not why else None
            if splits is not None and len(splits) != 1:
                if not splits:
                    problems.append(f"{where}: {who(perm)}: cannot tell its snow mana from the "
                                    f"triggered mana of {act.times} activations")
                split_choices.append([Counter({Unit("made", b, sn, restriction, maker, source): k
                                               for (b, sn), k in sp.items()}) for sp in splits])
                made = Counter()
            elif splits is not None:  # Wild Growth's {G} on a snow land is not snow (107.4h)
                for (bit, sn), k in splits[0].items():
                    units[Unit("made", bit, sn, restriction, maker, source)] += k
                made = Counter()
            for bit, k in made.items():
                units[Unit("made", bit, snow, restriction, maker, source)] += k
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
                    demands[Demand("generic", ANY_TYPE, i)] += s.generic * n
                elif s.snow:
                    demands[Demand("snow", ANY_TYPE, i)] += n
                else:  # paid as the 609.4b rules reaching this ability's cost allow
                    mask = s.colors | (C if s.colorless else 0)
                    if s.colors:
                        _refuse_unowned(state, player.name, perm)
                    wide = spend_table(state, player.name, None, perm.card.name).mask(mask)
                    demands[Demand("type", mask, i, wide if wide != mask else 0)] += n
    led.life_costs, led.energy_costs, led.damage = life_costs, energy_costs, damage
    return led


def _refuse_unowned(state: GameState, player: str, perm: Permanent) -> None:
    """Refuse a colored symbol of ``perm``'s activation cost beside a 609.4b rule for abilities of
    permanents its player controls but doesn't own (Nathan Drake, Treasure Hunter): the board
    says nothing of owners, and the rule would let any mana pay it."""
    rules = unowned_spend_rules(state, player)
    if rules:
        source, effect = rules[0]
        index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
        raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} lets any mana pay the colored cost "
                          f"of {perm.card.name} ({perm.id}) if its controller does not own it, which the board "
                          f"does not say (CR 609.4b)", f"battlefield[{index}]")


def _production_ok(state: GameState, perm: Permanent, ab: ManaAbility, units: Counter[int], times: int,
                   cp: dict[str, int]) -> str:
    """Empty string when ``units`` is a legal result of ``times`` activations, else why not.

    The legal results are :func:`manasolver.models.rules.production.activation_results`
    (board-read options, replacement effects in every order, triggered mana)."""
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
        if fits(units, [s for w in combo for s in w]):
            return ""
    if ab.production.reference:
        mask = 0
        for w in ways:
            for slot in w:
                mask |= slot
        return f"it could produce only {{{'}{'.join(mask_letters(mask))}}} now (CR 106.7)"
    shown = ", ".join("".join("{" + "/".join(mask_letters(s)) + "}" for s in w) for w in ways[:6])
    return f"it adds one of {shown}"


def least_removed(state: GameState, perm: Permanent, ab: ManaAbility, units: Counter[int],
                   times: int) -> int | None:
    """The fewest counters ``times`` activations of ``ab`` (a variable counter cost: "Remove X
    storage counters", CR 107.3) remove to add ``units``: the least total X among the results
    that together fit the claimed mana; None when none fits or too many combinations."""
    results = activation_results(state, perm, ab) or ()
    ways: dict[tuple[int, ...], int] = {}
    for r in results:
        w = tuple(s & ANY_TYPE for s in r.mana + r.extra)
        ways[w] = min(ways.get(w, r.removed), r.removed)
    best: int | None = None
    for count, combo in enumerate(itertools.combinations_with_replacement(sorted(ways), times)):
        if count > 20_000:
            return None
        if fits(units, [s for w in combo for s in w]):
            total = sum(ways[w] for w in combo)
            best = total if best is None else min(best, total)
    return best


def _snow_splits(state: GameState, perm: Permanent, ab: ManaAbility, made: Counter[int], times: int,
                 cp: dict[str, int]) -> list[Counter[tuple[int, bool]]] | None:
    """For a snow permanent whose activation also adds triggered mana (Wild Growth, Fertile
    Ground, Mana Flare: their source is the nonsnow Aura or enchantment, CR 107.4h, 605.1b):
    the distinct ways the claimed mana ``made`` splits into the ability's own (snow) mana and
    the triggered (nonsnow) mana, as ``(type bit, snow)`` counts; None when no triggered mana
    is involved (then all of it is snow); an empty list for several activations at once."""
    ref = reference_mask(state, perm, ab, cp) if ab.production.reference else 0
    results = activation_results(state, perm, ab, reference_mask=ref) or ()
    if not any(r.extra for r in results):
        return None
    if times != 1:
        return []
    out: list[Counter[tuple[int, bool]]] = []
    for r in results:
        for own in itertools.product(*([b for b in TYPE_BITS if s & b] for s in r.mana)):
            mine = Counter(own)
            rest = made - mine
            if mine - made or sum(rest.values()) != len(r.extra) or not fits(rest, list(r.extra)):
                continue
            split: Counter[tuple[int, bool]] = Counter({(b, True): k for b, k in mine.items()})
            split.update({(b, False): k for b, k in rest.items()})
            if split not in out:
                out.append(split)
    return out


def _check_hand_activation(where: str, act: Activation, player: Player, exiled: set[int],
                           units: Counter[Unit], problems: list[str], in_hand: dict[str, int]) -> None:
    """An ability activated from the hand (Simian Spirit Guide, CR 602.2a): the card is at that
    index of the hand, has that ability, is exiled once (it is gone after), and adds what the
    ability says."""
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
    made = mana_units(act.mana, f"{where}.mana", problems)
    if made is None:
        return
    if not any(fits(made, o) for o in abilities[act.ability].production.options):
        problems.append(f"{where}: {card.name} cannot add {act.mana or 'nothing'}")
        return
    snow = "snow" in card.type_line.supertypes
    for bit, k in made.items():
        units[Unit("made", bit, snow)] += k


def _by_sacrificed_value(state: GameState, perm: Permanent, ab: ManaAbility, made: Counter[int],
                         sacrificed: Sequence[str], times: int, by_id: dict[str, Permanent]) -> str:
    """Why the mana of ``times`` activations of an ability that adds mana by the sacrificed
    permanent's mana value (Priest of Yawgmoth, Food Chain; CR 202.3, 608.2h) is not what the
    named sacrificed permanents give, or ``""``: each activation must name its permanent, and adds
    the result of the ability for that permanent's value."""
    amount = ab.production.amount
    assert amount is not None
    if amount.kind == SACRIFICED_COUNT:  # "Sacrifice X Goats: Add X mana" ({T}: once)
        return _by_count(state, perm, ab, made, len(sacrificed) if times == 1 else 0,
                         "name the permanents the activation sacrifices: their number is X (CR 107.3)",
                         "X is the number of permanents sacrificed")
    per = len(ab.cost.sacrifice)
    if len(sacrificed) != per * times:
        return ("name the permanent each activation sacrifices: its mana value decides the amount "
                "(CR 202.3)")
    values = []
    for k in range(times):
        other = by_id.get(sacrificed[k * per])
        if other is None:
            return ""  # the sacrifice check names the missing permanent
        values.append(sacrificed_value(amount.kind, other))
    results = activation_results(state, perm, ab) or ()
    ways = [[tuple(s & ANY_TYPE for s in r.mana + r.extra) for r in results if r.removed == v] for v in values]
    if any(not w for w in ways):
        return f"a permanent of mana value {min(values)} adds nothing by this ability (CR 106.5)"
    count = 0
    for combo in itertools.product(*ways):
        count += 1
        if count > 20_000:
            return f"cannot check {times} activations of an ability with this many results"
        if fits(made, [s for w in combo for s in w]):
            return ""
    return "the amount is the sacrificed permanent's mana value (" + ", ".join(map(str, values)) + ")"


def _by_count(state: GameState, perm: Permanent, ab: ManaAbility, made: Counter[int], x: int, unnamed: str,
              wrong: str) -> str:
    """Why one activation's mana is not what its cost's X gives (X permanents sacrificed or
    tapped, ``x`` of them named; 0: none named), or ``""``."""
    if not x:
        return unnamed
    results = activation_results(state, perm, ab) or ()
    if any(fits(made, [s & ANY_TYPE for s in r.mana + r.extra]) for r in results if r.removed == x):
        return ""
    return f"{wrong} ({x})"


def _sacrificed_could_produce(made: Counter[int], sacrificed: Sequence[str], cp: dict[str, int]) -> str:
    """Why the mana of "one mana of any type the sacrificed land could produce" (Squandered
    Resources) is not one mana of a type each sacrificed land could produce (CR 106.7), or ``""``."""
    units = [bit for bit, k in made.items() for _ in range(k)]
    edges = [[j for j, pid in enumerate(sacrificed) if cp.get(pid, 0) & bit] for bit in units]
    if len(units) != len(sacrificed) or any(unplaced([1] * len(units), [1] * len(sacrificed), edges)):
        return "each sacrificed land adds one mana of a type it could produce (CR 106.7)"
    return ""
