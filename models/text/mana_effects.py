"""Reading effects on mana production from oracle text into frozen values (CR 106.7, 106.12, 605).

The values are those of :mod:`manasolver.models.effects`; what they mean is documented in
:mod:`manasolver.models.rules.production`, which applies them to a board.  This module only
reads text: :func:`read_mana_effects` (one face's text, run once when a card is built),
:func:`mana_effects_of` (the reading stored on a card) and :func:`remaining_unsupported`.
Each clause is read whole (reminder text removed, the card's name as ``~``) against a fixed
list of patterns, one per wording printed on real cards; a quoted ability granted to other
permanents is read by the mana-ability parser.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from manasolver.models.abilities import Amount, Condition
from manasolver.models.effects import (
    AbilitiesOf,
    ConditionalDamage,
    GrantedAbility,
    LandTypeChange,
    ManaMultiplier,
    NotOnBoardEffect,
    ProducesInstead,
    Prohibition,
    SpendAs,
    StructuredEffect,
    TriggeredMana,
)
from manasolver.models.card import Card
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, C, type_bit

__all__ = [
    "BASIC_ORDER",
    "LAND_TYPES",
    "mana_effects_of",
    "read_mana_effects",
    "remaining_unsupported",
]

BASIC_ORDER = ("plains", "island", "swamp", "mountain", "forest")
#: Land types (CR 205.3i): a setting effect such as Blood Moon removes all of them (305.7).
LAND_TYPES = frozenset({"cave", "cloud", "desert", "forest", "gate", "island", "lair", "locus", "mine", "mountain",
                        "plains", "planet", "power-plant", "sphere", "swamp", "tower", "town", "urza's"})



_TIMES = {"twice": 2, "three times": 3, "four times": 4}
_NUMBERS = {"one": 1, "two": 2, "three": 3}


def _symbols(text: str) -> tuple[int, ...]:
    """``{G}{G}`` → ``(G, G)``; only the six mana symbols."""
    out: list[int] = []
    for sym in re.findall(r"\{([WUBRGC])\}", text):
        out.append(type_bit(sym))
    if "".join(f"{{{s}}}" for s in re.findall(r"\{([WUBRGC])\}", text)) != text:
        return ()
    return tuple(out)


def _added(text: str) -> tuple[tuple[tuple[int, ...], ...], bool, int] | None:
    """What a trigger adds: (options, produced_type, chosen), or None when unreadable."""
    if text in ("one mana of any type that land produced", "one mana of any type that permanent produced",
                "one mana of any type that artifact token produced"):
        return (), True, 0
    if m := re.fullmatch(r"(?:an additional )?(one|two|three) mana in any combination of colors", text):
        return ((ANY_COLOR,) * _NUMBERS[m.group(1)],), False, 0
    if m := re.fullmatch(r"(?:an additional )?(one|two|three) mana of (?:the chosen color|that color)", text):
        return (), False, _NUMBERS[m.group(1)]
    if m := re.fullmatch(r"(?:an additional )?(one|two|three) mana of any color", text):
        return ((ANY_COLOR,) * _NUMBERS[m.group(1)],), False, 0
    m = re.fullmatch(r"(?:an additional )?((?:\{[WUBRGC]\})+)", text)
    if m and (slots := _symbols(m.group(1))):
        return (slots,), False, 0
    return None


@lru_cache(maxsize=1)
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p), kind) for p, kind in (
        ((r"If you tap a permanent for mana, it produces (twice|three times|four times) as much of that mana "
         r"instead\."), "multiplier"),
        ((r"If you tap a basic land for mana, it produces (twice|three times|four times) as much of that mana "
         r"instead\."), "basic_multiplier"),
        (r"If a land is tapped for mana, it produces \{([WUBRGC])\} instead of any other type and amount\.",
         "instead_amount"),
        ((r"(?:Until end of turn, )?if a player taps a nonbasic land for mana, it produces colorless mana instead "
         r"of any other type\."), "pale_moon"),
        ((r"If a basic land you control is tapped for mana, it produces mana of a color of your choice instead "
          r"of any other type\."), "pulse"),
        (r"Nonbasic lands are (Plains|Islands|Swamps|Mountains|Forests)\.", "moon"),
        (r"Enchanted land is an? (Plains|Island|Swamp|Mountain|Forest)\.", "enchanted_type"),
        (r"Each land is an? (Plains|Island|Swamp|Mountain|Forest) in addition to its other land types\.",
         "each_land"),
        (r"Lands you control are every basic land type in addition to their other types\.", "omen"),
        ((r"Whenever enchanted (?:land|Forest|Plains|Island|Swamp|Mountain) is tapped for mana, its controller "
         r"adds (.+)\."), "enchanted"),
        # Overabundance's damage is its tap trigger's (models/text/tap_triggers.py), not mana
        (r"Whenever a player taps a land for mana, that player adds (.+?)(?:, and ~ deals \d+ damage to the player)?\.",
         "any_land"),
        (r"Whenever you tap a land for mana, add (.+)\.", "your_land"),
        (r"Whenever a player taps a basic land for mana, that player adds (.+)\.", "any_basic_land"),
        (r"Whenever a basic land is tapped for mana of the chosen color, its controller adds (.+)\.", "basic_land"),
        ((r"Whenever a land's ability causes you to add one or more mana of the chosen color, add (?:one additional|"
         r"an additional one) mana of that color\."), "caged_sun"),
        (r"If a land is tapped for mana, it produces (\{[WUBRGC]\}|colorless mana) instead of any other type\.",
         "instead_type"),
        ((r"If a land is tapped for two or more mana, it produces \{([WUBRGC])\} instead of any other type and "
          r"amount\."), "damping"),
        (r"Enchanted land is an? (Plains|Island|Swamp|Mountain|Forest), (\w+), and (\w+)\.", "enchanted_types"),
        (r"Enchanted land is every basic land type in addition to its other types\.", "enchanted_all"),
        (r"Lands you control are (Plains|Islands|Swamps|Mountains|Forests)\.", "yours_are"),
        (r"Lands you control are (Plains|Islands|Swamps|Mountains|Forests) in addition to their other types\.",
         "yours_add"),
        (r"All lands are (Plains|Islands|Swamps|Mountains|Forests) in addition to their other types\.",
         "all_lands_add"),
        (r"Whenever you tap an? (Plains|Island|Swamp|Mountain|Forest) for mana, add (.+)\.", "your_typed"),
        ((r"Whenever an? (Plains|Island|Swamp|Mountain|Forest) is tapped for mana, its controller adds (.+)\."),
         "any_typed"),
        ((r"Whenever a player taps an? ((?:Plains|Island|Swamp|Mountain|Forest)(?:, (?:or )?"
          r"(?:Plains|Island|Swamp|Mountain|Forest))*) for mana, that player adds (.+)\."), "any_typed"),
        (r"Whenever you tap a creature for mana, add (.+)\.", "your_creature"),
        (r"Whenever you tap a nonland permanent for mana, add (.+)\.", "your_nonland"),
        (r"Whenever you tap an artifact token for mana, add (.+)\.", "your_artifact_token"),
    ))


_PLURAL_TYPES = {"plains": "plains", "islands": "island", "swamps": "swamp", "mountains": "mountain",
                 "forests": "forest"}


_GRANT = re.compile(r"(.+?) (?:have|has),? (?:(?:[a-z, ]|ward \{\d+\})+ and )?\"([^\"]+)\"\.?")


def _conditional_attached(who_text: str) -> Amount | None:
    """"As long as enchanted permanent is a creature, it gets +1/+3 and" (Careful Cultivation),
    "As long as enchanted permanent is a land, it" (Nature's Embrace): the attached permanent,
    while it has that card type (layer 6 applies the grant only then)."""
    m = re.fullmatch(r"As long as enchanted permanent is an? (creature|land|artifact), "
                     r"it(?: gets [+\-]\d+/[+\-]\d+ and)?", who_text)
    if m is None:
        return None
    return Amount("count", types=frozenset({m.group(1)}), controller="any")


def _grant(line: str) -> GrantedAbility | None:
    """"Lands you control have "{T}: Add one mana of any color."" and kin (layer 6); "As long as
    you control six or more lands, …" puts a condition on it (The World Tree)."""
    from manasolver.models.text.mana_abilities import Unreadable, _condition
    if (m := re.fullmatch(r"As long as (you control [^,]+), (.+)", line)) and '"' not in m.group(1):
        try:
            condition = _condition(m.group(1))
        except Unreadable:
            return None
        inner = _grant(m.group(2)[0].upper() + m.group(2)[1:])
        return replace(inner, text=line, condition=condition) if inner is not None else None
    if " — " in line and (chapter := _chapter_grant(line)) is not None:
        return chapter
    if flavored := re.fullmatch(r"(?:An? |The )?[A-Z][a-z']+(?: [A-Za-z']+)* — (.+)", line):
        # an ability word or flavor word has no rules meaning (CR 207.2c)
        inner = _plain_grant(flavored.group(1))
        return replace(inner, text=line) if inner is not None else None
    return _plain_grant(line)


_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}


