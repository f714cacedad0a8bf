"""Boards for the payment tests, built from the model dataclasses.

Cards here are written the way the oracle parser reads them (the card's rules
text is in each ``text``), so the tests do not depend on the card database;
where the database is available, :func:`real` loads a card from it instead.
"""

from __future__ import annotations

from manasolver.models.abilities import (
    AbilityCost,
    ManaAbility,
    Production,
    Restriction,
)
from manasolver.models.card import Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState, Permanent, Player, Turn
from manasolver.models.symbols import ANY_COLOR, mask_from_letters
from manasolver.solver.request import Modifier, PaymentRequest, Policy, SpellInfo

TAP = AbilityCost(tap=True)
BASIC = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def ability(letters: str | list[str], index: int = 0, cost: AbilityCost = TAP, text: str = "",
            damage: int = 0, restriction: Restriction | None = None) -> ManaAbility:
    """``"G"`` → adds {G}; ``"WU"`` → one mana, W or U; ``["CC"]`` → adds {C}{C}
    (a list gives the slots of one option); ``"*"`` → one mana of any color."""
    if isinstance(letters, list):
        options: tuple[tuple[int, ...], ...] = (tuple(mask_from_letters(ch) for ch in letters[0]),)
    elif letters == "*":
        options = ((ANY_COLOR,),)
    else:
        options = ((mask_from_letters(letters),),)
    return ManaAbility(cost, Production(options, restriction=restriction), text or f"add {letters}",
                       index, damage)


def card(name: str, type_line: str, *abilities: ManaAbility, mana_cost: str | None = None,
         keywords: frozenset[str] = frozenset(), unsupported: tuple[str, ...] = ()) -> Card:
    abil = tuple(ManaAbility(a.cost, a.production, a.text, i, a.damage, a.intrinsic)
                 for i, a in enumerate(abilities))
    return Card(name, ManaCost.parse(mana_cost) if mana_cost else None, TypeLine.parse(type_line),
                mana_abilities=abil, keywords=keywords, unsupported=unsupported)


def basic(letter: str, snow: bool = False) -> Card:
    name = ("Snow-Covered " if snow else "") + BASIC[letter]
    return card(name, ("Basic Snow Land — " if snow else "Basic Land — ") + BASIC[letter],
                ability(letter, text=f"{{T}}: Add {{{letter}}}."))


FOREST, ISLAND, PLAINS, SWAMP, MOUNTAIN = (basic(c) for c in "GUWBR")
SNOW_FOREST = basic("G", snow=True)
WASTES = card("Wastes", "Basic Land", ability("C", text="{T}: Add {C}."))
SOL_RING = card("Sol Ring", "Artifact", ability(["CC"], text="{T}: Add {C}{C}."), mana_cost="{1}")
MIND_STONE = card("Mind Stone", "Artifact", ability("C"), mana_cost="{2}")
ELVES = card("Llanowar Elves", "Creature — Elf Druid", ability("G"), mana_cost="{G}")
BIRDS = card("Birds of Paradise", "Creature — Bird", ability("*"), mana_cost="{G}")
TREASURE = card("Treasure", "Token Artifact — Treasure",
                ability("*", cost=AbilityCost(tap=True, sacrifice_self=True),
                        text="{T}, Sacrifice this artifact: Add one mana of any color."))
CITY_OF_BRASS = card("City of Brass", "Land", ability("*", damage=1,
                     text="{T}: Add one mana of any color. City of Brass deals 1 damage to you."))
ADARKAR_WASTES = card("Adarkar Wastes", "Land", ability("C", text="{T}: Add {C}."),
                      ability("WU", damage=1, text="{T}: Add {W} or {U}. This land deals 1 damage to you."))
TUNDRA = card("Tundra", "Land — Plains Island", ability("W"), ability("U"))
ZIGGURAT = card("Ancient Ziggurat", "Land", ability(
    "*", restriction=Restriction("Spend this mana only to cast a creature spell.",
                                 spell_types=frozenset({"creature"})),
    text="{T}: Add one mana of any color. Spend this mana only to cast a creature spell."))
SIGNET_WU = card("Azorius Signet", "Artifact", ability(
    ["WU"], cost=AbilityCost(tap=True, mana=ManaCost.parse("{1}")), text="{1}, {T}: Add {W}{U}."),
    mana_cost="{2}")
MYSTIC_GATE = card("Mystic Gate", "Land", ability("C", text="{T}: Add {C}."), ManaAbility(
    AbilityCost(tap=True, mana=ManaCost.parse("{W/U}")),
    Production(((1, 1), (1, 2), (2, 2))), "{W/U}, {T}: Add {W}{W}, {W}{U}, or {U}{U}.", 1))
VAULT = card("Mystery Relic", "Artifact", unsupported=("{T}: Add mana in a way nobody parses.",))


def perm(pid: str, c: Card, controller: str = "you", **kw: object) -> Permanent:
    return Permanent(pid, c, controller, **kw)  # type: ignore[arg-type]


def board(*perms: Permanent, life: int = 20, energy: int = 0, pool: str = "",
          hand: tuple[Card, ...] = ()) -> GameState:
    you = Player("you", life=life, energy=energy, pool=ManaCost.parse(pool, allow_empty=True),
                 hand=hand)
    return GameState((you, Player("opponent")), Turn("you"), tuple(perms))


def lands(spec: str, **kw: object) -> GameState:
    """``lands("GGU")`` → Forest, Forest, Island (ids f0, f1, …)."""
    cards = {"G": FOREST, "U": ISLAND, "W": PLAINS, "B": SWAMP, "R": MOUNTAIN, "C": WASTES,
             "S": SNOW_FOREST}
    return board(*(perm(f"l{i}", cards[ch]) for i, ch in enumerate(spec)), **kw)  # type: ignore[arg-type]


def request(state: GameState, cost: str, *, x: int | None = None, mods: tuple[Modifier, ...] = (),
            spell: SpellInfo | None = None, policy: Policy | None = None) -> PaymentRequest:
    return PaymentRequest(state, ManaCost.parse(cost), state.players[0].name, spell=spell, x=x,
                          modifiers=mods, policy=policy or Policy())


def reduce(cost: str) -> Modifier:
    return Modifier("reduce", ManaCost.parse(cost))


def increase(cost: str) -> Modifier:
    return Modifier("increase", ManaCost.parse(cost))


def minimum(n: int) -> Modifier:
    return Modifier("minimum", amount=n)


def commander_board(n: int = 40) -> GameState:
    """A Commander-like board of ``n`` permanents: basics, duals, rocks, dorks, a Treasure."""
    pool = [FOREST, ISLAND, PLAINS, SWAMP, MOUNTAIN, TUNDRA, ADARKAR_WASTES, CITY_OF_BRASS,
            SOL_RING, MIND_STONE, ELVES, BIRDS, TREASURE, SIGNET_WU, WASTES]
    weights = [6, 6, 4, 4, 3, 2, 2, 1, 1, 1, 2, 1, 1, 1, 1]
    seq: list[Card] = []
    while len(seq) < n:
        for c, w in zip(pool, weights):
            seq.extend([c] * w)
    return board(*(perm(f"p{i}", c) for i, c in enumerate(seq[:n])))
