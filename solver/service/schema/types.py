"""The protocol's objects as typed definitions: every query, every answer and the board.

These ``TypedDict`` classes are the one description of the protocol's shapes.  The type checker
reads them (``manasolver.solver.service.api`` returns them, so ``answer["payabel"]`` is an error before it
runs), :mod:`~manasolver.solver.service.schema.jsonschema` turns them into the JSON Schema by introspection,
and :mod:`~manasolver.solver.service.schema.openapi` into the service's OpenAPI document.

Conventions the generator reads:

* a class's required keys are those of a ``total`` class, optional ones those of a
  ``total=False`` class (the two are combined by inheritance, so the module runs on Python 3.10);
* each field is described in its class's docstring, in a ``Fields:`` block of ``name: text``
  lines (continuation lines indented further);
* ``Annotated`` markers add what a type alone can't say: :class:`Limit` (the bound of
  :data:`manasolver.models.board.schema.LIMITS` of that name), :class:`Minimum`,
  :class:`Maximum`, :class:`OneOf` (the accepted strings, taken from the tuples the engine
  checks against), :class:`Pattern`;
* field names of the board are the engine's own (:mod:`manasolver.models.board.schema`'s
  tuples); :func:`~manasolver.solver.service.schema.jsonschema.check_board_fields` compares them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, TypedDict, Union

from manasolver.models.board.schema import CAST_FOR
from manasolver.models.rules.counts import ZONES
from manasolver.models.state import DESIGNATIONS, STEPS
from manasolver.models.triggered import EffectKind, TriggerEvent
from manasolver.solver.answers import ReasonCode as PaymentReasonCode
from manasolver.solver.request import Criterion

__all__ = [
    "ANSWERS", "QUERIES", "AbilitySpell", "ActivatedAbilityInfo", "Activating", "Activation",
    "AddChange", "AdditionalCost", "Answer", "Backend", "BoardAnswer", "BoardHandle",
    "CanPayAnswer", "CanPayQuery", "CardAnswer", "CardEntry", "CardInfo", "CardQuery", "CardRef",
    "CardSearch", "CastFor", "CastOptions", "Change", "Characteristics", "Choice", "Chosen",
    "CloseAnswer", "CloseQuery", "Color", "Cost", "CostOptions", "CouldProduceAnswer",
    "CouldProduceQuery", "Count", "CountsAnswer", "CountsQuery", "DetailedOption", "Devotion",
    "AllocationEntry", "ErrorAnswer", "ErrorCode", "ErrorInfo", "GuideAnswer", "GuideQuery", "NextActivation",
    "PaidBy", "PartialStep", "Sources", "Warning", "ExampleBoard", "ExampleQuestion", "Examples",
    "Health", "IncreaseModifier", "JsonValue", "Life", "Limit", "Mana", "ManaAbilityInfo",
    "ManaType", "ManaValueAnswer", "ManaValueQuery", "MaxXAnswer", "MaxXFound", "MaxXNone",
    "MaxXQuery", "Maximum", "Minimum", "MinimumModifier", "Modifier", "Name", "NotPayable", "OneOf",
    "OpenQuery", "OptionsAnswer", "OptionsQuery", "Paid", "Pattern", "PayAnswer", "PayQuery",
    "Payable", "Payment", "PaymentOptions", "PaymentsAnswer", "PaymentsQuery", "Permanent",
    "PermanentFields", "PlanAnswer", "PlanCost", "PlanPaid", "PlanQuery", "PlanUnpaid", "Player",
    "PlayerChange", "PlayerFields", "Policy", "PolicyItem", "PolicyObject", "Query", "Reason",
    "ReasonCode", "ReduceModifier", "RemoveChange", "SetChange", "Spell", "SpellObject",
    "SpendColorItem", "SpendColorText", "State", "Step", "TapChange", "TriggerEffectInfo",
    "TriggerInfo", "Turn", "TurnChange", "UncertainSource", "Unpaid", "UnsupportedSource", "UntapChange",
    "UpdateQuery", "ValidateAnswer", "ValidateQuery", "Zone",
]


# -- markers the generator reads ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Limit:
    """The bound ``LIMITS[key]`` of the board schema: a string's length or an integer's maximum."""

    key: str


@dataclass(frozen=True, slots=True)
class Minimum:
    value: int


@dataclass(frozen=True, slots=True)
class Maximum:
    value: int


@dataclass(frozen=True, slots=True)
class OneOf:
    """The accepted strings, from the tuple the engine checks against."""

    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Pattern:
    regex: str


# -- values -------------------------------------------------------------------------------------

#: A color letter (CR 105.1).
Color = Literal["W", "U", "B", "R", "G"]
#: A mana type letter: the five colors and colorless (CR 106.1).
ManaType = Literal["W", "U", "B", "R", "G", "C"]
#: A cost in card notation, such as ``{2}{W/U}{B/P}``.
Cost = Annotated[str, Limit("mana_cost")]
#: Mana in card notation: only ``{W}{U}{B}{R}{G}{C}`` symbols (``""`` for none).
Mana = Annotated[str, Limit("pool")]
#: A name: of a player, a card, a permanent's id.
Name = Annotated[str, Limit("name")]
#: A session handle answered by ``open``.
BoardHandle = str
#: A caller's value echoed in the answer (any JSON but null).
JsonValue = object
Count = Annotated[int, Minimum(0)]
Life = Annotated[int, Minimum(0), Limit("life")]
Step = Annotated[str, OneOf(STEPS)]
Zone = Annotated[str, OneOf(ZONES)]
CastFor = Annotated[str, OneOf(CAST_FOR)]
Designation = Annotated[str, OneOf(DESIGNATIONS)]
#: Every REASON code: the payment's own and the two of casting (not castable at all, not now).
ReasonCode = Literal[PaymentReasonCode, "timing", "not_castable"]
#: Every error code.
ErrorCode = Literal["bad_cost", "bad_state", "unknown_card", "unknown_field", "unknown_board", "unsupported",
                    "bad_query"]
#: A policy item written as text: ``spend_color:{"G":3}``.
SpendColorText = Annotated[str, Pattern(r"^spend_color:")]


# -- the board ------------------------------------------------------------------------

class Characteristics(TypedDict, total=False):
    """A card: a name from the card database, or its characteristics (which override the
    database's when both are given).

    Fields:
      card: the card's name in the card database (exact, case-insensitive; the front face of a
        double-faced card), or a predefined token (Treasure, Gold, Powerstone, Eldrazi Spawn,
        Eldrazi Scion, Everywhere).
      name: the card's name, when its characteristics are given.
      type_line: the type line, such as "Creature — Elf".
      mana_cost: the mana cost in card notation.
      oracle_text: the rules text; mana abilities and cost modifiers are read from it.
      colors: the colors, when they differ from the mana cost's (a color indicator).
    """

    card: Name
    name: Name
    type_line: Annotated[str, Limit("type_line")]
    mana_cost: Cost
    oracle_text: Annotated[str, Limit("oracle_text")]
    colors: list[Color]


#: A card in a zone: its name, or its characteristics.
CardRef = Union[Name, Characteristics]


class Chosen(TypedDict, total=False):
    """What was chosen as the permanent entered (CR 614.12).

    Fields:
      color: a color letter or name (Coldsteel Heart, the Thriving lands).
      type: a creature type (Cavern of Souls).
      name: a card name (Alpine Moon).
    """

    color: Annotated[str, Limit("name")]
    type: Name
    name: Name


class PermanentFields(Characteristics, total=False):
    """A permanent's fields other than its ``id`` (what an ``update``'s ``set`` may change).

    Fields:
      controller: the player who controls it (default: the first player).
      tapped: true when it is tapped (default false).
      sick: true when it has not been under its controller's control continuously since their
        most recent turn began (CR 302.6); matters for {T} and {Q} abilities of creatures.
      haste: true when it has haste from an effect the board does not show.
      counters: counters on it by kind, such as {"time": 3} or {"charge": 2}.
      attached_to: the id of the permanent it is attached to (Wild Growth).
      cast_for: "impending" when it was cast for its impending cost (CR 702.176a).
      x: the X it was cast with.
      token: true for a token (default: true for the predefined tokens).
      chosen: what was chosen as it entered.
      imprinted: the cards exiled with it (Chrome Mox, Extraplanar Lens); where it is missing and
        an answer depends on it, the answer is unsupported naming this field.
      entered_this_turn: true when it entered the battlefield this turn (Alena, Kessig Trapper);
        where it is missing and an answer depends on it, the answer is unsupported naming this field.
      renowned: true when it is renowned (CR 702.112b; Honored Hierarch); where it is missing and
        an answer depends on it, the answer is unsupported naming this field.
      activated_this_turn: how many times each of its mana abilities, by index ("0"), was already
        activated this turn, for "Activate only once each turn" (CR 602.5b; Shire Scarecrow).
    """

    controller: Name
    tapped: bool
    sick: bool
    haste: bool
    counters: dict[str, Annotated[int, Minimum(0), Limit("counter")]]
    attached_to: Name
    cast_for: CastFor
    x: Annotated[int, Minimum(0), Limit("x")]
    token: bool
    chosen: Chosen
    imprinted: list[CardRef]
    entered_this_turn: bool
    renowned: bool
    activated_this_turn: dict[str, Annotated[int, Minimum(0), Maximum(1000)]]


class _PermanentId(TypedDict):
    """Fields:
      id: unique on the battlefield; payments name permanents by it.
    """

    id: Union[Name, int]


class Permanent(_PermanentId, PermanentFields):
    """A permanent on the battlefield: a card (by name or characteristics) and its state."""


class _LibrarySize(TypedDict):
    """Fields:
      size: how many cards the library holds.
    """

    size: Annotated[int, Minimum(0), Limit("library")]


class Library(_LibrarySize, total=False):
    """A player's library as far as it is known.

    Fields:
      top: its top cards in order, the top card first, as far as known (at most its size).
    """

    top: list[CardRef]


class PlayerFields(TypedDict, total=False):
    """A player's fields other than its ``name`` (what an ``update``'s ``player`` change may set).

    Fields:
      life: life total (default 20).
      starting_life: the life the player started with (default 20; Happily Ever After).
      energy: energy counters (default 0).
      pool: floating mana, such as "{R}{C}".
      hand: cards in hand: names or characteristics (Spirit Guides, keep_castable's default).
      graveyard: cards in the graveyard (delve, counts of card types).
      commander: the player's commanders, at most two (Command Tower, Arcane Signet).
      lands_played_this_turn: lands the player has played this turn (default 0; River of Tears).
      spells_cast_this_turn: spells the player has cast this turn (default 0).
      life_gained_this_turn: life the player has gained this turn (Accomplished Alchemist); where it is
        missing and an answer depends on it, the answer is unsupported naming this field.
      cards_drawn_this_turn: cards the player has drawn this turn (default 0; Kydele, Chosen of
        Kruphix).
      designations: which of "monarch", "initiative" and "city's blessing" the player has (the
        monarch and the initiative belong to one player at most); where it is missing and an answer
        depends on it, the answer is unsupported naming this field.
      library: the player's library: its size and, as far as known, its top cards (milling costs,
        "the top card of your library"); where it is missing and an answer depends on it, the
        answer is unsupported naming this field.
    """

    life: Life
    starting_life: Life
    energy: Life
    pool: Mana
    hand: list[CardRef]
    graveyard: list[CardRef]
    commander: list[CardRef]
    lands_played_this_turn: Life
    spells_cast_this_turn: Life
    life_gained_this_turn: Life
    cards_drawn_this_turn: Annotated[int, Minimum(0), Limit("library")]
    designations: list[Designation]
    library: Library


class _PlayerName(TypedDict):
    """Fields:
      name: the player's name, unique among the players.
    """

    name: Name


class Player(_PlayerName, PlayerFields):
    """A player of the board."""


class Turn(TypedDict, total=False):
    """Whose turn and step it is; timing is checked only when a board gives it.

    Fields:
      active: the name of the player whose turn it is (default: the first player).
      step: the step or phase (default "main1").
      stack_empty: true when the stack is empty (default true).
    """

    active: Name
    step: Step
    stack_empty: bool


class _StatePlayers(TypedDict):
    """Fields:
      players: the players; the first is the one the query is about unless it names "player".
    """

    players: list[Player]


class State(_StatePlayers, total=False):
    """A board.

    Fields:
      turn: whose turn and step it is (default: the first player's main phase, stack empty).
      battlefield: the permanents.
    """

    turn: Turn
    battlefield: list[Permanent]


# -- the cost context of a payment query -----------------------------------------------

class SpellObject(TypedDict, total=False):
    """What is being cast or activated: a known card and/or characteristics.

    Fields:
      card: the card's name; its cost, keywords and cost modifiers apply.
      types: card types, such as ["Instant"]; spending restrictions are checked against them.
      subtypes: subtypes, such as ["Elf"].
      supertypes: supertypes, such as ["Legendary"].
      colors: the spell's colors.
      ability: true when the cost is an activated ability's rather than a spell's.
    """

    card: Name
    types: list[str]
    subtypes: list[str]
    supertypes: list[str]
    colors: list[Color]
    ability: bool


class _AbilityIndex(TypedDict):
    """Fields:
      ability: the index of the permanent's non-mana activated ability in printed order, or
        its keyword ("equip", "unearth").
    """

    ability: Union[Annotated[int, Minimum(0)], str]


class AbilitySpell(_AbilityIndex, total=False):
    """An activated ability to activate; its cost is read from the card.

    Fields:
      permanent: the id of the permanent whose ability it is.
      card: a card in the hand or graveyard whose keyword ability it is (cycling, unearth).
    """

    permanent: Name
    card: Name


Spell = Union[SpellObject, AbilitySpell]


class IncreaseModifier(TypedDict):
    """Fields:
      increase: a cost added to the total (CR 601.2f).
    """

    increase: Cost


class ReduceModifier(TypedDict):
    """Fields:
      reduce: a cost taken off the total; colored excess comes off generic (CR 118.7c) and a
        hybrid reduction's half is chosen by the solver (118.7e).
    """

    reduce: Cost


class MinimumModifier(TypedDict):
    """Fields:
      minimum: the smallest total mana value the cost may have (Trinisphere).
    """

    minimum: Annotated[int, Minimum(0), Maximum(1000)]


Modifier = Union[IncreaseModifier, ReduceModifier, MinimumModifier]


class _AdditionalName(TypedDict):
    """Fields:
      name: the additional cost's keyword as printed on the card (kicker, multikicker, ...).
    """

    name: str


class AdditionalCost(_AdditionalName, total=False):
    """An additional cost paid more than once.

    Fields:
      times: how many times it is paid (multikicker, escalate, replicate).
    """

    times: Annotated[int, Minimum(0), Maximum(100)]


class SpendColorItem(TypedDict):
    """Fields:
      spend_color: the least mana of each color to spend (adamant), such as {"G": 3}.
    """

    spend_color: dict[Color, Count]


PolicyItem = Union[Criterion, SpendColorText, SpendColorItem]


class PolicyObject(TypedDict, total=False):
    """A policy with its settings.

    Fields:
      criteria: the criteria in order, compared lexicographically.
      keep_castable: the costs to keep payable afterwards (default: the cards in hand).
      spend_color: the least mana of each color to spend, such as {"G": 3}.
      weights: the caller's own integer weights per criterion; the criteria are then summed
        with these weights instead of compared in order.
    """

    criteria: list[PolicyItem]
    keep_castable: list[Cost]
    spend_color: dict[Color, Count]
    weights: dict[Criterion, Annotated[int, Minimum(0), Maximum(10**6)]]


#: A policy: criteria as a list or a comma-separated string, or an object with settings.
Policy = Union[list[PolicyItem], str, PolicyObject]
Backend = Literal["flow", "fastopt", "cpsat", "csp"]


# -- queries ------------------------------------------------------------------------------------

class _Common(TypedDict, total=False):
    """Fields:
      id: any value, echoed in the answer.
      player: the name of the player the query is about (default: the first player).
      cards: the path of a card file to read names from (batch and the Python API only; refused
        over HTTP, where the server's card file is chosen at start).
    """

    id: JsonValue
    player: Name
    cards: str


class _OnBoard(_Common, total=False):
    """Fields:
      state: the board.
      board: a board kept by "open", instead of state.
      changes: changes applied to the kept board first (with board).
    """

    state: State
    board: BoardHandle
    changes: list[Change]


class CastOptions(TypedDict, total=False):
    """What is cast and how, besides its cost and X: the cost context ``validate`` takes.

    Fields:
      spell: what is being cast or activated.
      modifiers: cost modifiers applied in the order of rule 601.2f.
      alternative: the name of an alternative cost printed on the card ("impending",
        "flashback", "evoke"), used instead of its mana cost.
      additional: additional costs printed on the card ("kicker", or {"name", "times"}).
      convoke: true to allow convoke (on by default for a known card with convoke).
      delve: true to allow delve.
      improvise: true to allow improvise.
    """

    spell: Spell
    modifiers: list[Modifier]
    alternative: str
    additional: list[Union[str, AdditionalCost]]
    convoke: bool
    delve: bool
    improvise: bool


class Sources(TypedDict, total=False):
    """What the player says about particular permanents, by id.

    Fields:
      require: permanents the payment must activate ("tap this one, the engine does the rest").
      exclude: permanents the payment never uses.
      preserve: permanents used only when nothing else pays (the preserve criterion, ranked
        right after no_sacrifice unless the policy names it elsewhere).
    """

    require: list[Name]
    exclude: list[Name]
    preserve: list[Name]


class CostOptions(CastOptions, total=False):
    """The cost context of a payment query besides its cost and X (the Python API's keywords).

    Fields:
      policy: what "best" means (default no_sacrifice, min_life, keep_castable,
        keep_colors, min_waste, prefer_lands, min_sources, use_pool).
      backend: the solver to use: flow, fastopt, cpsat or csp (default: the documented chain).
      sources: permanents required, excluded or preserved; a permanent both required and
        excluded, or required and unable to help pay, is the reason conflicting_sources.
    """

    policy: Policy
    backend: Backend
    sources: Sources


class _CostContext(CostOptions, total=False):
    """Fields:
      cost: the cost, in card notation; may be left out when spell names a card.
    """

    cost: Cost


class _PayQuery(TypedDict):
    """Fields:
      query: "pay".
    """

    query: Literal["pay"]


class PayQuery(_PayQuery, _OnBoard, _CostContext, total=False):
    """The best payment of a cost under the policy.

    Fields:
      x: a fixed value for X (default: the smallest legal X, 0).
      apply: with board, true to carry the payment out on the kept board, atomically: what it
        taps is tapped, what it sacrifices is gone, life, energy and the pool change.
    """

    x: Count
    apply: bool


class _CanPayQuery(TypedDict):
    """Fields:
      query: "can_pay".
    """

    query: Literal["can_pay"]


class CanPayQuery(_CanPayQuery, _OnBoard, _CostContext, total=False):
    """Whether the cost can be paid, and if not, what is missing.

    Fields:
      x: a fixed value for X (default 0).
    """

    x: Count


class _PaymentsQuery(TypedDict):
    """Fields:
      query: "payments".
    """

    query: Literal["payments"]


class PaymentsQuery(_PaymentsQuery, _OnBoard, _CostContext, total=False):
    """Every distinct way to pay the cost, up to limit.

    Fields:
      x: a fixed value for X (default 0).
      limit: the most payments listed (default 100).
    """

    x: Count
    limit: Annotated[int, Minimum(1), Maximum(100_000)]


class _MaxXQuery(TypedDict):
    """Fields:
      query: "max_x".
    """

    query: Literal["max_x"]


class MaxXQuery(_MaxXQuery, _OnBoard, _CostContext, total=False):
    """The largest X for which the cost (which has {X}) can be paid."""


class _OptionsQuery(TypedDict):
    """Fields:
      query: "options".
    """

    query: Literal["options"]


class OptionsQuery(_OptionsQuery, _OnBoard, total=False):
    """Every maximal pool of mana the player can have at once by activating mana abilities now.

    Fields:
      limit: the most pools listed (default 100).
      detail: true to list each pool as an object with its restricted part.
    """

    limit: Annotated[int, Minimum(1), Maximum(100_000)]
    detail: bool


class _CouldProduceQuery(TypedDict):
    """Fields:
      query: "could_produce".
    """

    query: Literal["could_produce"]


class CouldProduceQuery(_CouldProduceQuery, _OnBoard, total=False):
    """The mana types each permanent with a mana ability could produce (CR 106.7).

    Fields:
      detail: true to answer also why: the chain of permanents each type comes from.
    """

    detail: bool


class _ValidateQuery(TypedDict):
    """Fields:
      query: "validate".
      payment: the payment to check, a PAYMENT object (as pay answers it, or written by the
        caller: a player clicking lands).
    """

    query: Literal["validate"]
    payment: Payment


class ValidateQuery(_ValidateQuery, _OnBoard, CastOptions, total=False):
    """Whether a payment is legal and complete for the cost.

    Fields:
      cost: the cost, in card notation; may be left out when spell names a card.
      x: the X the payment is for.
    """

    cost: Cost
    x: Count


class _ManaValueQuery(TypedDict):
    """Fields:
      query: "mana_value".
    """

    query: Literal["mana_value"]


class ManaValueQuery(_ManaValueQuery, _Common, total=False):
    """The mana value and colors of a cost or a card (CR 202.3).

    Fields:
      cost: the cost, in card notation (give cost or card).
      card: a card's name.
      zone: the zone the object is in; on the "stack" X counts as chosen (CR 202.3e).
      x: the value of X on the stack.
    """

    cost: Cost
    card: Name
    zone: Zone
    x: Count


class _CountsQuery(TypedDict):
    """Fields:
      query: "counts".
    """

    query: Literal["counts"]


class CountsQuery(_CountsQuery, _OnBoard, total=False):
    """Board counts that come from mana symbols and types: colors among permanents, card types,
    devotion, domain."""


class _CardQuery(TypedDict):
    """Fields:
      query: "card".
      card: the card's name.
    """

    query: Literal["card"]
    card: Name


class CardQuery(_CardQuery, _Common, total=False):
    """The card as the engine reads it."""


class PlanCost(CastOptions, total=False):
    """One cost of a plan, with its own cost context (the policy is the plan's).

    Fields:
      cost: the cost, in card notation; may be left out when spell names a card.
      x: a fixed value for X (default 0).
    """

    cost: Cost
    x: Count


class _PlanQuery(TypedDict):
    """Fields:
      query: "plan".
      costs: the costs (1 to 20), cast one after another in this order this step.
    """

    query: Literal["plan"]
    costs: list[PlanCost]


class PlanQuery(_PlanQuery, _OnBoard, total=False):
    """Several costs paid one after another this step, each from what the ones before it left,
    optimal for the whole sequence.

    Fields:
      policy: what "best" means for the whole sequence: sacrifices, life, damage and sources
        summed over the plan, unspent mana and keep_castable/keep_colors read at its end.
      apply: with board, true to carry the plan's payments out on the kept board, in order and
        atomically.
      sources: permanents no cost of the plan uses (exclude), that some cost activates (require), used
        as little as the policy allows over the whole plan (preserve).
    """

    policy: Policy
    apply: bool
    sources: Sources


class PartialStep(TypedDict, total=False):
    """One activation a player made by hand.

    Fields:
      permanent: the id of the permanent activated; "hand:<i>" for a card's ability from the hand
        (Simian Spirit Guide), i its index in the hand the query gives.
      ability: the index of its mana ability (default 0).
      mana: the mana it added, when it can add more than one thing ("{G}").
      sacrificed: the other permanents its cost sacrificed (Ashnod's Altar), one id per sacrifice.
      tapped: the other permanents its cost tapped (Springleaf Drum).
    """

    permanent: Name
    ability: Annotated[int, Minimum(0)]
    mana: str
    sacrificed: list[Name]
    tapped: list[Name]


class _GuideQuery(TypedDict):
    """Fields:
      query: "guide".
    """

    query: Literal["guide"]


class GuideQuery(_GuideQuery, _OnBoard, CastOptions, total=False):
    """Paying by hand: which activations, made next, keep the cost payable, and the best payment
    that extends the activations made so far.

    Fields:
      cost: the cost, in card notation; may be left out when spell names a card.
      policy: what "best" means for the completion.
      sources: permanents required, excluded or preserved.
      x: a fixed value for X (default 0).
      partial: the activations made so far, in order.
    """

    cost: Cost
    policy: Policy
    sources: Sources
    x: Count
    partial: list[PartialStep]


class _OpenQuery(TypedDict):
    """Fields:
      query: "open".
      state: the board to keep.
    """

    query: Literal["open"]
    state: State


class OpenQuery(_OpenQuery, _Common, total=False):
    """Keep a board in the process; later queries name it by its handle."""


class _UpdateQuery(TypedDict):
    """Fields:
      query: "update".
      board: the handle of the kept board.
      changes: the changes, applied in order and atomically.
    """

    query: Literal["update"]
    board: BoardHandle
    changes: list[Change]


class UpdateQuery(_UpdateQuery, _Common, total=False):
    """Change a kept board."""


class _CloseQuery(TypedDict):
    """Fields:
      query: "close".
      board: the handle of the kept board.
    """

    query: Literal["close"]
    board: BoardHandle


class CloseQuery(_CloseQuery, _Common, total=False):
    """Forget a kept board."""


class PaymentOptions(CostOptions, total=False):
    """The keywords of the Python API's payment queries: the cost context, X and the common fields.

    Fields:
      x: a fixed value for X.
      player: the name of the player the query is about (default: the first player).
      cards: the path of a card file to read names from.
      changes: with a board handle, changes applied to the kept board first.
    """

    x: Count
    player: Name
    cards: str
    changes: list[Change]


# -- changes to a kept board ---------------------------------------------------------------------

class TapChange(TypedDict):
    """Fields:
      tap: the id of the permanent to tap.
    """

    tap: Name


class UntapChange(TypedDict):
    """Fields:
      untap: the id of the permanent to untap.
    """

    untap: Name


class AddChange(TypedDict):
    """Fields:
      add: the permanent to add to the battlefield.
    """

    add: Permanent


class RemoveChange(TypedDict):
    """Fields:
      remove: the id of the permanent to remove.
    """

    remove: Name


class SetChange(TypedDict):
    """Fields:
      set: the id of the permanent to change.
      fields: its fields to set.
    """

    set: Name
    fields: PermanentFields


class PlayerChange(TypedDict):
    """Fields:
      player: the name of the player to change.
      fields: the player's fields to set.
    """

    player: Name
    fields: PlayerFields


class TurnChange(TypedDict):
    """Fields:
      turn: the new turn.
    """

    turn: Turn


Change = Union[TapChange, UntapChange, AddChange, RemoveChange, SetChange, PlayerChange, TurnChange]

Query = Union[PayQuery, CanPayQuery, PaymentsQuery, MaxXQuery, OptionsQuery, CouldProduceQuery, ValidateQuery,
              ManaValueQuery, CountsQuery, CardQuery, PlanQuery, GuideQuery, OpenQuery, UpdateQuery, CloseQuery]


# -- PAYMENT ------------------------------------------------------------------------------------

class Choice(TypedDict):
    """How one announced symbol of the cost is paid (CR 601.2b).

    Fields:
      symbol: the symbol as printed, such as "{2/W}" or "{B/P}".
      paid_as: what it is paid with: a mana symbol ("{W}", "{2}", "{C}") or "life".
    """

    symbol: str
    paid_as: str


class _ActivationRequired(TypedDict):
    """Fields:
      ability: the index of the mana ability among the permanent's mana abilities in printed
        order (basic land types' intrinsic abilities first; the card query lists them).
      costs: the cost parts paid: "{T}", "sacrifice", mana symbols ("{1}" for a filter land),
        "pay 1 life", ...
      mana: the mana it added.
    """

    ability: Annotated[int, Minimum(0)]
    costs: list[str]
    mana: str


class Activation(_ActivationRequired, total=False):
    """One activation of a mana ability.

    Fields:
      permanent: the id of the permanent activated (absent for a card in the hand).
      hand: for an ability activated from the hand (Simian Spirit Guide), the card's index in
        the player's hand (in a plan, the hand as the payments before it left it).
      card: with hand, the card's name.
      times: how many times the same ability is activated (default 1; accepted in a payment to
        validate).
      sacrificed: the other permanents its cost sacrificed, one id per sacrifice (Ashnod's
        Altar: "Sacrifice a creature"), and the cards it discarded or exiled from the hand or
        graveyard as ``hand:<i>`` / ``graveyard:<i>`` (their index there; Skirge Familiar,
        Titans' Nest).
      tapped: the untapped permanents its cost tapped (Springleaf Drum, Heritage Druid).
    """

    permanent: Name
    hand: Annotated[int, Minimum(0)]
    card: Name
    times: Annotated[int, Minimum(1), Maximum(1000)]
    sacrificed: list[Name]
    tapped: list[Name]


class _PaymentRequired(TypedDict):
    """Fields:
      total: the mana part of the total cost after choices and modifiers.
      choices: what each hybrid, monocolored hybrid and Phyrexian symbol was paid as.
      x: the value of X paid.
      activations: the mana abilities activated, in order.
      pool_used: floating mana spent.
      convoked: the creatures tapped for convoke.
      delved: the names of the graveyard cards exiled for delve.
      improvised: the artifacts tapped for improvise.
      life: life paid (Phyrexian symbols, "Pay 1 life" costs).
      energy: energy paid.
      damage: damage the sources dealt to their controller (pain lands).
      floating: mana produced and not spent.
    """

    total: str
    choices: list[Choice]
    x: Count
    activations: list[Activation]
    pool_used: str
    convoked: list[Name]
    delved: list[Name]
    improvised: list[Name]
    life: Count
    energy: Count
    damage: Count
    floating: str


class PaidBy(TypedDict, total=False):
    """What paid a symbol: exactly one of the fields.

    Fields:
      activation: the index of the activation in the payment's activations.
      pool: true: mana that was floating before the payment.
      life: the life paid for a Phyrexian symbol.
      convoke: the id of the creature convoked.
      delve: the name of the card delved.
      improvise: the id of the artifact improvised.
    """

    activation: Annotated[int, Minimum(0)]
    pool: Literal[True]
    life: Count
    convoke: Name
    delve: Name
    improvise: Name


class AllocationEntry(TypedDict):
    """Fields:
      symbol: a symbol of the total ("{1}" for each generic mana), or a Phyrexian symbol paid
        with life.
      paid_by: what paid it.
    """

    symbol: str
    paid_by: PaidBy


Warning = Literal["sacrifices", "pays_life", "deals_damage", "spends_energy", "floats_mana", "uses_preserved",
                  "discards", "exiles"]


class Payment(_PaymentRequired, total=False):
    """A complete payment of a cost (PAYMENT), a plan a client can carry out step by step:
    its activations are in an order that can be executed (every activation's own mana cost paid by
    mana the pool or earlier activations made).

    Fields:
      spent: the mana that paid the total, convoke excluded; only when the policy asks about
        colors spent (max_colors_spent, spend_color).
      colors_spent: the colors among the mana spent (converge, sunburst, adamant); with spent.
      allocation: for every symbol of the total, in order (generic mana one {1} each), and every
        Phyrexian symbol paid with life, what paid it; given in a payment to validate, it is checked.
      warnings: what a player would want to be told before confirming it.
      score: the policy's criteria in its order with their values for this payment, as
        [name, value] pairs: payments compare as the engine compared them.
    """

    spent: str
    colors_spent: list[Color]
    allocation: list[AllocationEntry]
    warnings: list[Warning]
    score: list[list[Union[str, int]]]


class _ReasonRequired(TypedDict):
    """Fields:
      code: why: insufficient_mana, insufficient_life, insufficient_energy, restricted_mana
        (payable if restricted mana could be spent), no_legal_x, timing (not now),
        not_castable (not at all: no mana cost, two alternative costs, ...), conflicting_sources
        (a permanent both required and excluded, or required and unable to help pay),
        illegal_partial (guide: the activations made so far are not legal).
      message: the reason in words.
    """

    code: ReasonCode
    message: str


class Reason(_ReasonRequired, total=False):
    """Why a cost can't be paid (REASON).

    Fields:
      missing: where it applies, the smallest cost that added sources would have to cover.
      proved: false when the time bound cut the search for the reason short: the cost was not
        paid within it, and missing is then not proven the least (the answer says time_bound).
      where: for illegal_partial, the first bad step of guide's partial ("partial[1]").
    """

    missing: Cost
    proved: Literal[False]
    where: str


class UncertainSource(TypedDict):
    """A source whose mana depends on chance or on another player's choice (Rhystic Cave's "unless
    any player pays {1}"), counted as the least it can give: no payment relies on it.

    Fields:
      permanent: its id.
      reason: what its mana depends on.
    """

    permanent: str
    reason: str


class UnsupportedSource(TypedDict):
    """A source the engine left out because it does not model it.

    Fields:
      permanent: its id (or the hand card's name).
      reason: what is not modelled.
    """

    permanent: str
    reason: str


class _ActivatingRequired(TypedDict):
    """Fields:
      ability: the ability's index among the card's non-mana activated abilities.
      text: the ability's text.
      costs: its cost parts, mana and others ("{T}", "Pay six {E}").
    """

    ability: Annotated[int, Minimum(0)]
    text: str
    costs: list[str]


class Activating(_ActivatingRequired, total=False):
    """The activated ability a payment query is about.

    Fields:
      permanent: the id of the permanent whose ability it is.
      card: for an ability of a card in a hand or graveyard, the card's name.
      zone: with card, the zone it is activated from.
      keyword: the ability's keyword (equip, unearth, cycling).
    """

    permanent: Name
    card: Name
    zone: Zone
    keyword: str


# -- answers ------------------------------------------------------------------------------------

class _Answer(TypedDict, total=False):
    """Fields:
      id: the query's id, echoed when given.
    """

    id: JsonValue


class ErrorInfo(TypedDict):
    """An error of input.

    Fields:
      code: the kind of error.
      message: what is wrong, naming the input.
      where: the path of the offending field, such as "battlefield[3].card" or "cost[1]"
        ("" when it is the query as a whole).
    """

    code: ErrorCode
    message: str
    where: str


class ErrorAnswer(_Answer):
    """The answer to a query the engine refuses (any query may answer it).

    Fields:
      error: what is wrong, and where.
    """

    error: ErrorInfo


class _PaidRequired(_Answer):
    """Fields:
      payable: true.
      payment: the best payment under the policy.
    """

    payable: Literal[True]
    payment: Payment


class _Activated(TypedDict, total=False):
    """Fields:
      activating: the activated ability asked about, when spell names one.
    """

    activating: Activating


class Paid(_PaidRequired, _Activated, total=False):
    """``pay``: a payment was found.

    Fields:
      time_bound: true when the optimiser stopped at its time bound: the payment is legal, its
        optimality not proven.
      unsupported: sources left out because the engine does not model them: the payment is
        legal, and optimal among the modelled sources.
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (the payment does not rely on them).
      applied: with "apply": true, whether the payment was carried out on the kept board.
    """

    time_bound: Literal[True]
    unsupported: list[UnsupportedSource]
    uncertain: list[UncertainSource]
    applied: bool


class _UnpaidRequired(_Answer):
    """Fields:
      payable: false.
      reason: why the cost can't be paid.
    """

    payable: Literal[False]
    reason: Reason


class Unpaid(_UnpaidRequired, _Activated, total=False):
    """``pay``: the cost can't be paid.

    Fields:
      time_bound: true when the time bound cut the search short (the reason says proved: false).
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing): the cost may be payable if they give more.
      applied: with "apply": true, false: nothing was carried out.
    """

    time_bound: Literal[True]
    uncertain: list[UncertainSource]
    applied: Literal[False]


PayAnswer = Union[Paid, Unpaid]


class _Payable(_Answer):
    """Fields:
      payable: true.
    """

    payable: Literal[True]


class Payable(_Payable, _Activated, total=False):
    """``can_pay``: the cost can be paid.

    Fields:
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing).
    """

    uncertain: list[UncertainSource]


class _NotPayable(_Answer):
    """Fields:
      payable: false.
    """

    payable: Literal[False]


class NotPayable(_NotPayable, _Activated, total=False):
    """``can_pay``: the cost can't be paid.

    Fields:
      reason: why (given whenever the engine can tell).
      time_bound: true when the time bound cut the search short (the reason says proved: false).
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing).
    """

    reason: Reason
    time_bound: Literal[True]
    uncertain: list[UncertainSource]


CanPayAnswer = Union[Payable, NotPayable]


class _PaymentsRequired(_Answer):
    """Fields:
      payments: the distinct payments, up to limit.
      complete: true when the list holds every payment.
    """

    payments: list[Payment]
    complete: bool


class PaymentsAnswer(_PaymentsRequired, _Activated, total=False):
    """``payments``: every distinct way to pay.

    Fields:
      reason: when the spell can't be cast at all or not now (the list is then empty).
      time_bound: true when the time bound cut the enumeration short (complete is then false).
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing).
    """

    reason: Reason
    time_bound: Literal[True]
    uncertain: list[UncertainSource]


class _MaxXFound(_Answer):
    """Fields:
      max_x: the largest X.
      payment: a payment with that X.
    """

    max_x: Count
    payment: Payment


class MaxXFound(_MaxXFound, _Activated, total=False):
    """``max_x``: the largest X that can be paid.

    Fields:
      time_bound: true when the optimiser stopped at its time bound.
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing).
    """

    time_bound: Literal[True]
    uncertain: list[UncertainSource]


class _MaxXNone(_Answer):
    """Fields:
      max_x: null: even X=0 can't be paid.
      reason: why.
    """

    max_x: None
    reason: Reason


class MaxXNone(_MaxXNone, _Activated, total=False):
    """``max_x``: no X can be paid.

    Fields:
      time_bound: true when the time bound cut the search short (the reason says proved: false).
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing).
    """

    time_bound: Literal[True]
    uncertain: list[UncertainSource]


MaxXAnswer = Union[MaxXFound, MaxXNone]


class DetailedOption(TypedDict):
    """A pool, with detail.

    Fields:
      mana: the pool, in WUBRGC order, such as "{W}{U}{U}{C}".
      restricted: the part of it with a spending restriction (CR 106.6), "" for none.
    """

    mana: Mana
    restricted: Mana


class _OptionsRequired(_Answer):
    """Fields:
      options: the maximal pools, largest first: mana strings, or objects with detail.
      complete: true when the list holds every maximal pool.
    """

    options: Union[list[Mana], list[DetailedOption]]
    complete: bool


class OptionsAnswer(_OptionsRequired, total=False):
    """``options``: every maximal pool.

    Fields:
      unsupported: permanents left out because the engine does not model them (the answer is
        then not complete).
      bounded: true when the time or size bound cut the search short.
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing): no listed pool relies on them.
    """

    unsupported: list[UnsupportedSource]
    bounded: Literal[True]
    uncertain: list[UncertainSource]


class _CouldProduceRequired(_Answer):
    """Fields:
      could_produce: for every permanent with a mana ability, by id, the mana types it could
        produce.
    """

    could_produce: dict[str, list[ManaType]]


class CouldProduceAnswer(_CouldProduceRequired, total=False):
    """``could_produce`` (CR 106.7).

    Fields:
      why: with detail, for each permanent and type, the chain of ids through the source graph
        (a Reflecting Pool's blue comes from an Island).
    """

    why: dict[str, dict[ManaType, list[str]]]


class ValidateAnswer(_Answer):
    """``validate``: is the payment legal and complete.

    Fields:
      legal: true when it is.
      problems: what is wrong with it, in words.
    """

    legal: bool
    problems: list[str]


class ManaValueAnswer(_Answer):
    """``mana_value``.

    Fields:
      mana_value: the mana value (CR 202.3).
      colors: the colors (CR 105.2).
    """

    mana_value: Count
    colors: list[Color]


class Devotion(TypedDict):
    """Devotion to each color (CR 700.5).

    Fields:
      W: devotion to white.
      U: devotion to blue.
      B: devotion to black.
      R: devotion to red.
      G: devotion to green.
    """

    W: Count
    U: Count
    B: Count
    R: Count
    G: Count


class CountsAnswer(_Answer):
    """``counts``.

    Fields:
      colors_among_permanents: the colors among the player's permanents.
      card_types: the card types among the player's permanents and graveyard cards (lower case).
      devotion: devotion to each color.
      domain: the number of basic land types among the player's lands.
    """

    colors_among_permanents: list[Color]
    card_types: list[str]
    devotion: Devotion
    domain: Count


class _ManaAbilityRequired(TypedDict):
    """Fields:
      index: its index (what a payment's activation names).
      cost: its cost parts.
      produces: what it may produce, each option in words or symbols ("{G}", "{any color}").
    """

    index: Annotated[int, Minimum(0)]
    cost: list[str]
    produces: list[str]


class ManaAbilityInfo(_ManaAbilityRequired, total=False):
    """A mana ability as the engine reads it.

    Fields:
      notes: what else it does or needs, in words.
      damage_to_you: damage it deals to its controller (pain lands).
      restriction: the spending restriction of its mana (CR 106.6).
      intrinsic: true for a basic land type's intrinsic ability (CR 305.6).
      text: the ability as printed.
    """

    notes: list[str]
    damage_to_you: Count
    restriction: str
    intrinsic: Literal[True]
    text: str


class _ActivatedRequired(TypedDict):
    """Fields:
      index: its index (what spell.ability names).
      text: the ability as printed.
      zone: where it is activated from.
      costs: its cost parts.
    """

    index: Annotated[int, Minimum(0)]
    text: str
    zone: Zone
    costs: list[str]


class ActivatedAbilityInfo(_ActivatedRequired, total=False):
    """A non-mana activated ability (CR 602).

    Fields:
      keyword: its keyword (equip, cycling, unearth).
      sorcery_speed: true when it can be activated only as a sorcery.
      unsupported_cost: the part of its cost the engine could not read.
    """

    keyword: str
    sorcery_speed: Literal[True]
    unsupported_cost: str


class _EffectRequired(TypedDict):
    """Fields:
      kind: what it does: energy, token, damage, lose_life, life, mana or win.
    """

    kind: EffectKind


class TriggerEffectInfo(_EffectRequired, total=False):
    """One effect of a triggered ability.

    Fields:
      amount: how much energy, damage, life or how many tokens.
      token: the token's name.
      tapped: true when the tokens enter tapped.
      who: whom it affects, when not the controller ("each", "enchanted").
      options: for mana, each option it may add.
    """

    amount: int
    token: str
    tapped: bool
    who: str
    options: list[str]


class _TriggerRequired(TypedDict):
    """Fields:
      event: when it triggers ("other": not read).
      text: the ability as printed, without reminder text.
      effects: its effects, in order.
    """

    event: TriggerEvent
    text: str
    effects: list[TriggerEffectInfo]


class TriggerInfo(_TriggerRequired, total=False):
    """A triggered ability (CR 603).

    Fields:
      condition: its intervening "if" condition.
      also_attacks: true when it also triggers on attacking.
      mana_ability: for a trigger that adds mana, whether it is a mana ability (CR 605.1b).
      unsupported: what was not understood.
    """

    condition: str
    also_attacks: Literal[True]
    mana_ability: bool
    unsupported: str


class _CardInfoRequired(TypedDict):
    """Fields:
      name: the card's name.
      mana_cost: its mana cost, null when it has none.
      mana_value: its mana value.
      colors: its colors.
      type_line: its type line.
      mana_abilities: its mana abilities, by index.
    """

    name: str
    mana_cost: Union[str, None]
    mana_value: Count
    colors: list[Color]
    type_line: str
    mana_abilities: list[ManaAbilityInfo]


class CardInfo(_CardInfoRequired, total=False):
    """A card as the engine reads it (the object ``manasolver card NAME --json`` prints).

    Fields:
      alternative_costs: alternative costs by name, such as {"flashback": "{4}{R}"}.
      additional_costs: additional costs by name, such as {"kicker": "{1}{G}"}.
      activated_abilities: its other activated abilities.
      triggers: its triggered abilities that matter for mana and energy.
      keywords: its keywords (lower case).
      unsupported: the clauses of its text the engine could not read.
    """

    alternative_costs: dict[str, str]
    additional_costs: dict[str, str]
    activated_abilities: list[ActivatedAbilityInfo]
    triggers: list[TriggerInfo]
    keywords: list[str]
    unsupported: list[str]


class CardAnswer(_Answer):
    """``card``.

    Fields:
      card: the card.
    """

    card: CardInfo


class _PlanPaid(_Answer):
    """Fields:
      payable: true.
      payments: one payment per cost, in order, each paid from what the ones before it left.
    """

    payable: Literal[True]
    payments: list[Payment]


class PlanPaid(_PlanPaid, total=False):
    """``plan``: every cost can be paid in order.

    Fields:
      time_bound: true when the optimiser stopped at its time bound: the plan is legal, its
        optimality not proven.
      unsupported: sources left out because the engine does not model them: the plan is
        legal, and optimal among the modelled sources.
      applied: with "apply": true, whether the payments were carried out on the kept board.
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing): no payment relies on them.
    """

    time_bound: Literal[True]
    unsupported: list[UnsupportedSource]
    applied: bool
    uncertain: list[UncertainSource]


class _PlanUnpaid(_Answer):
    """Fields:
      payable: false.
      reason: why.
      index: the first cost that no plan reaches.
    """

    payable: Literal[False]
    reason: Reason
    index: Count


class PlanUnpaid(_PlanUnpaid, total=False):
    """``plan``: the sequence can't be paid.

    Fields:
      time_bound: true when the time bound cut the search short (the reason says proved: false).
      uncertain: sources whose mana depends on chance or another player's choice, counted as the
        least they can give (nothing): the cost may be payable if they give more.
      applied: with "apply": true, false: nothing was carried out.
    """

    time_bound: Literal[True]
    uncertain: list[UncertainSource]
    applied: Literal[False]


PlanAnswer = Union[PlanPaid, PlanUnpaid]


class _NextActivation(TypedDict):
    """Fields:
      permanent: the id of the permanent.
      ability: the index of its mana ability.
      mana: the mana it adds this way.
    """

    permanent: Name
    ability: Annotated[int, Minimum(0)]
    mana: str


class NextActivation(_NextActivation, total=False):
    """An activation a client may light up.

    Fields:
      sacrificed: the other permanents its cost sacrifices this way (Ashnod's Altar).
      tapped: the other permanents its cost taps this way (Springleaf Drum).
    """

    sacrificed: list[Name]
    tapped: list[Name]


class _GuideRequired(_Answer):
    """Fields:
      completable: whether the cost can still be paid after the activations made so far.
      next: exactly the activations that, made next, still leave the cost payable.
    """

    completable: bool
    next: list[NextActivation]


class GuideAnswer(_GuideRequired, total=False):
    """``guide``.

    Fields:
      completion: the best payment of the whole cost that extends the activations made so far.
      reason: why it can't be completed; code illegal_partial, with where naming the first bad
        step, when the activations made so far are not legal.
    """

    completion: Payment
    reason: Reason


class BoardAnswer(_Answer):
    """``open`` and ``update``.

    Fields:
      board: the handle of the kept board.
    """

    board: BoardHandle


class CloseAnswer(_Answer):
    """``close``.

    Fields:
      closed: true.
    """

    closed: Literal[True]


class Health(TypedDict):
    """``GET /healthz``.

    Fields:
      status: "ok".
      version: the installed version.
    """

    status: Literal["ok"]
    version: str


class CardEntry(TypedDict):
    """A card found by the playground's name search.

    Fields:
      name: the card's name.
      mana_cost: its mana cost ("" for none).
      type_line: its type line.
    """

    name: str
    mana_cost: str
    type_line: str


class CardSearch(TypedDict):
    """``GET /v1/cards?q=…&limit=…&zone=…``: card names for the playground page, completed from the
    card database and ranked for the zone the card goes to.

    Fields:
      query: the search as given.
      cards: the cards found, best first, up to limit.
      more: true when more cards match than were listed.
    """

    query: str
    cards: list[CardEntry]
    more: bool


class ExampleQuestion(TypedDict):
    """Fields:
      text: the question in words.
      query: the query that asks it.
    """

    text: str
    query: Query


class ExampleBoard(TypedDict):
    """A bundled example board with the questions the demo asks of it.

    Fields:
      name: the board's name (example:NAME on the command line).
      state: the board.
      questions: the demo's questions about it.
    """

    name: str
    state: State
    questions: list[ExampleQuestion]


class Examples(TypedDict):
    """``GET /v1/examples``: the bundled example boards.

    Fields:
      examples: the boards, by name.
    """

    examples: list[ExampleBoard]


Answer = Union[Paid, Unpaid, Payable, NotPayable, PaymentsAnswer, MaxXFound, MaxXNone, OptionsAnswer,
               CouldProduceAnswer, ValidateAnswer, ManaValueAnswer, CountsAnswer, CardAnswer, PlanPaid,
               PlanUnpaid, GuideAnswer, BoardAnswer, CloseAnswer, ErrorAnswer]

#: Each query's definition, by its name.
QUERIES: dict[str, type] = {
    "pay": PayQuery, "can_pay": CanPayQuery, "payments": PaymentsQuery, "max_x": MaxXQuery,
    "options": OptionsQuery, "could_produce": CouldProduceQuery, "validate": ValidateQuery,
    "mana_value": ManaValueQuery, "counts": CountsQuery, "card": CardQuery, "plan": PlanQuery,
    "guide": GuideQuery, "open": OpenQuery, "update": UpdateQuery, "close": CloseQuery,
}

#: The answers each query may give besides :class:`ErrorAnswer`, by the query's name.
ANSWERS: dict[str, tuple[type, ...]] = {
    "pay": (Paid, Unpaid), "can_pay": (Payable, NotPayable), "payments": (PaymentsAnswer,),
    "max_x": (MaxXFound, MaxXNone), "options": (OptionsAnswer,), "could_produce": (CouldProduceAnswer,),
    "validate": (ValidateAnswer,), "mana_value": (ManaValueAnswer,), "counts": (CountsAnswer,),
    "card": (CardAnswer,), "plan": (PlanPaid, PlanUnpaid), "guide": (GuideAnswer,), "open": (BoardAnswer,),
    "update": (BoardAnswer,), "close": (CloseAnswer,),
}
