"""The hand-built cards and boards of the tests (graph, validate, backends, policies, the brute force).

Cards are built straight from the model dataclasses, with the mana abilities their oracle text
means (quoted beside each), so the tests that use them do not depend on the oracle parser or the
card database.  Abilities are written either as production options (:func:`ab`: ``((W,), (U,))``
is one mana, W or U) or as letters (:func:`ability`: ``"WU"`` is one mana of a W-or-U slot,
``["CC"]`` adds {C}{C}, ``"*"`` one mana of any color).  :func:`board` builds a
:class:`GameState` from permanents, :func:`lands` from a string of land letters, and
:func:`request` a :class:`PaymentRequest` on it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from manasolver.models.abilities import (
    AbilityCost,
    Amount,
    ManaAbility,
    Production,
    Restriction,
)
from manasolver.models.card import Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState, Permanent, Player, Turn
from manasolver.models.symbols import ANY_COLOR, B, C, G, R, U, W, mask_from_letters
from manasolver.solver.request import Modifier, PaymentRequest, Policy, SpellInfo

TAP = AbilityCost(tap=True)
BITS = {"W": W, "U": U, "B": B, "R": R, "G": G, "C": C}
BASIC_TYPES = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


# -- builders ----------------------------------------------------------------------------------

def ab(options: tuple[tuple[int, ...], ...], cost: AbilityCost = TAP, index: int = 0, damage: int = 0,
       amount: Amount | None = None, restriction: Restriction | None = None,
       intrinsic: bool = False, text: str = "") -> ManaAbility:
    """A mana ability from production options (each option a tuple of slot masks)."""
    return ManaAbility(cost, Production(options=options, amount=amount, restriction=restriction),
                       text=text, index=index, damage=damage, intrinsic=intrinsic)


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


def ref_ab(reference: str, colors_only: bool = False, index: int = 0,
           cost: AbilityCost = TAP) -> ManaAbility:
    """A could-produce ability (CR 106.7)."""
    return ManaAbility(cost, Production(reference=reference, colors_only=colors_only), index=index)


def card(name: str, type_line: str, *abilities: ManaAbility, mana_cost: str | None = None,
         power: str | None = None, colors: int = 0, keywords: frozenset[str] = frozenset(),
         unsupported: tuple[str, ...] = ()) -> Card:
    """A card; its mana abilities are numbered in the order given, its colors follow its cost."""
    cost = ManaCost.parse(mana_cost) if mana_cost else None
    abilities = tuple(replace(a, index=i) for i, a in enumerate(abilities))
    return Card(name, mana_cost=cost, type_line=TypeLine.parse(type_line),
                colors=colors or (cost.colors if cost else 0), power=power, keywords=keywords,
                mana_abilities=abilities, unsupported=unsupported)


def basic(name: str, letter: str, snow: bool = False) -> Card:
    tl = f"Basic {'Snow ' if snow else ''}Land — {BASIC_TYPES[letter]}"
    return card(name, tl, ab(((BITS[letter],),), intrinsic=True, text=f"{{T}}: Add {{{letter}}}."))


def dual(name: str, a: str, b: str) -> Card:
    # "({T}: Add {a} or {b}.)"
    return card(name, "Land", ab(((BITS[a],), (BITS[b],))))


def pain(name: str, a: str, b: str) -> Card:
    # "{T}: Add {C}. {T}: Add {a} or {b}. This land deals 1 damage to you."
    return card(name, "Land", ab(((C,),)), ab(((BITS[a],), (BITS[b],)), damage=1))


# -- the cards ---------------------------------------------------------------------------------

FOREST = basic("Forest", "G")
PLAINS = basic("Plains", "W")
ISLAND = basic("Island", "U")
SWAMP = basic("Swamp", "B")
MOUNTAIN = basic("Mountain", "R")
SNOW_FOREST = basic("Snow-Covered Forest", "G", snow=True)
WASTES = card("Wastes", "Basic Land", ab(((C,),)))  # "{T}: Add {C}."
TUNDRA = dual("Tundra", "W", "U")
BAYOU = dual("Bayou", "B", "G")
ADARKAR_WASTES = pain("Adarkar Wastes", "W", "U")
LLANOWAR_WASTES = pain("Llanowar Wastes", "B", "G")
# "{T}: Add one mana of any color. City of Brass deals 1 damage to you."
CITY_OF_BRASS = card("City of Brass", "Land", ab(((ANY_COLOR,),), damage=1))
SOL_RING = card("Sol Ring", "Artifact", ab(((C, C),)), mana_cost="{1}")  # "{T}: Add {C}{C}."
MIND_STONE = card("Mind Stone", "Artifact", ab(((C,),)), mana_cost="{2}")
BIRDS = card("Birds of Paradise", "Creature — Bird", ab(((ANY_COLOR,),)), mana_cost="{G}",
             power="0")  # "{T}: Add one mana of any color."
ELVES = card("Llanowar Elves", "Creature — Elf Druid", ab(((G,),)), mana_cost="{G}", power="1")
TREASURE = card("Treasure", "Artifact — Treasure",  # "{T}, Sacrifice this artifact: Add one mana of any color."
                ab(((ANY_COLOR,),), cost=AbilityCost(tap=True, sacrifice_self=True)))
# "{W/U}, {T}: Add {W}{W}, {W}{U}, or {U}{U}."  (Mystic Gate; plus its intrinsic-free {T}: Add {C})
MYSTIC_GATE = card("Mystic Gate", "Land", ab(((C,),)),
                   ab(((W, W), (W, U), (U, U)), cost=AbilityCost(tap=True, mana=ManaCost.parse("{W/U}"))))
# "{1}, {T}: Add {W}{U}." (Azorius Signet)
AZORIUS_SIGNET = card("Azorius Signet", "Artifact",
                      ab(((W, U),), cost=AbilityCost(tap=True, mana=ManaCost.parse("{1}"))), mana_cost="{2}")
REFLECTING_POOL = card("Reflecting Pool", "Land", ref_ab("lands_you_control"))
EXOTIC_ORCHARD = card("Exotic Orchard", "Land", ref_ab("lands_opponents_control", colors_only=True))
FELLWAR_STONE = card("Fellwar Stone", "Artifact", ref_ab("lands_opponents_control", colors_only=True),
                     mana_cost="{2}")
# "{T}: Add {R}. {T}, Remove a charge counter from this land: Add one mana of any color."
VIVID_CRAG = card("Vivid Crag", "Land", ab(((R,),)),
                  ab(((ANY_COLOR,),), cost=AbilityCost(tap=True, remove_counters=(("charge", 1),))))
# "{T}: Add {C}. {T}, Pay {E}: Add one mana of any color."
AETHER_HUB = card("Aether Hub", "Land", ab(((C,),)), ab(((ANY_COLOR,),), cost=AbilityCost(tap=True, energy=1)))
# "{T}: Add one mana of any color. Spend this mana only to cast a creature spell."
ANCIENT_ZIGGURAT = card("Ancient Ziggurat", "Land",
                        ab(((ANY_COLOR,),), restriction=Restriction(
                            "Spend this mana only to cast a creature spell.",
                            spell_types=frozenset({"creature"}))))
EVERYWHERE = card("Everywhere", "Land — Plains Island Swamp Mountain Forest",
                  *(ab(((BITS[x],),), intrinsic=True) for x in "WUBRG"))
# "{T}: Add {G} for each creature you control." (a Gaea's Cradle-like land, T105)
CRADLE = card("Cradle Land", "Land",
              ab(((G,),), amount=Amount("count", types=frozenset({"creature"}))))


def joiner(power: str = "1") -> Card:
    """"{T}: Add an amount of {G} equal to Viridian Joiner's power." (T92)"""
    return card("Viridian Joiner", "Creature — Elf Druid", ab(((G,),), amount=Amount("power")),
                mana_cost="{2}{G}", power=power)


WILD_GROWTH = card("Wild Growth", "Enchantment — Aura", mana_cost="{G}")  # triggered mana: no ability
# "Sacrifice a creature: Add {C}{C}." (Ashnod's Altar)
ASHNODS_ALTAR = card("Ashnod's Altar", "Artifact",
                     ab(((C, C),), cost=AbilityCost(sacrifice=("creature",))), mana_cost="{3}")
# "{T}: Add {B}. Activate only ... ; {T}, Pay 1 life: Add {B}{B}"-like: a life-cost ability
LIFE_LAND = card("Blood Land", "Land", ab(((B,),)), ab(((B, B),), cost=AbilityCost(tap=True, life=1)))
# A creature with an untap ability that adds mana ("{Q}: Add {G}.")
UNTAPPER = card("Untap Dork", "Creature — Elf", ab(((G,),), cost=AbilityCost(untap=True)), mana_cost="{G}")
# A land creature, a Forest ("{T}: Add {G}." by its type, CR 305.6)
DRYAD_ARBOR = card("Dryad Arbor", "Land Creature — Forest Dryad", ab(((G,),), intrinsic=True))
# A Forest made a creature by an effect (an animated land)
ANIMATED_FOREST = card("Animated Forest", "Land Creature — Forest Elemental", ab(((G,),), intrinsic=True))
# "{T}, Tap an untapped creature you control: Add one mana of any color." (Springleaf Drum)
SPRINGLEAF_DRUM = card("Springleaf Drum", "Artifact", ab(((ANY_COLOR,),), cost=AbilityCost(tap=True, tap_creatures=1),
                       text="{T}, Tap an untapped creature you control: Add one mana of any color."),
                       mana_cost="{1}")
# A source whose mana text nobody reads: the engine must refuse rather than guess
MYSTERY_RELIC = card("Mystery Relic", "Artifact", unsupported=("{T}: Add a mystery.",))


# -- boards and requests -----------------------------------------------------------------------

def perm(pid: str, c: Card, controller: str = "you", **kw: object) -> Permanent:
    return Permanent(pid, c, controller, **kw)  # type: ignore[arg-type]


def board(*perms: Permanent, life: int = 20, energy: int = 0, pool: str = "",
          hand: tuple[Card, ...] = (), opp: bool = True) -> GameState:
    """A board of ``perms`` for the player "you" (and an opponent unless ``opp`` is false)."""
    players = [Player("you", life=life, energy=energy,
                      pool=ManaCost.parse(pool, allow_empty=True) if pool else ManaCost(), hand=hand)]
    if opp:
        players.append(Player("opponent"))
    return GameState(tuple(players), Turn("you"), tuple(perms))


LAND_LETTERS = {"G": FOREST, "U": ISLAND, "W": PLAINS, "B": SWAMP, "R": MOUNTAIN, "C": WASTES,
                "S": SNOW_FOREST}


def lands(spec: str, **kw: object) -> GameState:
    """``lands("GGU")`` → Forest, Forest, Island (ids l0, l1, …); ``S`` is a Snow-Covered Forest."""
    return board(*(perm(f"l{i}", LAND_LETTERS[ch]) for i, ch in enumerate(spec)), **kw)  # type: ignore[arg-type]


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
            SOL_RING, MIND_STONE, ELVES, BIRDS, TREASURE, AZORIUS_SIGNET, WASTES]
    weights = [6, 6, 4, 4, 3, 2, 2, 1, 1, 1, 2, 1, 1, 1, 1]
    seq: list[Card] = []
    while len(seq) < n:
        for c, w in zip(pool, weights):
            seq.extend([c] * w)
    return board(*(perm(f"p{i}", c) for i, c in enumerate(seq[:n])))


def json_board(*cards: str | dict[str, Any]) -> dict[str, Any]:
    """A board as the protocol's JSON: each card by name, or a permanent object (ids
    ``p0``, ``p1``, … where none is given), for players ``you`` and ``opp``."""
    battlefield = []
    for i, c in enumerate(cards):
        entry = dict(c) if isinstance(c, dict) else {"card": c}
        entry.setdefault("id", f"p{i}")
        battlefield.append(entry)
    return {"players": [{"name": "you"}, {"name": "opp"}], "battlefield": battlefield}


def pay_validated(state: dict[str, Any], cost: str) -> dict[str, Any]:
    """The protocol's ``pay`` answer for ``cost`` on the JSON board ``state``; a payable one's
    payment is first given back to the protocol's ``validate``, which must call it legal."""
    from manasolver.solver.service.protocol import answer

    out = answer({"query": "pay", "state": state, "cost": cost})
    if out.get("payable"):
        check = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"]})
        assert check.get("legal") is True, check
    return out
