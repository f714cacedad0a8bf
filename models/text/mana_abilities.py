"""Reading one activated mana ability: its cost, what it adds, and the sentences after.

:func:`read_ability` is the part of the oracle parser (:mod:`manasolver.models.text.oracle`)
that turns ``cost: effect`` into a :class:`~manasolver.models.abilities.ManaAbility`,
or raises :class:`Unreadable` for any wording it does not fully understand, so the
caller reports the clause as unsupported instead of guessing (CR 605.1a, 602.1,
106.6, 107.1b).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from manasolver.models.abilities import (
    AbilityCost,
    Amount,
    Condition,
    ManaAbility,
    Production,
)
from manasolver.models.card import CARD_TYPES
from manasolver.models.cost import ManaCost
from manasolver.models.text.mana_amounts import HISTORY_CONDITIONS, count_amount, read_amount
from manasolver.models.text.restrictions import (
    Unreadable,
    kind_word,
    read_restriction,
)
from manasolver.models.symbols import (
    ANY_COLOR,
    ANY_TYPE,
    COLORS,
    C,
    iter_symbols,
    type_bit,
)

__all__ = ["BECOMES_THAT_COLOR", "Unreadable", "parse_cost", "read_ability", "read_production", "sentences"]

#: A rider that makes the source ("This creature", read as ``~``) the color of the mana it added, until
#: end of turn (CR 613.1e).
BECOMES_THAT_COLOR = "~ becomes that color until end of turn."

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_SYMBOLS = r"(?:\{[^}]+\})+"
_SYMBOLS_ONLY = re.compile(_SYMBOLS)


#: What :func:`sentences` looks at: quotes and periods.
_SENTENCE_MARKS = re.compile(r"[\"“”.]")


def sentences(text: str) -> list[str]:
    """Split on sentence ends (a period at the end or before a space) outside quotes."""
    out: list[str] = []
    start, quoted = 0, False
    for mark in _SENTENCE_MARKS.finditer(text):
        i = mark.start()
        if text[i] != ".":
            quoted = not quoted
        elif not quoted and (i + 1 == len(text) or text[i + 1] == " "):
            out.append(text[start:i + 1].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return out




# ---------------------------------------------------------------------------------------------
# costs


def _number(word: str) -> int:
    word = word.lower()
    if word.isdigit():
        return int(word)
    if word in _NUMBERS:
        return _NUMBERS[word]
    raise Unreadable(word)



def parse_cost(text: str) -> AbilityCost:
    """An activation cost (``{2}, {T}, Pay six {E}``) as an :class:`AbilityCost`; raises
    :class:`Unreadable` for a part it does not understand."""
    return _parse_cost(text)


def _parse_cost(text: str) -> AbilityCost:
    tap = untap = False
    mana: list[str] = []
    life = energy = tap_creatures = 0
    sac_self = False
    sacrifice: list[str] = []
    counters: list[tuple[str, int]] = []
    remove_any = ""
    put: list[tuple[str, int]] = []
    exert = discard_hand = False
    for part in (p.strip() for p in text.split(",")):
        low = part.lower()
        if _SYMBOLS_ONLY.fullmatch(part):
            for sym in iter_symbols(part, "cost"):
                if sym.special == "T":
                    tap = True
                elif sym.special == "Q":
                    untap = True
                elif sym.special == "E":
                    energy += 1
                elif sym.variable:
                    raise Unreadable(part)
                else:
                    mana.append(sym.text)
        elif m := re.fullmatch(r"pay (\d+|\w+) life", low):
            life += _number(m.group(1))
        elif m := re.fullmatch(r"pay ((?:\{e\})+)", low):
            energy += m.group(1).count("{e}")
        elif m := re.fullmatch(r"pay (\w+) \{e\}", low):  # "Pay six {E}" (Roil Cartographer)
            energy += _number(m.group(1))
        elif low == "sacrifice ~":
            sac_self = True
        elif m := re.fullmatch(r"sacrifice an? ([a-z][\w'\-]*)", part, re.IGNORECASE):
            sacrifice.append(kind_word(m.group(1), plural=False))
        elif m := re.fullmatch(r"[Ss]acrifice (two|three) ([A-Z][\w'\-]*s)", part):
            # "Sacrifice three Foods": that many permanents of the subtype, each once
            sacrifice.extend([kind_word(m.group(2), plural=True)] * _number(m.group(1)))
        elif m := re.fullmatch(r"remove (an?|one|two|three|four|five|\d+) ([+\-−\d/\w]+) counters? from ~",
                               low):
            counters.append((m.group(2).replace("−", "-"), _number(m.group(1))))
        elif m := re.fullmatch(r"tap (an|one|two|three|four|five) untapped creatures? you control", low):
            tap_creatures += _number(m.group(1))
        elif (m := re.fullmatch(r"remove (?:any number of|x|one or more) ([\w+\-/]+) counters from ~", low)) \
                and not remove_any:
            remove_any = m.group(1)  # CR 107.3: the player chooses the number on activation
        elif m := re.fullmatch(r"put an? ([+\-−\d/]+|\w+) counter on ~", low):
            put.append((m.group(1).replace("−", "-"), 1))
        elif low == "exert ~":
            exert = True
        elif low == "discard your hand":
            discard_hand = True
        else:
            raise Unreadable(part)
    return AbilityCost(tap=tap, untap=untap,
                       mana=ManaCost.parse("".join(mana), "cost", allow_empty=True),
                       life=life, energy=energy, sacrifice_self=sac_self, sacrifice=tuple(sacrifice),
                       remove_counters=tuple(counters), tap_creatures=tap_creatures,
                       remove_any=remove_any, put_counters=tuple(put), exert=exert,
                       discard_hand=discard_hand)


# ---------------------------------------------------------------------------------------------
# amounts


# ---------------------------------------------------------------------------------------------
# productions

_ALTERNATIVE_SPLIT = re.compile(r",? or |, ")


def _symbol_option(text: str) -> tuple[int, ...]:
    """``{U}{R}`` → ``(U, R)``; a numeral adds that much colorless (CR 106.10)."""
    slots: list[int] = []
    for sym in iter_symbols(text, "production"):
        if sym.is_numeral:
            slots.extend([C] * sym.generic)
        elif sym.colorless and not sym.colors:
            slots.append(C)
        elif sym.colors and not (sym.colorless or sym.generic or sym.phyrexian or sym.snow):
            if sym.colors.bit_count() != 1:
                raise Unreadable(text)  # a hybrid symbol in production: not printed on cards
            slots.append(sym.colors)
        else:
            raise Unreadable(text)
    return tuple(slots)


def _one_color_options(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple((type_bit(c),) * n for c in COLORS)


# the forms :func:`_options` reads
_LANDS_COULD_PRODUCE = re.compile(r"(\w+) mana of any (color|type) that an? lands? (you control|an opponent controls) "
                                  r"could produce")
_SACRIFICED_COULD_PRODUCE = re.compile(r"(\w+) mana of any type the sacrificed land could produce")
_COUNT_SYMBOL = re.compile(r"(\w+) (\{[WUBRGC]\}) ?")
_ONE_COLOR = re.compile(r"(\w+) mana of any one color")
_ANY_COMBINATION = re.compile(r"(\w+) mana in any combination of colors")
_COMBINATION_OF = re.compile(r"(\w+) mana in any combination of ((?:\{[WUBRGC]\}(?:, |,? and/or |,? or )?)+)")
_ANY_COLOR_OR_TYPE = re.compile(r"(\w+) mana of any (color|type)")


def _options(text: str) -> tuple[tuple[tuple[int, ...], ...], str, bool, int]:
    """Read what "Add …" adds, without a trailing amount phrase.

    Returns (options, reference, colors_only, reference_count).
    """
    text = text.strip()
    if m := _LANDS_COULD_PRODUCE.fullmatch(text):
        ref = "lands_you_control" if m.group(3) == "you control" else "lands_opponents_control"
        return (), ref, m.group(2) == "color", _number(m.group(1))
    if m := _SACRIFICED_COULD_PRODUCE.fullmatch(text):
        return (), "sacrificed_land", False, _number(m.group(1))
    if m := _COUNT_SYMBOL.fullmatch(text + " "):
        return ((_symbol_option(m.group(2)) * _number(m.group(1))),), "", False, 1
    if m := _ONE_COLOR.fullmatch(text):
        return _one_color_options(_number(m.group(1))), "", False, 1
    if m := _ANY_COMBINATION.fullmatch(text):
        return ((ANY_COLOR,) * _number(m.group(1)),), "", False, 1
    if m := _COMBINATION_OF.fullmatch(text):
        mask = 0
        for sym in re.findall(r"\{[WUBRGC]\}", m.group(2)):
            mask |= _symbol_option(sym)[0]
        return ((mask,) * _number(m.group(1)),), "", False, 1
    if text == "two mana of different colors":
        pairs = tuple((type_bit(a), type_bit(b)) for i, a in enumerate(COLORS) for b in COLORS[i + 1:])
        return pairs, "", False, 1
    options: list[tuple[int, ...]] = []
    for alt in _ALTERNATIVE_SPLIT.split(text):
        alt = alt.strip()
        alt = alt.removeprefix("or ")
        if _SYMBOLS_ONLY.fullmatch(alt):
            options.append(_symbol_option(alt))
        elif m := _ANY_COLOR_OR_TYPE.fullmatch(alt):
            n = _number(m.group(1))
            options.append((ANY_COLOR if m.group(2) == "color" else ANY_TYPE,) * n)
        else:
            raise Unreadable(text)
    if not options or any(not o for o in options):
        raise Unreadable(text)
    return tuple(options), "", False, 1


_CHOSEN = re.compile(r"(?:(.+?),? or )?(\w+) mana of the chosen color")
_COMMANDER = re.compile(r"(\w+) mana of any color in your commander's color identity")
_AMONG = {"one mana of any color among legendary creatures and planeswalkers you control":
          "legendary_creatures_planeswalkers",
          "one mana of any color among legendary permanents you control": "legendary_permanents",
          "one mana of any color among legendary creature cards in your graveyard": "graveyard_legendary_creatures",
          # Reflective Gate: the colors of every permanent on the battlefield, whoever controls it
          "one mana of any color that shares a color with a permanent a player controls": "permanents"}


#: Familiars, as Chea, Friend to Maybe Too Many's reminder text defines them: "Bats, Birds, Cats,
#: Dragons, Faeries, Foxes, Frogs, Imps, Lizards, and Spiders are familiars, as well as any creature
#: with "Familiar" in its name".
FAMILIARS = Amount("count_or_named", types=frozenset({"creature"}), subtypes=frozenset(
    {"bat", "bird", "cat", "dragon", "faerie", "fox", "frog", "imp", "lizard", "spider"}), or_name_has="familiar")


_COULD_PRODUCE_OF = {"one mana of any type that a Gate you control could produce": "gates_you_control",
                     "one mana of any color that a Gate you control could produce": "gate_colors_you_control",
                     "one mana of any color that a basic land you control could produce": "basic_lands_you_control"}


def _board_production(body: str) -> Production | None:
    """The forms whose mana depends on a choice made as the permanent entered, the
    commander or the colors of permanents (read by ``amounts.ability_options``)."""
    if m := _CHOSEN.fullmatch(body):
        options = _options(m.group(1))[0] if m.group(1) else ()
        if m.group(1) and _options(m.group(1))[1]:
            raise Unreadable(body)
        return Production(options=options, chosen=_number(m.group(2)))
    if m := _COMMANDER.fullmatch(body):
        return Production(commander=_number(m.group(1)))
    if body in _AMONG:
        return Production(colors_among=_AMONG[body])
    if body in _COULD_PRODUCE_OF:
        # Plaza of Harmony, Star Compass: what those lands could produce (CR 106.7), read by
        # amounts.ability_options from their effective abilities
        return Production(colors_among=_COULD_PRODUCE_OF[body])
    if body in ("one mana of any of the exiled card's colors", "one mana of any of the exiled cards' colors"):
        # Chrome Mox, Pit of Offerings: the colors of the cards exiled with it (the permanent's
        # ``imprinted``)
        return Production(colors_among="imprinted")
    if body in ("one mana of ~'s last noted type", "~'s last noted type and amount of mana"):
        # Jeweled Amulet, Ice Cauldron: what was noted as the other ability resolved is not on
        # the board; amounts.ability_options refuses when such an ability can be activated
        return Production(colors_among="noted")
    if body == "one mana of any of ~'s colors":
        # Katilda's grant, Birds of Paradise kin: the colors of the permanent that has the ability
        return Production(colors_among="self")
    return None


# the forms :func:`_production` reads
_ADD_BODY = re.compile(r"[Aa]dd (.+)")
_PER_FAMILIAR = re.compile(r"X (\{[WUBRGC]\}) and each opponent loses X life, where X is the number of familiars you "
                           r"control")
_PLUS_PER_COUNTER = re.compile(r"(\{[WUBRGC]\}), plus an additional \1 for each ([\w+\-/]+ counter on ~)")
_THEN_PER = re.compile(r"(\{[WUBRGC]\}), then add an additional \1 for each (.+)")
_THAT_MUCH = re.compile(r"that much (\{[WUBRGC]\})")
_X_MANA = re.compile(r"X (mana .+)")
_X_PLUS_ONE = re.compile(r"an amount of (\{[WUBRGC]\}) equal to X plus one")
_AMOUNT_EQUAL = re.compile(r"an amount of (\{[WUBRGC]\}|mana of any one color) equal to (.+)")
_X_WHERE = re.compile(r"X (mana .+|\{[WUBRGC]\}), where X is (.+)")
_FOR_EACH = re.compile(r"(.+?) for each (.+)")


def _production(sentence: str, x_removed: bool = False) -> Production:
    """Read one "Add …." sentence.  ``x_removed``: X is the number of counters
    removed by the cost (``Remove X storage counters``)."""
    body = sentence.strip().rstrip(".")
    m = _ADD_BODY.fullmatch(body)
    if not m:
        raise Unreadable(sentence)
    body = m.group(1)
    board = _board_production(body)
    if board is not None:
        return board
    amount: Amount | None = None
    if m := _PER_FAMILIAR.fullmatch(body):
        # Chea: the opponents' life loss changes no payment of its controller
        return Production(options=(_symbol_option(m.group(1)),), amount=FAMILIARS)
    if m := _PLUS_PER_COUNTER.fullmatch(body):
        # "Add {C}, plus an additional {C} for each art counter on ~": one and one per counter
        return Production(options=(_symbol_option(m.group(1)),), amount=replace(read_amount(m.group(2)), plus=1))
    if m := _THEN_PER.fullmatch(body):
        amount = read_amount(m.group(2))
        if amount.kind != "removed":
            raise Unreadable(sentence)
        return Production(options=(_symbol_option(m.group(1)),), amount=replace(amount, plus=1))
    if x_removed and (m := _THAT_MUCH.fullmatch(body)):
        # Rasputin: "Remove one or more dream counters from ~: Add that much {C}" (CR 107.3 kin:
        # the number removed, at least one)
        return Production(options=(_symbol_option(m.group(1)),), amount=Amount("removed"))
    if x_removed and (m := _X_MANA.fullmatch(body)) and ", where X" not in body:
        options, reference, _, _ = _options("one " + m.group(1))
        if reference:
            raise Unreadable(sentence)
        return Production(options=options, amount=Amount("removed"))
    elif x_removed and (m := _X_PLUS_ONE.fullmatch(body)):
        # Kyren Toy: X counters removed add X + 1 mana (CR 107.3)
        return Production(options=(_symbol_option(m.group(1)),), amount=Amount("removed", plus=1))
    elif x_removed:
        raise Unreadable(sentence)
    if m := _AMOUNT_EQUAL.fullmatch(body):
        amount = read_amount(m.group(2))
        body = "one " + m.group(1) if m.group(1).startswith("{") else "one mana of any one color"
    elif m := _X_WHERE.fullmatch(body):
        amount = read_amount(m.group(2))
        body = "one " + m.group(1)
    elif m := _FOR_EACH.fullmatch(body):
        amount = read_amount(m.group(2))
        body = m.group(1)
    options, reference, colors_only, ref_count = _options(body)
    if amount is not None and reference:
        raise Unreadable(sentence)
    return Production(options=options, amount=amount, reference=reference, colors_only=colors_only,
                      reference_count=ref_count)


def read_production(sentence: str) -> Production:
    """Read one "Add …." sentence (either case of "add") outside an activated ability: the
    effect of a triggered ability such as Lotus Cobra's landfall or Burning-Tree Emissary's
    ETB (:mod:`manasolver.models.text.triggers`).  Raises :class:`Unreadable` when unclear."""
    text = sentence.strip()
    return _production(text[:1].upper() + text[1:])


# ---------------------------------------------------------------------------------------------
# riders after the "Add" sentence




#: Sentences after the production that change neither what the ability adds nor what pays it.
_HARMLESS_PATTERNS: tuple[str, ...] = (
    r"~ doesn't untap during your next untap step\.",
    r"Draw (?:a card|two cards)\.",
    r"Draw a card at the beginning of the next turn's upkeep\.",
    r"You gain \w+ life\.",
    r"Put (?:an?|two|three) [\w+\-/]+ counters? on ~\.",
    # information and library actions after the mana is added: they don't change this payment
    r"Scry \d+\.",
    r"When you do, mill (?:a card|two cards|three cards)\.",
    r"If there are no [\w+\-/]+ counters on ~, sacrifice it\.",
    (r"If this ability has been activated \w+ or more times this turn, sacrifice ~ at the beginning "
     r"of the next end step\."),
    r"Sacrifice ~ at the beginning of the next end step\.",
    r"Activate only as an instant\.",
    r"Until end of turn, you don't lose this mana as steps and phases end\.",
    (r"If (?:that|this) mana is spent (?:on|to cast) an? [\w\- ]+ spell, "
     r"(?:(?:that spell|that creature|it) [^.]+|you get an? [\w+\-/]+ counter)\."),
    r"Creature spells you spend this mana to cast [^.]+\.",
    # riders on spending the mana (CR 106.6): they never change what may be paid
    r"(?:When|Whenever) (?:you spend this mana|(?:that|this) mana is spent),? [^.]+\.",
    # delayed effects after the mana is added: they don't change this payment
    r"An opponent gains control of ~ at the beginning of the next end step\.",
    r"During your next untap step, as you untap your permanents, return ~ to its owner's hand\.",
    r"When you (?:cast your next spell|next cast an? (?:[\w-]+ )*spell(?: with \{X\} in its mana cost)?) "
    r"this turn, [^.]+\.",
    r"Until end of turn, you may cast that card without paying its mana cost\.",
    r"Put each other card exiled this way on the bottom of your library in a random order\.",
    r"If you control (?:an?|another) [\w, ]+, you gain \w+ life\.",
    # life others lose or any player gains; "Each player loses" would cost the payer life too
    r"Each (?:player|opponent) gains \w+ life\.",
    r"Each opponent loses \w+ life\.",
    r"If you spend this mana to cast your commander, it enters [^.]+\.",
    # a roll after the mana is added: chance that does not change what the ability adds
    r"Roll a d\d+\.",
    # poison counters after the mana is added (Mox Poison): no payment pays or spends them
    r"You get (?:an?|one|two|three) poison counters?\.",
)


@lru_cache(maxsize=1)
def _harmless() -> tuple[re.Pattern[str], ...]:
    """The compiled :data:`_HARMLESS_PATTERNS` (compiled on first use: a light import)."""
    return tuple(re.compile(p) for p in _HARMLESS_PATTERNS)


_ORDINAL_LIMITS = {"once": 1, "twice": 2}
_CHOOSE_AMONG = {"Choose a color of a permanent you control.": "permanents_you_control",
                 "Choose a color of a card in your graveyard.": "graveyard"}


def _at_least(word: str) -> int:
    """``a``/``an`` → 1, ``three or more`` → 3."""
    return _number(word.removesuffix(" or more"))


def _you_control(text: str) -> tuple[Amount, int]:
    """``a Swamp`` / ``three or more artifacts`` / ``a creature with power 4 or greater``
    / ``an Urza's Mine`` (after "you control") → (what is counted, at least how many)."""
    m = re.fullmatch(r"(an?|\w+ or more) (.+)", text)
    if not m:
        raise Unreadable(text)
    n = _at_least(m.group(1))
    what = m.group(2)
    if n == 1 and (counted := re.fullmatch(r"([A-Z][a-z]+) with (\w+) or more ([\w+\-/]+) counters on it", what)):
        # Brood Astronomer: a permanent of that subtype with at least that many counters
        return Amount("count", subtypes=frozenset({counted.group(1).lower()}), with_counter=counted.group(3),
                      min_counters=_number(counted.group(2))), n
    if n == 1 and re.fullmatch(r"Command (?:Tower|Mine|Power Plant)", what):
        # the cards named so (CR 201.2): Command Mine, Command Power Plant
        return Amount("count", name=what), n
    if um := re.fullmatch(r"(Urza's) ([A-Z][\w\-]+)", what):
        subs = frozenset({um.group(1).lower(), um.group(2).lower()})
        return Amount("count", types=frozenset({"land"}), all_subtypes=subs), n
    return count_amount(what + " you control", plural=n > 1), n


