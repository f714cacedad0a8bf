"""Resources other than mana sources that a payment may spend: fodder, tapping, hand cards, assists.

* "sacrifice a creature/artifact/…" costs (Ashnod's Altar, Krark-Clan Ironworks) are recorded
  per option (:attr:`Option.sacrifice_other`); the permanents they may take are grouped in
  :attr:`Supply.fodder` (:func:`fodder_groups`) and the solvers choose which are sacrificed (each at
  most once; one tapped for mana first may still be sacrificed, CR 605.3a).  The source of an
  activated ability that sacrifices itself is reserved (:func:`reserved_ids`);
* "tap an untapped creature/Elf/artifact you control" (Springleaf Drum; Heritage Druid, Urza,
  read by :mod:`manasolver.models.text.tap_costs`) is recorded per option
  (:attr:`Option.tap_creatures`, :attr:`Option.tap_types`); the permanents it may tap are
  grouped in :attr:`Supply.tappable`; one tapped for its own ``{T}`` ability can't pay it too
  (118.10), a summoning-sick one can (302.6); one tapped for a cost may then be sacrificed
  (:func:`member_groups` joins both kinds of group, and CP-SAT decides every member's roles
  together);
* cards in the hand with a mana ability activated from there (Simian Spirit Guide) are source
  classes of their own (:func:`hand_classes`); the card being cast is not one of them
  (:func:`without_cast_card`, CR 601.2a);
* the cards of the hand and graveyard that "Discard a card", "Exile a card from your hand /
  graveyard" costs take (Skirge Familiar, Cadaverous Bloom, Titans' Nest) are fodder too
  (:func:`zone_fodder`: members ``"hand:<i>"``, ``"graveyard:<i>"``), the card being cast taken
  out; tokens by subtype or name and colored creatures are matched by :func:`~manasolver.models.state.fits_cost`;
* what depends on the request, applied by :func:`without_cast_card`: "discard your hand" with
  "Activate only as an instant" (Lion's Eye Diamond) can't pay for a card cast from the hand
  (CR 602.5d), "Activate only as a sorcery" (Grinning Ignus) only at sorcery speed, and mana
  whose restriction is not read is left out when a spell is named;
* convoke, improvise and delve (702.51, 702.126, 702.66) use permanents and cards that are not
  mana sources: :func:`build_assists` groups the untapped creatures and artifacts by colors,
  types and supply class (a member of a class taps once: for its mana ability or to assist) and
  lists the graveyard, for CP-SAT to decide with the mana.

Every grouping key refines the supply classes, so a group's members are interchangeable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from manasolver.models.abilities import GRAVEYARD_CARD, HAND_CARD, ZONE_CARDS, ManaAbility
from manasolver.models.card import Card
from manasolver.models.effects import AbilitiesOf, GrantedAbility
from manasolver.models.rules.amounts import hand_without_cast_card, reveals_from_hand, reveals_hand
from manasolver.models.rules.production import active_effects, activation_results, tap_damage_from_attachments
from manasolver.models.text.hand import HAND_COST
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_costs import RETURN_SELF
from manasolver.models.state import GameState, Permanent, Player
from manasolver.models.symbols import ANY_COLOR
from manasolver.solver.request import PaymentRequest, SpellInfo
from manasolver.solver.supply.model import Excluded, Group, Option, Options, SourceClass, Supply
from manasolver.solver.supply.own_spending import own_spending_supply

__all__ = [
    "NO_ASSISTS",
    "Assists",
    "build_assists",
    "fodder_groups",
    "hand_classes",
    "member_groups",
    "reserved_ids",
    "without_cast_card",
    "zone_fodder",
]


def reserved_ids(req: PaymentRequest) -> frozenset[str]:
    """The permanents the cost being paid sacrifices itself (an activated ability of a
    permanent with "Sacrifice ~" in its cost): no mana ability's cost may sacrifice them."""
    act = req.activation
    if act is None or act.permanent is None or act.ability.cost is None or not act.ability.cost.sacrifice_self:
        return frozenset()
    return frozenset({act.permanent.id})