def _chapter_grant(line: str) -> GrantedAbility | None:
    """A Saga's chapter ability that grants a mana ability (CR 714.2b: it triggers as the lore
    counters reach its number): "I — ~ gains "{T}: Add {C}."" (Urza's Saga: from then on, so
    while it has at least that many lore counters), "I, II — Until your next turn, creatures you
    control gain "…"" (Song of Freyalise: while it has one or two; the third chapter comes at the
    start of that next turn).  The chapter is taken to have resolved (the board's stack is empty)."""
    m = re.fullmatch(r"((?:I|II|III|IV|V|VI)(?:, (?:I|II|III|IV|V|VI))*) — (.+)", line)
    if m is None:
        return None
    chapters = [_ROMAN[c] for c in m.group(1).split(", ")]
    lore = Amount("counters", counter="lore")
    if g := re.fullmatch(r"~ gains (\".+\")\.?", m.group(2)):
        inner = _plain_grant(f"Lands you control have {g.group(1)}.")
        if inner is None or len(chapters) != 1:
            return None
        return replace(inner, text=line, condition=Condition(line, counts=((lore, chapters[0]),)), self_only=True)
    if g := re.fullmatch(r"Until your next turn, creatures you control gain (\".+\")\.?", m.group(2)):
        inner = _plain_grant(f"Creatures you control have {g.group(1)}.")
        if inner is None or chapters != list(range(chapters[0], chapters[-1] + 1)):
            return None
        return replace(inner, text=line, condition=Condition(line, counts=((lore, chapters[0]),), at_most=chapters[-1]))
    return None