def _condition(text: str) -> Condition:
    """An "if" clause evaluable on the board (CR 602.5b; "instead" amounts)."""
    body = text.strip().rstrip(".")
    if m := re.fullmatch(r"you control an? ([A-Z][a-z]+) or an? ([A-Z][a-z]+)", body):
        # the Verges: a permanent with either subtype (Amount.subtypes is any-of)
        return Condition(text, counts=((Amount("count", subtypes=frozenset({m.group(1).lower(), m.group(2).lower()})),
                                        1),))
    if m := re.fullmatch(r"you control creatures named ([A-Z][\w' ]+) and ([A-Z][\w' ]+)", body):
        # Tower Worker: one creature of each name (CR 201.2)
        return Condition(text, counts=tuple((Amount("count", types=frozenset({"creature"}), name=n), 1)
                                            for n in m.groups()))
    if m := re.fullmatch(r"you control (\w+) or more lands with the same name", body):
        # Sceptre of Eternal Glory: that many lands sharing one name (CR 201.2)
        return Condition(text, counts=((Amount("same_name", types=frozenset({"land"})), _number(m.group(1))),))
    if m := re.fullmatch(r"~ is an? (artifact|creature|land)", body):
        # Flywheel Racer: a Vehicle is a creature only while crewed (CR 301.7b), which the board's
        # types say
        return Condition(text, self_type=m.group(1))
    if m := re.fullmatch(r"you control (.+?) and (an? .+)", body):
        return Condition(text, counts=(_you_control(m.group(1)), _you_control(m.group(2))))
    if m := re.fullmatch(r"you control (.+)", body):
        return Condition(text, counts=(_you_control(m.group(1)),))
    if m := re.fullmatch(r"there are (\w+) or more ([\w+\-/]+) counters on ~", body):
        return Condition(text, counts=((Amount("counters", counter=m.group(2)), _number(m.group(1))),))
    if m := re.fullmatch(r"~ has (an?|\w+ or more) ([\w+\-/]+) counters? on it", body):
        return Condition(text, counts=((Amount("counters", counter=m.group(2)), _at_least(m.group(1))),))
    if m := re.fullmatch(r"there is an? ([A-Z][\w'\-]*) card in your graveyard", body):
        # a card with that subtype (a kindred or creature card: "an Elf card", CR 205.3)
        return Condition(text, counts=((Amount("graveyard", subtypes=frozenset({kind_word(m.group(1), plural=False)})),
                                        1),))
    if body == "you played a land this turn":
        # River of Tears: the player's lands_played_this_turn (default 0)
        return Condition(text, counts=((Amount("lands_played"), 1),))
    if body == "~ has another activated ability":
        # Tazri's grant: read from the creature and the board (models/rules/other_activated.py)
        return Condition(text, counts=((Amount("other_activated"), 1),))
    if body in HISTORY_CONDITIONS:  # the board's history fields (models/rules/history.py)
        return Condition(text, counts=((HISTORY_CONDITIONS[body], 1),))
    if m := re.fullmatch(r"creatures you control have total power (\d+) or greater", body):
        return Condition(text, counts=((Amount("total_power", types=frozenset({"creature"})), int(m.group(1))),))
    raise Unreadable(text)