def without_cast_card(supply: Supply, spell: SpellInfo | None, state: GameState | None = None) -> Supply:
    """``supply`` without the card being cast (CR 601.2a: it moves from the hand to the stack
    first, so it can't also be exiled for mana in 601.2g, nor discarded or exiled by a cost):
    when ``spell`` is a known card (not an ability) of which a copy is a hand source, the first
    such copy is taken out; else, when costs may discard cards of the hand (``state`` given),
    the first card of its name is taken out of that fodder.  With a card of its name in the
    hand (``state`` given), the options that discard the whole hand go too
    (:func:`_without_hand_discarders`).  With any spell or ability named, mana whose restriction
    is not read is listed as left out (:func:`_unchecked_for_spell`).  A spell's own spending
    rule (Myr Superion) restricts the sources it does not name (supply/own_spending.py)."""
    if state is not None and spell is not None and spell.card is not None and not spell.ability:
        supply = own_spending_supply(supply, state, spell)
        supply = _reveals_without_cast_card(supply, state, spell.card)
    unchecked, returns, discards, hand_fodder, hand_sources, _ = _shape(supply)
    if spell is not None and unchecked:
        supply = _unchecked_for_spell(supply)
    if state is not None and returns:
        supply = _returned_to_hand(supply, state)
    if spell is None or spell.ability or spell.card is None or not (discards or hand_fodder or hand_sources):
        return supply
    name = spell.card.name.lower()
    if discards and state is not None and any(c.name.lower() == name for c in state.player(supply.player).hand):
        supply = _without_hand_discarders(supply)
        _, _, _, hand_fodder, hand_sources, _ = _shape(supply)
    if not hand_fodder and not hand_sources:
        return supply
    classes = list(supply.classes)
    fodder = supply.fodder
    for k, cls in enumerate(classes):
        if cls.hand and cls.name.lower() == name:
            if cls.count == 1:
                del classes[k]
                fodder = tuple(dataclasses.replace(g, cls=g.cls - 1) if g.cls > k else g
                               for g in _without_member(fodder, cls.members[0]))
            else:
                classes[k] = dataclasses.replace(cls, members=cls.members[1:], positions=cls.positions[1:],
                                                 hand=cls.hand[1:])
                fodder = _without_member(fodder, cls.members[0])
            return dataclasses.replace(supply, classes=tuple(classes), fodder=fodder)
    if hand_fodder:
        player = state.player(supply.player) if state is not None else None
        at = next((i for i, c in enumerate(player.hand) if c.name.lower() == name), None) if player else None
        if at is not None:
            return dataclasses.replace(supply, fodder=_without_member(fodder, f"hand:{at}"))
    return supply