def _plain_grant(line: str) -> GrantedAbility | None:
    from manasolver.models.text.mana_abilities import Unreadable, read_ability
    from manasolver.models.text.mana_amounts import count_amount
    from manasolver.models.errors import BadCost
    from manasolver.models.text.oracle import activated_parts

    m = _GRANT.fullmatch(line)
    if m is None or not re.search(r"\b[Aa]dd\b", m.group(2)):
        return None
    who_text, quoted = m.group(1), m.group(2)
    parts = activated_parts(quoted)
    if parts is None:
        return None
    # "Equipped creature gets +2/+2 and has vigilance and "…"": the bonus changes no mana
    attached = re.fullmatch(r"(Enchanted|Equipped) (land|creature|permanent)(?: gets \+\d+/\+\d+ and)?", who_text)
    try:
        ability = read_ability(parts[0], parts[1], quoted)
        if attached:
            kind = attached.group(2)
            types = frozenset() if kind == "permanent" else frozenset({kind})
            return GrantedAbility(line, ability, Amount("count", types=types, controller="any"), attached=True)
        phrase = who_text
        counter = ""
        plural = True
        if each := re.fullmatch(r"Each (creature|land|artifact) you control", who_text):
            phrase, plural = f"{each.group(1)} you control", False  # Tazri, Stalwart Survivor
        if counted := re.fullmatch(r"Each (\w+) you control with an? (\+1/\+1 )?counter on it", who_text):
            # Rishkar, Jiang Yanggu: the creatures with a counter (of that kind) on them
            phrase, counter = f"{counted.group(1)} you control", "+1/+1" if counted.group(2) else "any"
        if who := _conditional_attached(who_text):
            return GrantedAbility(line, ability, who, attached=True)
        if who_text == "Lands with the chosen name":
            # Petrified Hamlet: every land with the name chosen as it entered (the board's
            # ``chosen.name``; none given, no land has it)
            return GrantedAbility(line, ability, Amount("count", types=frozenset({"land"}), name="chosen",
                                                        controller="any"))
        if who_text == "Command Towers you control":
            # Command Power Plant: the permanents named Command Tower (CR 201.2)
            return GrantedAbility(line, ability, Amount("count", name="Command Tower"))
        if who_text == "Other permanents you control":
            # every other permanent its controller controls, of any type
            return GrantedAbility(line, ability, Amount("count", controller="you", other=True))
        if pair := re.fullmatch(r"Each (land|creature|artifact) and ([A-Z][a-z]+) you control", who_text):
            # "Each land and Ally you control has": a land, or a permanent with the subtype
            return GrantedAbility(line, ability, Amount("count", types=frozenset({pair.group(1)})),
                                  or_who=Amount("count", subtypes=frozenset({pair.group(2).lower()})))
        if pair := re.fullmatch(r"Each ([A-Z][a-z]+) and ([A-Z][a-z]+) you control", who_text):
            # "Each Fungus and Saproling you control has": a permanent with either subtype
            subs = frozenset(g.lower() for g in pair.groups())
            return GrantedAbility(line, ability, Amount("count", subtypes=subs))
        if everyone := re.fullmatch(r"All (.+)", who_text):
            phrase = f"{everyone.group(1)} on the battlefield"
        elif not phrase.endswith(" you control"):
            return None
        lowered = phrase.split()[0] in ("Other", "Basic", "Legendary", "Lands", "Creatures", "Creature", "Artifacts")
        amount = count_amount(phrase[0].lower() + phrase[1:] if lowered else phrase, plural=plural and counter == "")
        return GrantedAbility(line, ability, replace(amount, with_counter=counter) if counter else amount)
    except (Unreadable, BadCost):
        return None