def _instead(sentence: str, production: Production) -> Production:
    """"If <condition>, add … instead." / "If <condition>, instead add …." (Urza's Tower,
    Gemstone Caverns): the options that replace the printed ones when it holds;
    for a could-produce production, "add three mana of that type instead" (Incubation
    Druid) replaces the number of mana."""
    m = (re.fullmatch(r"If (.+), add (.+) instead\.", sentence)
         or re.fullmatch(r"If (.+), instead add (.+)\.", sentence))
    if not m or production.instead is not None or production.amount is not None:
        raise Unreadable(sentence)
    if production.reference:
        count = re.fullmatch(r"(\w+) mana of that type", m.group(2))
        if not count:
            raise Unreadable(sentence)
        return replace(production, instead=_condition(m.group(1)), instead_reference_count=_number(count.group(1)))
    if production.commander and (more := _COMMANDER.fullmatch(m.group(2))):
        # Command Mine: more mana of the commander's identity when the condition holds
        return replace(production, instead=_condition(m.group(1)), instead_commander=_number(more.group(1)))
    options, reference, _, _ = _options(m.group(2))
    if reference:
        raise Unreadable(sentence)
    return replace(production, instead=_condition(m.group(1)), instead_options=options)


def _head(head: str, rest: list[str], x_removed: bool) -> tuple[Production, list[str]]:
    """The production sentence(s) at the start of the effect; returns the riders left."""
    if head == "Choose a color." and rest and (m := re.fullmatch(r"Add an amount of mana of that color equal to (the "
                                                                   r"number of .+)\.", rest[0])):
        return Production(options=_one_color_options(1), amount=read_amount(m.group(1))), rest[1:]
    if head == "Choose a color." and rest and rest[0].startswith("Add an amount"):
        m = re.fullmatch(r"Add an amount of mana of that color equal to your devotion to that color\.", rest[0])
        if not m:
            raise Unreadable(head)
        return Production(options=_one_color_options(1), amount=Amount("devotion", colors=0)), rest[1:]
    if head == "Choose a color." and rest and (m := re.fullmatch(r"Add one mana of that color for each (.+)\.",
                                                                   rest[0])):
        return Production(options=_one_color_options(1), amount=read_amount(m.group(1))), rest[1:]
    if head == "Add to your mana pool one mana of the color last chosen." and rest == ["Then choose a random color."]:
        # Gem Bazaar: the color last chosen is the board's chosen color (chosen at random as it
        # entered or at its last activation); the next choice comes after the mana is added.
        # With no chosen color given it adds nothing and the answers name it as uncertain.
        return Production(chosen=1, uncertain="the color last chosen was chosen at random and the board gives "
                                              "no chosen color (\"chosen\")"), []
    if head == "Choose a color." and rest and (m := re.fullmatch(r"Add one mana of that color unless any player "
                                                                   r"pays (\{\d+\})\.", rest[0])):
        # Rhystic Cave: any player may pay to stop it (CR 118.12), so the least it gives is nothing
        why = f"any player may pay {m.group(1)} so that it adds nothing (CR 118.12)"
        return Production(uncertain=why, uncertain_options=_one_color_options(1)), rest[1:]
    if head == "Each player reveals the top card of their library." and rest[:2] == [
            "For each nonland card revealed this way, add {G} and you gain 1 life.", "Then each player draws a card."]:
        # Selvala, Explorer Returned's parley: {G} for each nonland card among the players' top
        # cards (models/rules/history.py reads the libraries; an unknown top card is counted as a
        # land, the least it can be); the life gained and the cards drawn come with the mana and
        # change no payment, as "You gain 1 life." and "Draw a card." after an Add
        return replace(_production("Add {G}."), amount=Amount("revealed_nonland")), rest[2:]
    if head == "Choose a player." and rest and rest[0] == "That player adds one mana of any color they choose.":
        # the controller may choose themselves; mana given to another player never pays their costs
        return Production(options=((ANY_COLOR,),)), rest[1:]
    if m := re.fullmatch(r"(?:A player of your choice|Each player) adds (.+)\.", head):
        # Victory Chimes, Yurlok: the controller may choose (or is) a player who adds it; mana
        # another player gets never pays this player's costs
        return _production(f"Add {m.group(1)}.", x_removed), rest
    if head == "Choose a player." and rest and (m := re.fullmatch(r"That player adds (.+)\.", rest[0])) \
            and "they choose" not in rest[0]:
        return _production(f"Add {m.group(1)}.", x_removed), rest[1:]
    if head == "For each color among permanents you control, add one mana of that color.":
        # Bloom Tender, Faeburrow Elder: one mana of each such color (amounts.ability_options)
        return Production(colors_among="each_permanents_you_control"), rest
    if head == "For each color among monocolored permanents you control, add one mana of that color.":
        # Tarnation Vista: each color one of them has alone
        return Production(colors_among="each_monocolored_permanents_you_control"), rest
    if head == "Double the amount of each type of unspent mana you have.":
        # CR 106.6 example: the new mana has no restriction; read by the solver, not here
        return Production(doubles_pool=True), rest
    if head in _CHOOSE_AMONG and rest and rest[0] == "Add one mana of that color.":
        return Production(colors_among=_CHOOSE_AMONG[head]), rest[1:]
    if (m := re.fullmatch(r"Reveal any number of (\w+) cards(?: with power (\d+) or greater)? (?:in|from) "
                          r"your hand\.", head)) and rest:
        # revealing is free and optional: one option per number of cards revealed (amounts.ability_options)
        am = re.fullmatch(r"Add ((?:\{[WUBRGC]\})+) for each card revealed this way\.", rest[0])
        kind = kind_word(m.group(1))
        if not am or kind not in CARD_TYPES:
            raise Unreadable(head)
        shown = Amount("hand", types=frozenset({kind}), min_power=int(m.group(2)) if m.group(2) else None)
        return Production(options=(_symbol_option(am.group(1)),), amount=shown), rest[1:]
    if head == "Reveal any number of cards with {X} in their mana cost in your hand." and rest:
        # Rosheen, Roaring Prophet: as above, the cards counted by their mana cost (CR 107.3)
        am = re.fullmatch(r"Add ((?:\{[WUBRGC]\})+) for each card revealed this way\.", rest[0])
        if not am:
            raise Unreadable(head)
        return Production(options=(_symbol_option(am.group(1)),), amount=Amount("hand", x_cost=True)), rest[1:]
    if (m := re.fullmatch(r"Put an? ([\w+\-/]+) counter on ~\.", head)) and rest:
        # Empowered Autogenerator: the counter is put on first, then counted
        production = _production(rest[0])
        counted = production.amount
        if counted is None or counted.kind != "counters" or counted.counter != m.group(1):
            raise Unreadable(head)
        return replace(production, amount=replace(counted, plus=counted.plus + 1)), rest[1:]
    return _production(head, x_removed), rest