def _reveals_without_cast_card(supply: Supply, state: GameState, card: Card) -> Supply:
    """``supply`` without the options of abilities that add mana by cards revealed from the hand
    (Metalworker: "Reveal any number of artifact cards in your hand. Add {C}{C} for each card
    revealed this way.") that count the card being cast: it is on the stack from CR 601.2a on, so
    only the other cards of the hand can be revealed (one copy of its name fewer)."""
    # the abilities that reveal from the hand come first; the smaller hand only where one does
    effects = active_effects(state)
    # Only a permanent whose card prints such an ability can have one, unless an effect gives
    # abilities that may (a grant of one, "all activated abilities of").
    given = bool(effects) and any(
        isinstance(e, AbilitiesOf) or (isinstance(e, GrantedAbility) and reveals_hand(e.ability)) for _, e in effects)
    if not given and not _shape(supply)[5]:
        return supply
    from manasolver.solver.graph import abilities_of

    printed = not (effects or tap_damage_from_attachments(state))  # abilities_of's own test
    revealing: list[tuple[SourceClass, Permanent, ManaAbility]] = []
    field = state.battlefield
    for cls in supply.classes:
        if cls.hand or not cls.members or (not given and cls.options.reveals is False):
            continue
        at = cls.positions[0]  # the first member's index on this board
        perm = field[at] if at < len(field) and field[at].id == cls.members[0] else state.permanent(cls.members[0])
        if not given and not any(reveals_hand(ab) for ab in perm.card.mana_abilities):
            continue  # (options not made by the supply's rows say nothing of it)
        abilities = perm.card.mana_abilities if printed else abilities_of(state, perm)
        revealing += [(cls, perm, ab) for ab in abilities if ab.production.amount is not None
                      and reveals_from_hand(ab, card)]
    if not revealing:
        return supply
    reduced = hand_without_cast_card(state, supply.player, card)
    if reduced is None:
        return supply
    drop: set[int] = set()
    for cls, perm, ab in revealing:
        allowed = {tuple(r.mana) + tuple(r.extra) for r in activation_results(reduced, perm, ab) or ()}
        drop.update(id(o) for o in cls.options if o.ability == ab.index and o.slots not in allowed)
    if not drop:
        return supply
    return _without_options(supply, lambda o: id(o) in drop)


def _shape(supply: Supply) -> tuple[bool, bool, bool, bool, bool, bool]:
    """(Some option's restriction is not read, some option returns its source to the hand, some
    option discards the whole hand, some fodder is a card of the hand, some class is a card of the
    hand, some permanent's class may reveal cards from the hand: its options don't say its card
    prints no such ability): what :func:`without_cast_card` may have to change, read once per
    supply (kept in ``supply.derived``)."""
    hit = supply.derived.shape
    if hit is not None:
        return hit
    unchecked = returns = discards = hand_sources = reveals = False
    for k in supply.classes:
        if k.hand:
            hand_sources = True
        elif k.options.reveals is not False:
            reveals = True
        costs = k.options.costs
        if costs is None:
            costs = _option_costs(k.options)
        if costs[0]:
            unchecked = True
        if costs[1]:
            returns = True
        if costs[2]:
            discards = True
    hand_fodder = bool(supply.fodder) and any(HAND_CARD in g.matches for g in supply.fodder)
    shape = supply.derived.shape = (unchecked, returns, discards, hand_fodder, hand_sources, reveals)
    return shape


def _option_costs(options: Options) -> tuple[bool, bool, bool]:
    """(Some option's restriction is not read, some option returns its source to the hand, some
    option discards the whole hand) of one class's options, read once per options object (kept in
    them: the equal permanents of every board share it)."""
    unchecked = returns = discards = False
    for o in options:
        if o.restriction is not None and o.restriction.unchecked:
            unchecked = True
        returns = returns or _returns_self(o)
        discards = discards or o.discards_hand
    costs = options.costs = (unchecked, returns, discards)
    return costs


_UNCHECKED = "a spending restriction this engine does not check against a named spell or ability (CR 106.6)"


def _unchecked_for_spell(supply: Supply) -> Supply:
    """With a spell or ability named, the members of classes whose mana has a spending
    restriction that is not read (Titans' Nest's "a spell that's one or more colors without {X}
    in its mana cost") listed as left out: that mana pays nothing here, which is exact only when
    no spell is named (a restriction is never assumed met, nor assumed unmet)."""
    extra: list[Excluded] = []
    for cls in supply.classes:
        r = next((o.restriction for o in cls.options if o.restriction is not None and o.restriction.unchecked),
                 None)
        if r is not None and not cls.hand:
            extra.extend(Excluded(m, cls.name, r.text, _UNCHECKED) for m in cls.members)
    if not extra:
        return supply
    return dataclasses.replace(supply, excluded=supply.excluded + tuple(extra))


def _returns_self(o: Option) -> bool:
    """Does option ``o``'s cost return its own permanent to its owner's hand (Grinning Ignus)?  Such
    an option is a sorcery-speed activation before the cast (CR 602.5d), and the card it returns may
    pay a later cost from the hand."""
    return RETURN_SELF in o.costs