_SPEND_AS = re.compile(r"(You|Players) may spend (mana|white mana|blue mana|black mana|red mana|green mana) as though "
                       r"it were (mana of any color|mana of any type|white mana|blue mana|black mana|red mana"
                       r"|green mana)"
                       r"(?: to (cast (?:creature|planeswalker|artifact|[A-Z][a-z]+) spells|pay the activation costs "
                       r"of ~'s abilities))?\.")
#: Today's wording of "may spend mana as though it were mana of any type" (Vizier of the Menagerie).
_SPEND_ANY = re.compile(r"^(You|Players) can spend mana of any (type|color)((?: to [^.]+)?)\.$")
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


#: Celestial Dawn's second sentence (CR 609.4b): the mana the first one does not widen.
_OTHERS_ONLY = " You may spend other mana only as though it were colorless mana."


def _spend_as(line: str) -> SpendAs | None:
    """"You may spend white mana as though it were red mana." and kin (CR 609.4b); Celestial
    Dawn's "… white mana as though it were mana of any color. You may spend other mana only as
    though it were colorless mana." as one rule with ``others_only`` colorless."""
    others_only = 0
    if line.endswith(_OTHERS_ONLY):
        line, others_only = line[:-len(_OTHERS_ONLY)], C
    m = _SPEND_AS.fullmatch(_SPEND_ANY.sub(r"\1 may spend mana as though it were mana of any \2\3.", line))
    if m is None or (others_only and m.group(2) == "mana"):
        return None
    spent = ANY_TYPE if m.group(2) == "mana" else type_bit(_COLOR_WORDS[m.group(2).split()[0]])
    as_types = {"mana of any color": ANY_COLOR, "mana of any type": ANY_TYPE}.get(m.group(3))
    if as_types is None:
        as_types = type_bit(_COLOR_WORDS[m.group(3).split()[0]])
    scope = m.group(4) or ""
    kind = scope.split()[1] if scope.startswith("cast ") else ""
    spell_types = frozenset({kind}) if kind.islower() and kind else frozenset()
    # "to cast Case spells" (Case File Auditor): spells with that subtype
    spell_subtypes = frozenset({kind.lower()}) if kind[:1].isupper() else frozenset()
    text = line + _OTHERS_ONLY if others_only else line
    return SpendAs(text, spent, as_types, players=m.group(1) == "Players", spell_types=spell_types,
                   spell_subtypes=spell_subtypes, own_abilities=scope.startswith("pay "), others_only=others_only)


