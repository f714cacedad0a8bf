"""Mana abilities whose cost spends other permanents or cards, read apart from the parser.

Heritage Druid ("Tap three untapped Elves you control: Add {G}{G}{G}."), Birchlore Rangers,
Seton, Krosan Protector ("Tap an untapped Druid you control: Add {G}."), Urza, Lord High
Artificer ("Tap an untapped artifact you control: Add {U}."), Moonsnare Prototype ("{T},
Tap an untapped artifact or creature you control: Add {C}."), Grand Architect ("Tap an
untapped blue creature you control: Add {C}{C}." with its spending restriction).  The oracle
parser leaves these clauses in ``Card.unsupported`` (only Springleaf Drum's "{T}, Tap an
untapped creature you control" becomes ``AbilityCost.tap_creatures``); this module reads them
apart from the parser, as :class:`TapCost` values: the ability (its cost without the tapping
part), the types any of which each tapped permanent must have, and how many are tapped.

Rules: tapping an untapped permanent is a cost any untapped permanent of the type can pay,
summoning sick or not (CR 302.6 restricts only the {T} and {Q} abilities of the creature
itself; Heritage Druid rulings); each permanent is tapped once (it is tapped afterwards,
CR 118.3, 701.26a), and Heritage Druid may tap itself.  Filters read: a card type or a
subtype, "artifact or creature", and a color before "creature" ("an untapped blue creature":
the type ``"blue creature"``).

The same reading covers the other costs the parser leaves unread, whose resources are on the
board: a card of the hand discarded or exiled ("Discard a card", Skirge Familiar, Bog
Witch, Overeager Apprentice; "Exile a card from your hand", Cadaverous Bloom: the sacrifice kind
:data:`~manasolver.models.abilities.HAND_CARD`, CR 701.9a, 118.3), a card exiled from the
graveyard (Titans' Nest: :data:`~manasolver.models.abilities.GRAVEYARD_CARD`), a token by
subtype or name (Diamond Kaleidoscope's "Sacrifice a Prism token", Jungle Patrol's "Sacrifice a
token named Wood"), and exiling the source itself or returning it to the hand (Mirrored Lotus,
Grinning Ignus: it leaves the battlefield as by "sacrifice ~", CR 400.7; Ignus's "Activate only as
a sorcery" is applied by the payment queries from the board's turn).  A permanent sacrificed or
exiled for mana by its mana value (Priest of Yawgmoth, Soldevi Adnate, Food Chain) is a sacrifice
kind with an amount chosen on activation (``Amount("sacrificed_mana_value")``: the player chooses
the permanent, and so the amount).  Costs whose resource the board does not hold are read with
:attr:`AbilityCost.unmodelled` saying why (milling needs the library; untapping an opponent's
land; another "Activate only as a sorcery/instant"), so the supply leaves the permanent out naming
the clause and the reason, and could-produce (CR 106.7, which ignores costs) still sees the
mana.

>>> from manasolver.models.card import Card
>>> druid = Card("Heritage Druid", unsupported=("Tap three untapped Elves you control: Add {G}{G}{G}.",))
>>> [(t.types, t.count, t.ability.production.options) for t in tap_costs(druid)]
[(('elf',), 3, ((16, 16, 16),))]
>>> skirge = Card("Skirge Familiar", unsupported=("Discard a card: Add {B}.",))
>>> [(t.ability.cost.sacrifice, t.parts) for t in tap_costs(skirge)]
[(('card in your hand',), ('discard a card',))]
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from manasolver.models.abilities import (
    GRAVEYARD_CARD,
    Amount,
    HAND_CARD,
    AbilityCost,
    ManaAbility,
    Production,
    Restriction,
)
from manasolver.models.card_text import TapCost
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import ANY_COLOR, TYPE_BITS, mask_from_letters

__all__ = ["RETURN_SELF", "TapCost", "is_tap_cost_clause", "read_tap_costs", "tap_costs", "tap_costs_after"]

_COUNTS = {"an": 1, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
#: Plural and singular spellings of the filters read, to the lower-case type or subtype.
_TYPES = {"creature": "creature", "creatures": "creature", "artifact": "artifact", "artifacts": "artifact",
          "elf": "elf", "elves": "elf", "druid": "druid", "druids": "druid", "goblin": "goblin",
          "goblins": "goblin", "merfolk": "merfolk", "land": "land", "lands": "land",
          "food": "food", "foods": "food",
          # filters fits_cost reads: a token (CR 111.1), a nontoken artifact, a legendary creature
          # (CR 205.4d), any permanent (CR 110.1)
          "token": "token", "tokens": "token", "nontoken artifact": "nontoken artifact",
          "nontoken artifacts": "nontoken artifact", "legendary creature": "legendary creature",
          "legendary creatures": "legendary creature", "permanent": "permanent", "permanents": "permanent"}
_CLAUSE = re.compile(
    r"^(?P<self>\{T\}, )?Tap (?P<n>an|a|one|two|three|four|five) untapped (?P<what>[A-Za-z ]+?) you control: "
    r"Add (?P<mana>(?:\{[WUBRGC]\})+|one mana of any color)\.$")


def _read(clause: str, index: int) -> TapCost | None:
    m = _CLAUSE.match(clause.strip())
    if m is None:
        return _read_other(clause.strip(), index)
    return _read_tapping(m, clause, index)


def _read_tapping(m: re.Match[str], clause: str, index: int) -> TapCost | None:
    """The tap-other-permanents reading of a clause :data:`_CLAUSE` matched."""
    words = m.group("what").lower().split(" or ")
    if not all(w in _TYPES for w in words):
        return None
    types = tuple(dict.fromkeys(_TYPES[w] for w in words))
    mana = m.group("mana")
    if mana == "one mana of any color":
        slots: tuple[int, ...] = (ANY_COLOR,)
    else:
        slots = tuple(mask_from_letters(letter) for letter in re.findall(r"\{(\w)\}", mana))
    own_tap = bool(m.group("self"))
    ability = ManaAbility(AbilityCost(tap=own_tap), Production(options=(slots,)), text=clause.strip(),
                          index=index)
    tap_part = clause.strip().split(":")[0].split(", ")[-1]
    parts = (("{T}",) if own_tap else ()) + (tap_part[0].lower() + tap_part[1:],)
    return TapCost(ability, types, _COUNTS[m.group("n")], parts)


# -- the other cost parts (see the module docstring) -------------------------------------------

_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_NUMBER_WORDS = {"two": 2, "three": 3}
_MANA = r"(?:\{[WUBRGC]\})+"
#: Why a cost part is read but can't be paid by this engine (``AbilityCost.unmodelled``).
_NO_LIBRARY = ("milling a card is paid from the player's library (read from the board's library by "
               "models/rules/history.py)")
#: The amount of "Add an amount of {B} equal to the sacrificed artifact's mana value": the player
#: chooses the permanent, and so the amount (CR 202.3, 608.2h), read by
#: :func:`manasolver.models.rules.amounts.ability_options`.
_BY_MANA_VALUE = Amount("sacrificed_mana_value")
#: "… equal to the sacrificed creature's power" (Furgul, Quag Nurturer), chosen the same way.
_BY_POWER = Amount("sacrificed_power")
#: The cost parts whose permanent decides that amount, to the sacrifice kind.
_BY_VALUE_COST = re.compile(r"(?:sacrifice an? |exile an? )(artifact|black or artifact creature|creature)"
                            r"(?: you control)?")
#: An ability word or flavor word before an ability (CR 207.2c): "Secrets of the Soul — ".
_ABILITY_WORD = re.compile(r"^[A-Z][\w' ,-]* — (?=.*: Add )")
_OPPONENT_LAND = ("untapping a tapped land an opponent controls is not modelled yet (the mana is a type "
                  "that land could produce)")
#: The cost part of Grinning Ignus, whose "Activate only as a sorcery" the payment queries apply
#: from the board's turn (:func:`manasolver.solver.supply.resources.without_cast_card`).
RETURN_SELF = "return ~ to its owner's hand"
_SORCERY = "'Activate only as a sorcery' (CR 602.5d) is not modelled for this cost"
_INSTANT_TIMING = ("'Activate only as an instant': the mana is made before the spell is cast (it can't "
                   "be activated while casting, CR 602.5d, 605.3a), which is not modelled for this cost")


def _production(effect: str) -> tuple[Production, str] | None:
    """What "Add …" (and what follows it) adds, and why it can't be modelled ("" when it can);
    ``None`` when not read."""
    effect = effect.strip()
    restriction: Restriction | None = None
    why = ""
    m = re.fullmatch(r"(.*?\.)\s*(Spend this mana only [^.]*\.)", effect)
    if m:
        from manasolver.models.text.restrictions import read_restriction
        effect = m.group(1)
        restriction = read_restriction(m.group(2))
    m = re.fullmatch(r"(.*?\.)\s*When you do, (?:~|this creature) deals \d+ damage to each opponent\.", effect)
    if m:
        effect = m.group(1)  # a reflexive trigger on opponents (CR 603.12): it changes no payment
    timing = ""
    m = re.fullmatch(r"(.*?\.)\s*Activate only as an? (instant|sorcery)\.", effect)
    if m:
        effect = m.group(1)
        timing = _INSTANT_TIMING if m.group(2) == "instant" else _SORCERY
    options: tuple[tuple[int, ...], ...]
    if re.fullmatch(rf"Add {_MANA}(?:(?:, {_MANA})*,? or {_MANA})?\.", effect):
        options = tuple(tuple(mask_from_letters(x) for x in re.findall(r"\{(\w)\}", alt))
                        for alt in re.findall(_MANA, effect))
    elif effect == "Add one mana of any color.":
        options = ((ANY_COLOR,),)
    elif m := re.fullmatch(r"Add (two|three) mana of any one color\.", effect):
        options = tuple((bit,) * _NUMBER_WORDS[m.group(1)] for bit in TYPE_BITS[:5])
    elif m := re.fullmatch(r"Add an amount of \{([WUBRG])\} equal to the sacrificed (?:artifact|creature)'s "
                           r"(mana value|power)\.", effect):
        return Production(options=((mask_from_letters(m.group(1)),),),
                          amount=_BY_MANA_VALUE if m.group(2) == "mana value" else _BY_POWER,
                          restriction=restriction), timing
    elif re.fullmatch(r"Add X mana of any one color, where X is 1 plus the exiled creature's mana value\.", effect):
        return Production(options=tuple((bit,) for bit in TYPE_BITS[:5]),
                          amount=Amount("sacrificed_mana_value", plus=1), restriction=restriction), timing
    elif effect == "Add X mana in any combination of colors.":
        # X is how many the cost taps ("Tap X untapped tokens you control"); its types are the cost's
        return Production(options=((ANY_COLOR,),), amount=Amount("tapped_count"), restriction=restriction), timing
    elif effect == "Add X mana of any one color. You gain X life.":
        # the life gained changes no payment; X is how many the cost sacrificed
        return Production(options=tuple((bit,) for bit in TYPE_BITS[:5]), amount=Amount("sacrificed_count"),
                          restriction=restriction), timing
    elif effect == "Add one mana of any type that land could produce.":
        options, why = (), why or _OPPONENT_LAND
    elif effect == ("For each colored mana symbol in the milled card's mana cost, add one mana of that "
                    "color."):
        options, why = ((ANY_COLOR,),), why or _NO_LIBRARY
    else:
        return None
    return Production(options=options, restriction=restriction), why or timing


def _read_other(clause: str, index: int) -> TapCost | None:
    """A mana ability whose cost has a part the parser does not read (see the module
    docstring), or ``None``."""
    head, sep, effect = _ABILITY_WORD.sub("", clause).partition(": ")
    if not sep or not effect.startswith(("Add ", "For each colored mana symbol")):
        return None
    got = _production(effect)
    if got is None:
        return None
    production, why = got
    tap = sacrifice_self = False
    life = 0
    mana: list[str] = []
    sacrifice: list[str] = []
    types: tuple[str, ...] = ()
    count = 0
    parts: list[str] = []
    special = False  # a part only this module reads
    for part in head.split(", "):
        low = part.lower()
        if part == "{T}":
            tap = True
            parts.append("{T}")
        elif re.fullmatch(_MANA, part):
            mana.append(part)
            parts.insert(0, part)
        elif low == "discard a card":
            sacrifice.append(HAND_CARD)
            parts.append(low)
        elif low == "exile a card from your hand":
            sacrifice.append(HAND_CARD)
            parts.append(low)
        elif low == "exile a card from your graveyard":
            sacrifice.append(GRAVEYARD_CARD)
            parts.append(low)
        elif low == "sacrifice another creature":
            sacrifice.append("another creature")  # any creature but the source (validate checks it)
            parts.append(low)
        elif m := re.fullmatch(r"sacrifice an? (\w+) token", low):
            sacrifice.append(f"{m.group(1)} token")
            parts.append(low)
        elif m := re.fullmatch(r"sacrifice a token named (\w+)", low):
            sacrifice.append(f"token named {m.group(1)}")
            parts.append(low)
        elif m := re.fullmatch(r"tap an untapped (white|blue|black|red|green) creature you control", low):
            types, count = (f"{m.group(1)} creature",), 1
            parts.append(low)
        elif (re.fullmatch(r"(?:sacrifice|exile) (?!an? |the |target |x |all |each |two |three |.* from )"
                           r"[a-z][\w' ,-]*", low) and part.split(" ", 1)[1][:1].isupper()
              or re.fullmatch(r"(?:sacrifice|exile) (?:~|this (?:creature|artifact|land|permanent|enchantment))", low)):
            sacrifice_self = True  # itself: "Sacrifice Overeager Apprentice", "Sacrifice this creature"
            parts.append(low.split(" ", 1)[0] + " ~")
            special = special or low.startswith("exile")
            continue
        elif low == "mill a card":
            why = why or _NO_LIBRARY
            parts.append(low)
        elif low == "untap a tapped land an opponent controls":
            why = why or _OPPONENT_LAND
            parts.append(low)
        elif m := _BY_VALUE_COST.fullmatch(low):
            if production.amount is None or production.amount.kind not in (_BY_MANA_VALUE.kind, _BY_POWER.kind):
                return None
            # exiling it is paid as a sacrifice is: the permanent leaves the battlefield (CR 400.7)
            sacrifice.append(m.group(1))
            parts.append(low)
        elif m := re.fullmatch(r"pay (\d+) life", low):
            life = int(m.group(1))
            parts.append(low)
            continue  # a cost the parser reads too: not a reason to read the clause here
        elif (m := re.fullmatch(r"tap x untapped (\w+) you control", low)) and m.group(1) in _TYPES:
            if production.amount is None or production.amount.kind != "tapped_count":
                return None
            types, count = (_TYPES[m.group(1)],), 1
            production = replace(production, amount=Amount("tapped_count", types=frozenset(types)))
            parts.append(low)
        elif m := re.fullmatch(r"sacrifice x (\w+)s", low):
            if production.amount is None or production.amount.kind != "sacrificed_count":
                return None
            sacrifice.append(m.group(1))  # "X Goats": X permanents with that subtype (CR 107.3)
            parts.append(low)
        elif re.fullmatch(r"return [a-z][\w' ,-]* to its owner's hand", low):
            sacrifice_self = True  # it leaves the battlefield, once (CR 400.7)
            parts.append(RETURN_SELF)
            if why == _SORCERY:
                why = ""  # its timing is checked against the board's turn, not read here
        else:
            return None
        special = True
    if not special:
        return None  # every part is one the parser reads: not a clause for this module
    if production.amount is not None and production.amount.kind == "tapped_count" and not count:
        return None  # "Add X mana" without a cost that says what X is
    cost = AbilityCost(tap=tap, mana=ManaCost.parse("".join(mana), "cost", allow_empty=True), life=life,
                       sacrifice_self=sacrifice_self, sacrifice=tuple(sacrifice), unmodelled=why)
    return TapCost(ManaAbility(cost, production, text=clause, index=index), types, count, tuple(parts))


def is_tap_cost_clause(clause: str) -> bool:
    """True when ``clause`` is read here (a clause the oracle parser leaves unread)."""
    return _read(clause, 0) is not None


def tap_costs(card: Card) -> tuple[TapCost, ...]:
    """The tap-other-permanents mana abilities of ``card`` among its unread clauses, indexed
    after its parsed mana abilities."""
    return tap_costs_after(card, len(card.mana_abilities))


def tap_costs_after(card: Card, first_index: int) -> tuple[TapCost, ...]:
    """As :func:`tap_costs`, indexed from ``first_index`` (after the permanent's effective
    mana abilities, which land-type changes and granted abilities may lengthen).  The
    reading stored on the card is indexed after ``card.mana_abilities``; another
    ``first_index`` is read here (cached)."""
    text = card.text
    if text is not None:
        stored = text.tap_costs
        if not stored or stored[0].ability.index == first_index:
            return stored
    return _cached(card.unsupported, first_index)


def read_tap_costs(clauses: tuple[str, ...], first_index: int) -> tuple[TapCost, ...]:
    """The tapping mana abilities among ``clauses`` (a card's unread clauses), indexed from
    ``first_index``."""
    out: list[TapCost] = []
    for clause in clauses:
        got = _read(clause, first_index + len(out))
        if got is not None:
            out.append(got)
    return tuple(out)


_cached = lru_cache(maxsize=1024)(read_tap_costs)