_RETURNED = ("the card it returns to the hand could then pay a cost that discards or exiles a card of the "
             "hand, which is not modelled yet")


def _returned_to_hand(supply: Supply, state: GameState) -> Supply:
    """Grinning Ignus ("{R}, Return ~ to its owner's hand: Add {C}{C}{R}.  Activate only as a
    sorcery."): only in its controller's main phase with the stack empty (CR 602.5d, 307.1), before
    the spell is cast; otherwise its option goes.  Where a cost could then discard or exile the
    card it returned (Skirge Familiar), it is listed as left out."""
    turn = state.turn
    if not (turn.active == supply.player and turn.step in ("main1", "main2") and turn.stack_empty):
        return _without_options(supply, _returns_self)
    if not any(HAND_CARD in o.sacrifice_other for k in supply.classes for o in k.options):
        return supply
    extra = tuple(Excluded(m, cls.name, ", ".join(o.costs), _RETURNED) for cls in supply.classes
                  for o in cls.options[:1] if any(map(_returns_self, cls.options)) for m in cls.members)
    return dataclasses.replace(supply, excluded=supply.excluded + extra)


def _without_hand_discarders(supply: Supply) -> Supply:
    """``supply`` without the options whose cost discards the whole hand (Lion's Eye Diamond,
    Diamond Lion: "Discard your hand …  Activate only as an instant."): the ability can't be
    activated while a spell is being cast (CR 602.5d: only when an instant could be cast), so
    its mana is made before, and discarding the hand then discards the card to be cast."""
    return _without_options(supply, lambda o: o.discards_hand)


def _without_options(supply: Supply, gone_if: Callable[[Option], bool]) -> Supply:
    """``supply`` without the options ``gone_if`` says; a class left without options goes, and
    the groups' class indices follow."""
    drop: list[int] = []
    classes = list(supply.classes)
    for k, cls in enumerate(classes):
        keep = Options(o for o in cls.options if not gone_if(o))
        if len(keep) == len(cls.options):
            continue
        if keep:
            classes[k] = dataclasses.replace(cls, options=keep)
        else:
            drop.append(k)
    if not drop and classes == list(supply.classes):
        return supply
    gone = set(drop)
    shift = [sum(1 for d in drop if d < k) for k in range(len(classes))]

    def moved(groups: tuple[Group, ...]) -> tuple[Group, ...]:
        return tuple(dataclasses.replace(g, cls=-1 if g.cls in gone else g.cls - shift[g.cls]) if g.cls >= 0
                     else g for g in groups)

    kept = tuple(cls for k, cls in enumerate(classes) if k not in gone)
    return dataclasses.replace(supply, classes=kept, fodder=moved(supply.fodder), tappable=moved(supply.tappable))


def _without_member(groups: tuple[Group, ...], member: str) -> tuple[Group, ...]:
    """``groups`` with ``member`` taken out of the group holding it (a group left empty goes)."""
    out = []
    for g in groups:
        if member in g.members:
            k = g.members.index(member)
            if g.count == 1:
                continue
            g = dataclasses.replace(g, members=g.members[:k] + g.members[k + 1:],
                                    positions=g.positions[:k] + g.positions[k + 1:])
        out.append(g)
    return tuple(out)