def _abilities_of(line: str) -> AbilitiesOf | None:
    """"~ has all activated abilities of all lands on the battlefield." and kin (layer 6); an ability
    word or flavor word before it has no rules meaning (CR 207.2c: Trazyn's "Prismatic Gallery")."""
    text = line
    if flavored := re.fullmatch(r"[A-Z][a-z']+(?: [A-Za-z']+)* — (.+)", line):
        line = flavored.group(1)
    if given := re.fullmatch(r"(Creatures|Foods) you control have all activated abilities of all (creature|land) "
                             r"cards exiled with ~\.", line):
        # Steward of the Harvest, Hazel's Brewmaster: the cards exiled with the source
        return AbilitiesOf(text, "exiled_with_source", given_to=given.group(1).lower().removesuffix("s"))
    m = re.fullmatch(r"(?:As long as [^,]+, )?(?:~|it) has all activated abilities of (.+?)\.(?: .*)?", line)
    if m is None:
        return None
    of = {"all creature cards in all graveyards": "graveyard_creatures",
          "all land cards in all graveyards": "graveyard_lands",
          "each other creature with a +1/+1 counter on it": "countered_creatures",
          "all lands on the battlefield": "lands",
          "all artifact cards in your graveyard": "your_graveyard_artifacts",
          "all legendary creatures you control": "legendary_creatures_you_control",
          "all creatures your opponents control": "opponents_creatures",
          "creatures you control that don't have the same name as ~": "differently_named_creatures",
          "lands your opponents control except mana abilities": "none"}.get(m.group(1), "unknown")
    if of in ("graveyard_creatures", "graveyard_lands", "your_graveyard_artifacts") and not (
            line.startswith("~ has") or re.match(r"As long as (?:~|[A-Z][\w']*) is on the battlefield, it has", line)):
        of = "unknown"  # "As long as Trazyn is on the battlefield": its short name
    return AbilitiesOf(text, of)


_PROHIBITED = {"artifacts": frozenset({"artifact"}), "creatures": frozenset({"creature"}),
               "artifacts and creatures": frozenset({"artifact", "creature"})}


def _prohibition(line: str) -> Prohibition | None:
    """"Activated abilities of artifacts can't be activated." and kin (CR 602.5)."""
    if line == "Activated abilities of sources with the chosen name can't be activated.":
        return Prohibition(line, frozenset(), chosen_name=True)
    m = re.fullmatch(r"Activated abilities of (artifacts|creatures|artifacts and creatures)( your opponents control)? "
                     r"can't be activated\.", line)
    if m is None:
        return None
    return Prohibition(line, _PROHIBITED[m.group(1)], "opponents" if m.group(2) else "any")


_SWAP = re.compile(r"(?:and )?(Plains|Islands|Swamps|Mountains|Forests) produce \{([WUBRGC])\}")
_SWAPS = re.compile(r"If tapped for mana, ((?:(?:and )?(?:Plains|Islands|Swamps|Mountains|Forests) produce "
                    r"\{[WUBRGC]\}(?:, )?)+) instead of any other type\.")
_TWO_GRANTS = re.compile(r"Enchanted land loses all land types and abilities and has \"([^\"]+)\" and \"([^\"]+)\"\.?")
_CHOSEN_NAME_MOON = ("Lands your opponents control with the chosen name lose all land types and abilities, and they "
                     "gain \"{T}: Add one mana of any color.\"")
_FIXED: dict[str, tuple[StructuredEffect, ...]] = {}


def _fixed(line: str) -> tuple[StructuredEffect, ...] | None:
    """Whole clauses printed on one card each, read as they are (CR 106.12, 605.1b, 614, 613.1d,
    613.1f); None for any other line."""
    if not _FIXED:
        from manasolver.models.symbols import G, U
        _FIXED.update({
            # Winter's Night: "that land doesn't untap" changes nothing this payment decides
            ("Whenever a player taps a snow land for mana, that player adds one mana of any type that land "
             "produced. That land doesn't untap during its controller's next untap step."):
                (TriggeredMana("", "any_land", produced_type=True, snow=True),),
            ("Whenever a land with the same name as the exiled card is tapped for mana, its controller adds one "
             "mana of any type that land produced."):
                (TriggeredMana("", "imprinted_name", produced_type=True),),
            # Snowfall: its mana pays only cumulative upkeep costs, which no query pays (CR 106.6)
            ("Whenever an Island is tapped for mana, its controller may add an additional {U}. If that Island is "
             "snow, its controller may add an additional {U}{U} instead. Spend this mana only to pay cumulative "
             "upkeep costs."):
                (TriggeredMana("", "any_land", options=((U,),), land_types=("island",), unspendable=True),),
            ("At the beginning of each upkeep, count the number of permanents. If the number is odd, until end of "
             "turn, red creatures get +1/+1 and whenever a player taps a Mountain for mana, that player adds an "
             "additional {R}. If the number is even, until end of turn, red creatures get -1/-1 and if a player "
             "taps a Mountain for mana, that Mountain produces colorless mana instead of any other type."):
                (NotOnBoardEffect("", "the number of permanents at the beginning of this turn's upkeep",
                                  land_types=("mountain",)),),
            "Whenever enchanted land is tapped for mana, its controller adds an additional {G} for each Elf on the "
            "battlefield.":
                (TriggeredMana("", "enchanted_land", options=((G,),),
                               amount=Amount("count", subtypes=frozenset({"elf"}), controller="any")),),
        })
    return _FIXED.get(line)