#: A cost that removes a number of counters the player chooses (X, one or more).
_REMOVES_X = re.compile(r"\bremove (?:x|one or more)\b")


def read_ability(cost_text: str, effect: str, line: str) -> ManaAbility:
    """Read one activated mana ability; raise :class:`Unreadable` for anything unclear."""
    cost = _parse_cost(cost_text)
    parts = sentences(effect)
    if not parts:
        raise Unreadable(effect)
    x_removed = bool(_REMOVES_X.search(cost_text.lower()))
    only_if: Condition | None = None
    if m := re.fullmatch(r"If (you control .+?), add (.+)\.", parts[0]):
        # "If you control a Command Mine and a Command Power Plant, add …": it adds nothing
        # otherwise, which for a payment is as if it could not be activated (CR 602.5b)
        only_if, parts[0] = _condition(m.group(1)), f"Add {m.group(2)}."
    production, rest = _head(parts[0], parts[1:], x_removed)
    removed = production.amount is not None and production.amount.kind == "removed"
    if removed != bool(cost.remove_any):
        raise Unreadable(line)  # "removed this way" needs the variable cost, and the reverse
    damage = 0
    per_turn = 0
    condition: Condition | None = only_if
    extra: list[str] = []
    for sentence in rest:
        if m := re.fullmatch(r"~ deals (\d+) damage to you\.", sentence):
            damage += int(m.group(1))
        elif m := re.fullmatch(r"~ deals (\d+) damage to you if you don't control an? [A-Z][\w'\-]*\.", sentence):
            # Tomb of Urami: dealt unless its controller controls one, which the board decides
            # (models/effects.ConditionalDamage, applied by rules/board_effects)
            damage += int(m.group(1))
            extra.append(sentence)
        elif sentence.startswith(("Spend this mana", "This mana can't be spent")):
            if production.restriction is not None:
                raise Unreadable(sentence)
            production = replace(production, restriction=read_restriction(sentence))
        elif (m := re.fullmatch(r"Activate only (once|twice) each turn\.", sentence)
              or re.fullmatch(r"Activate no more than (\w+) times each turn\.", sentence)):
            if per_turn:
                raise Unreadable(sentence)
            word = m.group(1)
            per_turn = _ORDINAL_LIMITS.get(word) or _number(word)
            extra.append(sentence)
        elif m := re.fullmatch(r"Activate only if (.+)\.", sentence):
            if condition is not None:
                raise Unreadable(sentence)
            condition = _condition(m.group(1))
        elif m := (re.fullmatch(r"Activate only during your turn(?: and only (once) each turn)?\.", sentence)
                   or re.fullmatch(r"Activate only (once) each turn and only during your turn\.", sentence)):
            # CR 602.5b: the board's turn decides it
            if condition is not None or per_turn:
                raise Unreadable(sentence)
            condition = Condition(sentence, your_turn=True)
            per_turn = 1 if m.group(1) else 0
            extra.append(sentence)
        elif sentence == "Activate only during an opponent's turn.":
            # CR 602.5b: the board's turn decides it (Lavinia, Foil to Conspiracy)
            if condition is not None:
                raise Unreadable(sentence)
            condition = Condition(sentence, opponents_turn=True)
            extra.append(sentence)
        elif sentence == ("Any player may activate this ability but only during their turn before the "
                          "end step."):
            # only the controller's own activations matter to a payment (the solver uses its permanents)
            if condition is not None:
                raise Unreadable(sentence)
            condition = Condition(sentence, your_turn=True, before_step="end")
            extra.append(sentence)
        elif sentence == BECOMES_THAT_COLOR and production.options == ((ANY_COLOR,),):
            # Foraging Wickermaw: a color change (layer 5) that reads nothing of the payment; the
            # payment queries refuse, naming it, where convoke or a color count could read it
            extra.append(sentence)
        elif sentence.startswith("If ") and "instead" in sentence:
            production = _instead(sentence, production)
        elif any(p.fullmatch(sentence) for p in _harmless()):
            extra.append(sentence)
        else:
            raise Unreadable(sentence)
    return ManaAbility(cost=cost, production=production, text=line, damage=damage, extra=tuple(extra),
                       condition=condition, per_turn=per_turn)
