"""Hand-built cards and boards for helper D's tests (graph, validate, csp, brute force).

The cards are built straight from the dataclasses, with the mana abilities their
oracle text means (quoted beside each), so these tests do not depend on the
oracle parser.  ``board(...)`` builds a :class:`GameState` from short specs.
"""

from __future__ import annotations

from dataclasses import replace

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
from manasolver.models.symbols import ANY_COLOR, B, C, G, R, U, W

TAP = AbilityCost(tap=True)
BITS = {"W": W, "U": U, "B": B, "R": R, "G": G, "C": C}


def ab(options: tuple[tuple[int, ...], ...], cost: AbilityCost = TAP, index: int = 0, damage: int = 0,
       amount: Amount | None = None, restriction: Restriction | None = None,
       intrinsic: bool = False, text: str = "") -> ManaAbility:
    """A mana ability from production options."""
    return ManaAbility(cost, Production(options=options, amount=amount, restriction=restriction),
                       text=text, index=index, damage=damage, intrinsic=intrinsic)


def ref_ab(reference: str, colors_only: bool = False, index: int = 0,
           cost: AbilityCost = TAP) -> ManaAbility:
    """A could-produce ability (CR 106.7)."""
    return ManaAbility(cost, Production(reference=reference, colors_only=colors_only), index=index)


def card(name: str, type_line: str, *abilities: ManaAbility, mana_cost: str | None = None,
         power: str | None = None, colors: int = 0, keywords: frozenset[str] = frozenset()) -> Card:
    cost = ManaCost.parse(mana_cost) if mana_cost else None
    abilities = tuple(replace(a, index=i) for i, a in enumerate(abilities))
    return Card(name, mana_cost=cost, type_line=TypeLine.parse(type_line),
                colors=colors or (cost.colors if cost else 0), power=power, keywords=keywords,
                mana_abilities=abilities)


def basic(name: str, letter: str, snow: bool = False) -> Card:
    sub = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}[letter]
    tl = f"Basic {'Snow ' if snow else ''}Land — {sub}"
    return card(name, tl, ab(((BITS[letter],),), intrinsic=True, text=f"{{T}}: Add {{{letter}}}."))


def dual(name: str, a: str, b: str) -> Card:
    # "({T}: Add {a} or {b}.)"
    return card(name, "Land", ab(((BITS[a],), (BITS[b],))))


def pain(name: str, a: str, b: str) -> Card:
    # "{T}: Add {C}. {T}: Add {a} or {b}. This land deals 1 damage to you."
    return card(name, "Land", ab(((C,),)), ab(((BITS[a],), (BITS[b],)), damage=1))


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
# "{T}: Add {C}. {T}: Add one mana of any color. Spend this mana only to cast a creature spell."
ANCIENT_ZIGGURAT = card("Ancient Ziggurat", "Land",
                        ab(((ANY_COLOR,),), restriction=Restriction(
                            "Spend this mana only to cast a creature spell.",
                            spell_types=frozenset({"creature"}))))
EVERYWHERE = card("Everywhere", "Land — Plains Island Swamp Mountain Forest",
                  *(ab(((BITS[x],),), intrinsic=True) for x in "WUBRG"))
# "{T}: Add {G} for each creature you control." (a Gaea's Cradle-like land, T105)
CRADLE = card("Cradle Land", "Land",
              ab(((G,),), amount=Amount("count", types=frozenset({"creature"}))))
# "{T}: Add an amount of {G} equal to Viridian Joiner's power." (T92)
def joiner(power: str = "1") -> Card:
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


def perm(pid: str, c: Card, controller: str = "you", **kw: object) -> Permanent:
    return Permanent(pid, c, controller, **kw)  # type: ignore[arg-type]


def board(*perms: Permanent, life: int = 20, energy: int = 0, pool: str = "",
          opp: bool = True) -> GameState:
    players = [Player("you", life=life, energy=energy,
                      pool=ManaCost.parse(pool, allow_empty=True) if pool else ManaCost())]
    if opp:
        players.append(Player("opponent"))
    return GameState(tuple(players), Turn("you"), tuple(perms))