def _read_all(line: str) -> tuple[StructuredEffect, ...]:
    """One clause → every effect it makes (a clause may make several: Naked Singularity's five
    replacements, Lithoform Blight's type change and two grants)."""
    fixed = _fixed(line)
    if fixed is not None:
        return fixed
    if m := re.fullmatch(r"[^:]*\{T\}[^:]*: Add [^.]+\. ~ deals (\d+) damage to you if you don't control an? "
                         r"([A-Z][\w'\-]*)\.", line):
        from manasolver.models.text.mana_abilities import Unreadable
        from manasolver.models.text.mana_amounts import count_amount
        try:
            unless = count_amount(f"{m.group(2)} you control")
        except Unreadable:
            return ()
        return (ConditionalDamage(line, int(m.group(1)), unless),)
    if m := _SWAPS.fullmatch(line):
        # each land type's replacement (CR 614.1a); a land of two types meets both, in the order
        # its controller chooses (616.1), so the last one decides
        return tuple(ProducesInstead(line, type_bit(letter), keep_amount=True, land_type=_PLURAL_TYPES[kind.lower()])
                     for kind, letter in _SWAP.findall(m.group(1)))
    if m := _TWO_GRANTS.fullmatch(line):
        grants = [_plain_grant(f"Enchanted land has \"{q}.\"" if not q.endswith(".") else f"Enchanted land has \"{q}\"")
                  for q in m.groups()]
        if any(g is None for g in grants):
            return ()
        return (LandTypeChange(line, "enchanted_land", (), sets=True),
                *(replace(g, text=line) for g in grants if g is not None))
    if line == _CHOSEN_NAME_MOON:
        # Alpine Moon (CR 613.1d then 613.1f): the chosen name is the permanent's chosen.name
        grant = _plain_grant('Lands you control have "{T}: Add one mana of any color."')
        if grant is None:
            return ()
        return (LandTypeChange(line, "chosen_name_opponents", (), sets=True),
                replace(grant, text=line, who=replace(grant.who, controller="opponents", name="chosen")))
    if m := re.fullmatch(r"As long as ~ is modified, it has (\"[^\"]+\")\.?", line):
        # CR 700.9: counters, an Equipment, or an Aura its controller controls
        grant = _plain_grant(f"Lands you control have {m.group(1)}.")
        if grant is None:
            return ()
        return (replace(grant, text=line, self_only=True,
                        condition=Condition(line, counts=((Amount("modified"), 1),))),)
    if m := (re.fullmatch(r"As long as ~ is renowned, it has (?:vigilance and )?(\"[^\"]+\")\.?", line)
             or re.fullmatch(r"As long as the top card of your library is an? (land|creature|artifact) card, ~ has "
                             r"(\"[^\"]+\")\.?", line)):
        # read from the board's history fields: renowned (CR 702.112b), the library's top card
        # (models/rules/history.py); vigilance does not matter to a payment
        quoted = m.group(m.lastindex or 1)
        grant = _plain_grant(f"Lands you control have {quoted}.")
        if grant is None:
            return ()
        amount = (Amount("renowned") if "renowned" in line
                  else Amount("top_card", types=frozenset({m.group(1)})))
        return (replace(grant, text=line, self_only=True, condition=Condition(line, counts=((amount, 1),))),)
    if m := re.fullmatch(r"Whenever you tap a land for mana while you're the monarch, (add .+)\.", line):
        # Regal Behemoth: the trigger's mana counted once while its controller is the monarch (the
        # player's designations, models/rules/history.py), none otherwise
        plain = _read(f"Whenever you tap a land for mana, {m.group(1)}.")
        if not isinstance(plain, TriggeredMana) or plain.amount is not None:
            return ()
        return (replace(plain, text=line, amount=Amount("designation", name="monarch")),)
    effect = _read(line)
    return () if effect is None else (effect,)