def hand_classes(player: Player, after: int) -> list[SourceClass]:
    """The cards in ``player``'s hand with mana abilities activated from there (Simian and
    Elvish Spirit Guide, :mod:`manasolver.models.text.hand`), identical cards grouped.  Each
    activation exiles its card (an exclusive option; ``sacrifice`` is set so that the
    ``no_sacrifice`` policy counts the card lost); board positions ``after + index``
    put them after every permanent for the tie-break."""
    found = [(i, card) for i, card in enumerate(player.hand) if card_text(card).hand_abilities]
    if not found:
        return []  # (most hands)
    groups: dict[tuple[str, str], list[int]] = {}
    cards: dict[tuple[str, str], Card] = {}
    for i, card in found:
        key = (card.name, card.oracle_text)
        groups.setdefault(key, []).append(i)
        cards[key] = card
    out = []
    for key, idx in groups.items():
        card = cards[key]
        opts = tuple(Option(ab.index, slots, (HAND_COST,), sacrifice=True)
                     for ab in card_text(card).hand_abilities for slots in ab.production.options)
        out.append(SourceClass(tuple(f"hand:{i}" for i in idx), tuple(after + i for i in idx), opts,
                               "snow" in card.type_line.supertypes, "hand", card.name,
                               hand=tuple(idx)))
    return out


def zone_fodder(player: Player, classes: list[SourceClass], after: int) -> tuple[Group, ...]:
    """The cards of ``player``'s hand and graveyard that some option's cost discards or exiles
    (:data:`~manasolver.models.abilities.HAND_CARD`, :data:`~manasolver.models.abilities.GRAVEYARD_CARD`),
    as groups of :attr:`Supply.fodder`: members ``"hand:<i>"`` and ``"graveyard:<i>"``, positions
    after the battlefield's (``after``), then the hand's.  Any card of the zone pays the cost
    (CR 701.9a: "discard a card" names none), so the cards of a zone are one group, except that a
    card of the hand with its own mana ability (Simian Spirit Guide) stays in its class's group:
    it is exiled for mana or discarded, not both (CR 118.3).  The graveyard's members are listed
    from its last card, so delve (which takes the first cards, 702.66a) and these costs never
    name one card twice when their counts fit the graveyard together."""
    kinds = {t for k in classes for o in k.options for t in o.sacrifice_other if t in ZONE_CARDS}
    if not kinds:
        return ()
    out: list[Group] = []
    if HAND_CARD in kinds and player.hand:
        by_class: dict[int, list[int]] = {}
        class_of = {i: k for k, cls in enumerate(classes) for i in cls.hand}
        for i in range(len(player.hand)):
            by_class.setdefault(class_of.get(i, -1), []).append(i)
        for k, idx in sorted(by_class.items(), key=lambda t: t[1][0]):
            out.append(Group(tuple(f"hand:{i}" for i in idx), tuple(after + i for i in idx), k,
                             frozenset({HAND_CARD})))
    if GRAVEYARD_CARD in kinds and player.graveyard:
        n = len(player.graveyard)
        idx = list(range(n - 1, -1, -1))
        out.append(Group(tuple(f"graveyard:{i}" for i in idx),
                         tuple(after + len(player.hand) + i for i in idx), -1, frozenset({GRAVEYARD_CARD})))
    return tuple(out)


def fodder_groups(mine: list[tuple[int, Permanent]], classes: list[SourceClass], sac_sig: dict[str, frozenset[str]],
                  tap_sig: dict[str, frozenset[str]], tapping: bool) -> tuple[Group, ...]:
    """The player's permanents that some sacrifice cost (``tapping`` false) or tapping cost
    (true) could take, grouped (see :class:`~manasolver.solver.supply.model.Group`).  Both use
    one grouping key, so a group of :attr:`Supply.fodder` and one of :attr:`Supply.tappable`
    hold the same members or none in common; keys refine both supply classes and assist groups."""
    class_of = {m: k for k, cls in enumerate(classes) for m in cls.members}
    groups: dict[tuple[int, frozenset[str], frozenset[str], bool, bool, bool, int],
                 list[tuple[str, int]]] = {}
    for pos, perm in mine:
        sac = sac_sig.get(perm.id, frozenset())
        tap = tap_sig.get(perm.id, frozenset())
        if not (tap if tapping else sac):
            continue
        key = (class_of.get(perm.id, -1), sac, tap, not perm.tapped, perm.is_creature, perm.is_artifact,
               perm.card.colors & ANY_COLOR)
        groups.setdefault(key, []).append((perm.id, pos))
    out = [Group(tuple(m for m, _ in ms), tuple(p for _, p in ms), k, tap if tapping else sac,
                 untapped, creature, artifact, colors)
           for (k, sac, tap, untapped, creature, artifact, colors), ms in groups.items()]
    out.sort(key=lambda g: g.positions[0])
    return tuple(out)