#: Barbflare Gremlin's trigger, its self-reference read as ``~`` or kept as "this creature".
_IF_TAPPED_TRIGGER = re.compile(r"Whenever a player taps a land for mana, if (?:~|this creature) is tapped, "
                                r"that player adds one mana of any type that land produced\. Then that land deals 1 "
                                r"damage to that player\.")
#: Runaway Growth's trigger, its name read as ``~``.
_INTENSITY_TRIGGER = ("Whenever enchanted land is tapped for mana, its controller adds an additional amount of {G} "
                      "equal to ~'s intensity. Then ~ intensifies by 1.")


def _read(line: str) -> StructuredEffect | None:
    """One clause (reminder text removed, the card's name as ``~``) → an effect, or None."""
    if "can't be activated" in line:
        return _prohibition(line)
    if "all activated abilities of" in line and "the chosen permanent" not in line:
        return _abilities_of(line)
    if ("as though it were" in line or "spend mana of any" in line) and (spend := _spend_as(line)) is not None:
        return spend
    if '"' in line:
        return _grant(line)
    if _IF_TAPPED_TRIGGER.fullmatch(line):
        # Barbflare Gremlin: Mana Flare while the source is tapped (models/rules/production.py);
        # untapped it adds nothing
        return TriggeredMana(line, "any_land_while_source_tapped", produced_type=True)
    if line == _INTENSITY_TRIGGER:
        # Runaway Growth: its intensity (a digital mechanic) is not on the board: the trigger adds
        # nothing while the Aura is attached to nothing, and the enchanted land is left out naming it
        return TriggeredMana(line, "enchanted_land", ((type_bit("G"),),),
                             amount=Amount("history", name="the Aura's intensity"))
    if m := re.fullmatch(r"As long as ~ has an? ([\w+\-/]+) counter on (?:it|him|her|them), (n[^,]+)", line):
        # Zhao, the Moon Slayer: a Blood Moon while it has that counter (CR 613.1d)
        inner = _read(m.group(2)[0].upper() + m.group(2)[1:])
        if isinstance(inner, LandTypeChange):
            return replace(inner, text=line, while_counter=m.group(1))
        return None
    for pattern, kind in _patterns():
        m = pattern.fullmatch(line)
        if m is None:
            continue
        if kind == "multiplier":
            return ManaMultiplier(line, _TIMES[m.group(1)])
        if kind == "basic_multiplier":  # Virtue of Strength: the controller's basic lands only
            return ManaMultiplier(line, _TIMES[m.group(1)], what="basic_land")
        if kind == "instead_amount":
            return ProducesInstead(line, type_bit(m.group(1)))
        if kind == "pale_moon":
            return ProducesInstead(line, C, keep_amount=True, what="nonbasic_land")
        if kind == "pulse":  # Pulse of Llanowar: the amount is kept, each mana of a color of choice
            return ProducesInstead(line, ANY_COLOR, keep_amount=True, what="basic_land", tapper="you")
        if kind == "moon":
            return LandTypeChange(line, "nonbasic_lands", (_PLURAL_TYPES[m.group(1).lower()],), sets=True)
        if kind == "enchanted_type":
            return LandTypeChange(line, "enchanted_land", (m.group(1).lower(),), sets=True)
        if kind == "each_land":
            return LandTypeChange(line, "each_land", (m.group(1).lower(),))
        if kind == "omen":
            return LandTypeChange(line, "lands_you_control", BASIC_ORDER)
        if kind == "caged_sun":
            return TriggeredMana(line, "land_ability", chosen=1, recipient="you")
        if kind == "instead_type":
            mana = C if m.group(1) == "colorless mana" else type_bit(m.group(1)[1])
            return ProducesInstead(line, mana, keep_amount=True)
        if kind == "damping":
            return ProducesInstead(line, type_bit(m.group(1)), min_amount=2)
        if kind == "enchanted_types":
            types = tuple(t.lower() for t in m.groups())
            if not set(types) <= set(BASIC_ORDER):
                return None
            return LandTypeChange(line, "enchanted_land", tuple(t for t in BASIC_ORDER if t in types), sets=True)
        if kind == "enchanted_all":
            return LandTypeChange(line, "enchanted_land", BASIC_ORDER)
        if kind == "yours_are":
            return LandTypeChange(line, "lands_you_control", (_PLURAL_TYPES[m.group(1).lower()],), sets=True)
        if kind == "yours_add":  # Swampbenders: the type is added (CR 305.7)
            return LandTypeChange(line, "lands_you_control", (_PLURAL_TYPES[m.group(1).lower()],))
        if kind == "all_lands_add":
            return LandTypeChange(line, "each_land", (_PLURAL_TYPES[m.group(1).lower()],))
        land_types: tuple[str, ...] = ()
        if kind in ("your_typed", "any_typed"):
            land_types = tuple(t.lower() for t in re.findall(r"Plains|Island|Swamp|Mountain|Forest", m.group(1)))
        added = _added(m.group(m.lastindex or 1))
        if added is None:
            return None
        options, produced, chosen = added
        if kind == "basic_land" and not chosen:
            return None
        recipient = "you" if kind in ("your_land", "your_typed", "your_creature", "your_nonland",
                                      "your_artifact_token") \
            else "land_controller"
        trigger = {"enchanted": "enchanted_land", "your_typed": "your_land", "any_typed": "any_land",
                   "any_basic_land": "any_land"}.get(kind, kind)
        return TriggeredMana(line, trigger, options, produced, chosen, recipient, land_types,
                             basic=kind == "any_basic_land")
    return None


def mana_effects_of(card: Card) -> tuple[StructuredEffect, ...]:
    """The structured effects on mana production printed on ``card`` (its front face; the
    other faces' effects are on those faces).  ``text`` of each effect is the clause as
    the parser reports it in ``Card.unsupported`` (reminder text removed).  The reading
    stored on the card when it was built; a card built by hand is read here (cached)."""
    text = card.text
    if text is not None:
        return text.mana_effects
    return _effects_of_text(card.oracle_text, card.name)


def read_mana_effects(oracle_text: str, name: str) -> tuple[StructuredEffect, ...]:
    """The structured effects of one face's rules text (``name`` read as a self reference)."""
    from manasolver.models.text.oracle import self_reference, strip_reminder

    from manasolver.models.text.oracle import level_condition

    out: list[StructuredEffect] = []
    level = None
    modal = ""
    for raw in oracle_text.split("\n"):
        line = strip_reminder(raw)
        if re.fullmatch(r"LEVEL \d+(?:-\d+|\+)", line):
            level = level_condition(line)  # what follows exists only at these levels (CR 711.2)
            continue
        if not line or len(line) > 400:
            continue
        for effect in _read_all(_named_in_quotes(self_reference(line, name), name)):
            if level is not None:
                if not isinstance(effect, GrantedAbility) or effect.condition is not None:
                    continue  # left unsupported
                effect = replace(effect, condition=level)
            out.append(replace(effect, text=line))
        if line == _SUNRISE_MODE and modal == _SUNRISE_TRIGGER:
            # Glorious Sunrise: which land the trigger chose this turn is not on the board; before
            # combat on its controller's turn the trigger has not resolved, and the grant ends
            # with the turn
            out.append(NotOnBoardEffect(line, "which land its trigger chose this turn", window="beginning_of_combat"))
        if not line.startswith("•"):
            modal = line
    return tuple(out)


def _named_in_quotes(line: str, name: str) -> str:
    """``line`` with "a ~" in a quoted ability given back its card's name: an article before the name
    makes it a name, not a self reference (Command Power Plant grants Command Towers "If you control a
    Command Mine and a Command Power Plant, add …": any permanent with that name, CR 201.2)."""
    if '"' not in line or "~" not in line:
        return line
    return re.sub(r'"[^"]*"', lambda q: re.sub(r"\ban? ~(?=[ ,.:])", f"a {name}", q.group(0)), line)


_SUNRISE_TRIGGER = "At the beginning of combat on your turn, choose one —"
_SUNRISE_MODE = '• Target land gains "{T}: Add {G}{G}{G}" until end of turn.'


_effects_of_text = lru_cache(maxsize=512)(read_mana_effects)


def remaining_unsupported(card: Card) -> tuple[str, ...]:
    """``card.unsupported`` without the clauses :func:`mana_effects_of` reads: what is left
    for a solver that applies every structured effect."""
    from manasolver.models.text.oracle import changes_no_payment

    done = {e.text for e in mana_effects_of(card)}
    return tuple(u for u in card.unsupported if u not in done and not changes_no_payment(u))