def member_groups(supply: Supply) -> tuple[Group, ...]:
    """The groups of :attr:`Supply.fodder` and :attr:`Supply.tappable` merged by members: one
    group for the roles a member can play in one payment, its ``fodder`` and ``tappable``
    indexing the group of each holding the same members (-1: none)."""
    out: dict[tuple[str, ...], Group] = {}
    for f, g in enumerate(supply.fodder):
        out[g.members] = Group(g.members, g.positions, g.cls, untapped=g.untapped, fodder=f)
    for t, g in enumerate(supply.tappable):
        had = out.get(g.members)
        out[g.members] = (Group(g.members, g.positions, g.cls, untapped=g.untapped, tappable=t) if had is None
                          else Group(had.members, had.positions, had.cls, untapped=had.untapped,
                                     fodder=had.fodder, tappable=t))
    return tuple(sorted(out.values(), key=lambda g: g.positions[0]))


# -- convoke, improvise, delve (CR 702.51, 702.126, 702.66) ----------------------------------


@dataclass(frozen=True, slots=True)
class Assists:
    """What convoke, improvise and delve may use (only the keywords the request allows).

    ``groups``: untapped creatures (convoke) and artifacts (improvise) grouped by
    colors, types and supply class; ``graveyard``: the names of the cards delve may
    exile, in graveyard order; ``class_untapped``: per supply class, its untapped members
    (a class's taps and assists together can't exceed them).
    """

    groups: tuple[Group, ...] = ()
    graveyard: tuple[str, ...] = ()
    class_untapped: tuple[int, ...] = ()

    @property
    def usable(self) -> bool:
        """True when some assist could pay part of a cost."""
        return bool(self.groups or self.graveyard)


#: No assist: what a payment without convoke, improvise and delve may use (frozen: shared).
NO_ASSISTS = Assists()


def build_assists(state: GameState, supply: Supply, convoke: bool, improvise: bool,
                  delve: bool) -> Assists:
    """The resources convoke/improvise/delve may use for ``supply.player`` (see :class:`Assists`).

    Summoning-sick creatures may convoke (Siege Wurm ruling; 302.6 limits only a
    creature's own ``{T}`` abilities); tapped permanents may not (702.51a, 702.126a).
    """
    if not (convoke or improvise or delve):
        return NO_ASSISTS
    player = state.player(supply.player)
    class_of = {m: k for k, cls in enumerate(supply.classes) for m in cls.members}
    groups: dict[tuple[int, int, bool, bool], list[tuple[str, int]]] = {}
    for pos, perm in enumerate(state.battlefield):
        if perm.controller != supply.player or perm.tapped:
            continue
        creature = convoke and perm.is_creature
        artifact = improvise and perm.is_artifact
        if not (creature or artifact):
            continue
        colors = perm.card.colors & ANY_COLOR if creature else 0
        key = (class_of.get(perm.id, -1), colors, creature, artifact)
        groups.setdefault(key, []).append((perm.id, pos))
    out = [Group(tuple(m for m, _ in ms), tuple(p for _, p in ms), k, colors=colors, creature=creature,
                 artifact=artifact) for (k, colors, creature, artifact), ms in groups.items()]
    out.sort(key=lambda g: g.positions[0])
    by_id = {p.id: p for p in state.battlefield}
    untapped = tuple(sum(1 for m in cls.members if m in by_id and not by_id[m].tapped)
                     for cls in supply.classes)
    grave = tuple(c.name for c in player.graveyard) if delve else ()
    return Assists(tuple(out), grave, untapped)
