"""Benchmark boards and costs of real cards.

Every board is board JSON, naming cards of the bundled
card database; every cost is the printed mana cost of a real card, or a cost
sized to a large board so that paying it needs nearly every permanent.  The
generators are deterministic: the same ``seed`` gives the same board.

* :func:`commander_board`: a Commander-like board of 40 permanents (basics,
  original dual lands, pain lands, filter lands, Command Tower, Sol Ring, Arcane
  Signet and two-color Signets, mana creatures, a Treasure, and a few
  permanents without mana abilities) with a three-card hand;
* :func:`small_board`: 10 permanents drawn from the same pools;
* :func:`lands_board`: basics and original dual lands, any size (300, 1,000);
* :func:`tight_cost` / :func:`over_cost`: a cost that needs all but ``slack``
  of a lands board's mana, and one of the same size that no assignment pays;
* :func:`cataracts_board`: three Cascading Cataracts and thirty lands (the
  XMage ``options`` case that froze, magefree/mage#7710);
* :data:`PEER_REFUSALS`: the payable costs phase.rs's heuristic autotapper refuses.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

__all__ = [
    "BASICS",
    "COLOR_OF_BASIC",
    "COMMANDER",
    "DORKS",
    "DUALS",
    "FILTER_LANDS",
    "HAND",
    "OTHERS",
    "PAIN_LANDS",
    "PEER_REFUSALS",
    "ROCKS",
    "SIGNETS",
    "SPELL_COSTS",
    "UTILITY",
    "board_cards",
    "cataracts_board",
    "commander_board",
    "costs_for",
    "generic_cost",
    "lands_board",
    "mana_cost_share",
    "mixed_board",
    "over_cost",
    "permanent",
    "small_board",
    "tight_cost",
    "write_boards",
]

COLOR_OF_BASIC = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
BASICS = tuple(COLOR_OF_BASIC)
#: The ten original dual lands and their colors.
DUALS = {"Tundra": "WU", "Underground Sea": "UB", "Badlands": "BR", "Taiga": "RG", "Savannah": "GW",
         "Scrubland": "WB", "Volcanic Island": "UR", "Bayou": "BG", "Plateau": "RW",
         "Tropical Island": "GU"}
PAIN_LANDS = ("Adarkar Wastes", "Underground River", "Sulfurous Springs", "Karplusan Forest",
              "Brushland", "Caves of Koilos", "Shivan Reef", "Llanowar Wastes", "Battlefield Forge",
              "Yavimaya Coast")
FILTER_LANDS = ("Mystic Gate", "Sunken Ruins", "Graven Cairns", "Fire-Lit Thicket", "Wooded Bastion",
                "Fetid Heath", "Cascade Bluffs", "Twilight Mire", "Rugged Prairie", "Flooded Grove")
SIGNETS = ("Azorius Signet", "Dimir Signet", "Rakdos Signet", "Gruul Signet", "Selesnya Signet",
           "Orzhov Signet", "Izzet Signet", "Golgari Signet", "Boros Signet", "Simic Signet")
DORKS = ("Llanowar Elves", "Birds of Paradise", "Elvish Mystic", "Avacyn's Pilgrim", "Noble Hierarch")
#: Permanents without mana abilities, as a real board has them.
OTHERS = ("Rhystic Study", "Serra Angel", "Grizzly Bears", "Consecrated Sphinx", "Thragtusk")
HAND = ("Counterspell", "Cultivate", "Swords to Plowshares")
#: The Commander board's commander: its color identity is all five colors (CR 903.4), so
#: Command Tower and Arcane Signet make any color.
COMMANDER = "Kenrith, the Returned King"

#: Real cards and their printed mana costs (tests check them against the card database).
SPELL_COSTS: tuple[tuple[str, str], ...] = (
    ("Counterspell", "{U}{U}"), ("Swords to Plowshares", "{W}"), ("Cultivate", "{2}{G}"),
    ("Wrath of God", "{2}{W}{W}"), ("Cyclonic Rift", "{1}{U}"), ("Kolaghan's Command", "{1}{B}{R}"),
    ("Maelstrom Pulse", "{1}{B}{G}"), ("Mystic Confluence", "{3}{U}{U}"),
    ("Supreme Verdict", "{1}{W}{W}{U}"), ("Sphinx's Revelation", "{X}{W}{U}{U}"),
    ("Reaper King", "{2/W}{2/U}{2/B}{2/R}{2/G}"), ("Dismember", "{1}{B/P}{B/P}"),
    ("Kitchen Finks", "{1}{G/W}{G/W}"), ("Atraxa, Praetors' Voice", "{G}{W}{U}{B}"),
    ("Omnath, Locus of Creation", "{R}{G}{W}{U}"), ("Maelstrom Wanderer", "{5}{G}{U}{R}"),
    ("Decimate", "{2}{R}{G}"), ("Esper Charm", "{W}{U}{B}"), ("Gitaxian Probe", "{U/P}"),
    ("Boros Charm", "{R}{W}"), ("Manamorphose", "{1}{R/G}"), ("Spectral Procession", "{2/W}{2/W}{2/W}"),
    ("Fireball", "{X}{R}"), ("Thragtusk", "{4}{G}"), ("Consecrated Sphinx", "{4}{U}{U}"),
    ("Craterhoof Behemoth", "{5}{G}{G}{G}"), ("Cryptic Command", "{1}{U}{U}{U}"),
    ("Chromatic Orrery", "{7}"), ("Rhystic Study", "{2}{U}"), ("Demonic Tutor", "{1}{B}"),
    ("Birthing Pod", "{3}{G/P}"), ("Ulamog, the Ceaseless Hunger", "{10}"), ("Sol Ring", "{1}"),
    ("Lightning Helix", "{R}{W}"), ("Fact or Fiction", "{3}{U}"), ("Anguished Unmaking", "{1}{W}{B}"),
    ("Teferi's Protection", "{2}{W}"), ("Terminate", "{B}{R}"), ("Growth Spiral", "{G}{U}"),
    ("Assassin's Trophy", "{B}{G}"), ("Deathrite Shaman", "{B/G}"),
    ("Boros Reckoner", "{R/W}{R/W}{R/W}"), ("Nekusar, the Mindrazer", "{2}{U}{B}{R}"),
    ("Niv-Mizzet Reborn", "{W}{U}{B}{R}{G}"), ("Tasigur, the Golden Fang", "{5}{B}"),
    ("Progenitus", "{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}"), ("Sidisi, Brood Tyrant", "{1}{B}{G}{U}"),
    ("Jeskai Ascendancy", "{U}{R}{W}"), ("Abzan Charm", "{W}{B}{G}"), ("Hydroid Krasis", "{X}{G}{U}"),
    ("Apostle's Blessing", "{1}{W/P}"), ("Act of Aggression", "{3}{R/P}{R/P}"),
    ("Kozilek, Butcher of Truth", "{10}"), ("Blightsteel Colossus", "{12}"),
)

#: Payable costs that phase.rs's autotapper refuses: (board cards, cost).
PEER_REFUSALS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("Plains", "Island"), "{W/U}{W}"),
    (("Plains", "Island"), "{W}{W/U}"),  # the same cost in the other order, which phase.rs pays
    (("Plains", "Island", "Island"), "{2/W}{W}"),
    (("Scrubland", "Mountain", "Island", "Savannah", "Bayou"), "{B}{W}{W}"),
    (("Swamp", "Forest", "Island", "Wastes", "Wastes"), "{2}{B}{G/U}{G}"),
)


def permanent(pid: str, card: str, **fields: Any) -> dict[str, Any]:
    """One battlefield entry of board JSON controlled by ``you``."""
    out: dict[str, Any] = {"id": pid, "card": card, "controller": "you"}
    out.update(fields)
    return out


def _board(perms: list[dict[str, Any]], hand: tuple[str, ...] = (), life: int = 20,
           commander: tuple[str, ...] = ()) -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you", "life": life, "hand": list(hand)}
    if commander:
        you["commander"] = list(commander)
        you["starting_life"] = life
    return {"players": [you, {"name": "opponent", "life": life}], "battlefield": perms}


def commander_board(seed: int = 0, size: int = 40) -> dict[str, Any]:
    """A Commander-like board of ``size`` (default 40) real permanents.

    Composition at 40: 13 basics, 6 original duals, 4 pain lands, 3 filter
    lands, Command Tower, Sol Ring, Arcane Signet, 3 Signets, 3 mana creatures
    (one of them summoning sick), a Treasure and 4 permanents without mana
    abilities; a hand of three real cards (what ``keep_castable`` keeps); 40 life
    and Kenrith, the Returned King as the commander (its identity is all five
    colors, so Command Tower and Arcane Signet make any color, CR 903.4).
    """
    rng = random.Random(seed)
    names: list[str] = []
    names += [rng.choice(BASICS) for _ in range(13)]
    names += rng.sample(sorted(DUALS), 6)
    names += rng.sample(PAIN_LANDS, 4)
    names += rng.sample(FILTER_LANDS, 3)
    names += ["Command Tower", "Sol Ring", "Arcane Signet"]
    names += rng.sample(SIGNETS, 3)
    dorks = rng.sample(DORKS, 3)
    others = [rng.choice(OTHERS) for _ in range(4)]
    perms = [permanent(f"p{i}", n) for i, n in enumerate(names)]
    perms += [permanent(f"d{i}", n, sick=(i == 0)) for i, n in enumerate(dorks)]
    perms.append(permanent("t0", "Treasure", token=True))
    perms += [permanent(f"o{i}", n) for i, n in enumerate(others)]
    if size < len(perms):
        perms = rng.sample(perms, size)
    while len(perms) < size:
        perms.append(permanent(f"b{len(perms)}", rng.choice(BASICS)))
    return _board(perms, HAND, life=40, commander=(COMMANDER,))


def repeated_commander_board(size: int = 10_000) -> dict[str, Any]:
    """The benchmark's 40-permanent Commander board (31 real cards: basics, duals, pain and filter
    lands, Signets, Sol Ring, dorks, a Treasure) repeated to ``size`` permanents: at 10,000, 1,500
    members whose abilities cost mana."""
    board = commander_board(0)
    perms = board["battlefield"]
    board["battlefield"] = [{**perms[i % len(perms)], "id": f"p{i}"} for i in range(size)]
    return board


def small_board(seed: int = 0) -> dict[str, Any]:
    """Ten real permanents: 5 basics, 2 duals, a pain land, Sol Ring and a mana creature."""
    rng = random.Random(seed)
    names = [rng.choice(BASICS) for _ in range(5)] + rng.sample(sorted(DUALS), 2)
    names += [rng.choice(PAIN_LANDS), "Sol Ring", rng.choice(DORKS)]
    return _board([permanent(f"p{i}", n) for i, n in enumerate(names)], HAND[:1])


def lands_board(size: int, seed: int = 0, dual_share: float = 0.4) -> dict[str, Any]:
    """``size`` untapped lands: basics and original dual lands (``dual_share`` of them)."""
    rng = random.Random(seed)
    duals = sorted(DUALS)
    perms = []
    for i in range(size):
        name = rng.choice(duals) if rng.random() < dual_share else rng.choice(BASICS)
        perms.append(permanent(f"l{i}", name))
    return _board(perms)


#: Mana rocks and Talismans of the mixed boards (Signets come from :data:`SIGNETS`).
ROCKS = ("Sol Ring", "Mind Stone", "Arcane Signet", "Fellwar Stone", "Thought Vessel", "Talisman of Progress",
         "Talisman of Dominance", "Talisman of Indulgence", "Talisman of Impulse", "Talisman of Unity",
         "Talisman of Hierarchy", "Talisman of Creativity", "Talisman of Conviction", "Talisman of Resilience",
         "Talisman of Curiosity")
#: Utility lands of the mixed boards.
UTILITY = ("Command Tower", "Rogue's Passage", "Reliquary Tower", "Exotic Orchard", "Path of Ancestry")


def mixed_board(size: int, seed: int = 0) -> dict[str, Any]:
    """A board of ``size`` mixed real permanents, as a long game's board has them: 40% basics,
    10% original duals, 8% pain lands, 6% filter lands, 6% utility lands, 10% Signets, 10% rocks
    and Talismans, 10% mana creatures, the rest basics; ids drawn anew from the seed; Kenrith as the commander."""
    rng = random.Random(seed)
    shares = ((BASICS, 0.40), (tuple(DUALS), 0.10), (PAIN_LANDS, 0.08), (FILTER_LANDS, 0.06), (UTILITY, 0.06),
              (SIGNETS, 0.10), (ROCKS, 0.10), (DORKS, 0.10))
    names: list[str] = []
    for pool, share in shares:
        names += [rng.choice(pool) for _ in range(round(size * share))]
    names += [rng.choice(BASICS) for _ in range(size - len(names))]
    names = names[:size]
    rng.shuffle(names)
    ids = rng.sample(range(1, 10**7), len(names))
    return _board([permanent(str(i), n) for i, n in zip(ids, names)], life=40, commander=(COMMANDER,))


def mana_cost_share(board: dict[str, Any], share: float, seed: int = 0) -> str:
    """A cost of about ``share`` of the mana the board's permanents add (a land, creature or
    Talisman one, Sol Ring two, a Signet one more than its own cost: one net): generic mana and
    one colored symbol in eight, of the colors the board's lands make."""
    rng = random.Random(seed)
    mana = sum(2 if p["card"] == "Sol Ring" else 1 for p in board["battlefield"])
    total = max(1, round(mana * share))
    colors = sorted({c for text in _land_colors(board) for c in text}) or ["G"]
    pips: dict[str, int] = {}
    for _ in range(total // 8):
        c = rng.choice(colors)
        pips[c] = pips.get(c, 0) + 1
    return _format(total - sum(pips.values()), pips)


def _land_colors(board: dict[str, Any]) -> list[str]:
    out = []
    for perm in board["battlefield"]:
        name = perm["card"]
        out.append(COLOR_OF_BASIC.get(name) or DUALS.get(name) or "")
    return out


def _format(generic: int, pips: dict[str, int]) -> str:
    text = f"{{{generic}}}" if generic else ""
    text += "".join(f"{{{c}}}" * pips.get(c, 0) for c in "WUBRG")
    return text or "{0}"


def tight_cost(board: dict[str, Any], seed: int = 0, slack: int = 2) -> str:
    """A payable cost needing all but ``slack`` of a lands board's mana.

    Each land is assigned one of its colors at random; the cost asks for
    about 85% of each color's assigned lands as colored symbols and the rest
    as generic, so a payment must match nearly every land to a symbol.
    """
    rng = random.Random(seed)
    assigned: dict[str, int] = {c: 0 for c in "WUBRG"}
    lands = [c for c in _land_colors(board) if c]
    for colors in lands:
        assigned[rng.choice(colors)] += 1
    pips = {c: (n * 85) // 100 for c, n in assigned.items()}
    generic = max(0, len(lands) - slack - sum(pips.values()))
    return _format(generic, pips)


def generic_cost(board: dict[str, Any], slack: int = 2) -> str:
    """A payable cost needing all but ``slack`` of a lands board's mana, almost all of it
    generic: one symbol of each color the board can make, the rest generic (the shape of
    the "cost that needs every land" phase.rs was timed on)."""
    lands = [c for c in _land_colors(board) if c]
    made = set("".join(lands))
    pips = {c: 1 for c in "WUBRG" if c in made}
    return _format(max(0, len(lands) - slack - len(pips)), pips)


def over_cost(board: dict[str, Any], seed: int = 0) -> str:
    """A cost of the same size as :func:`tight_cost` that no assignment pays: one
    color asks for one more symbol than the lands able to make it (Hall's
    condition fails on that color while the total still fits)."""
    rng = random.Random(seed)
    lands = [c for c in _land_colors(board) if c]
    color = rng.choice("WUBRG")
    able = sum(1 for c in lands if color in c)
    pips = {color: able + 1}
    generic = max(0, len(lands) - 2 - pips[color])
    return _format(generic, pips)


def cataracts_board() -> dict[str, Any]:
    """Three Cascading Cataracts and thirty lands (six of each basic), XMage's freeze (mage#7710)."""
    perms = [permanent(f"c{i}", "Cascading Cataracts") for i in range(3)]
    perms += [permanent(f"l{i}", BASICS[i % 5]) for i in range(30)]
    return _board(perms)


def costs_for(seed: int, count: int) -> list[str]:
    """``count`` real card costs drawn (with replacement, deterministically) from
    :data:`SPELL_COSTS`."""
    rng = random.Random(seed)
    return [rng.choice(SPELL_COSTS)[1] for _ in range(count)]


def board_cards(board: dict[str, Any]) -> list[str]:
    """Every card name a board mentions (battlefield, hands, graveyards)."""
    names = [p["card"] for p in board["battlefield"] if "card" in p]
    for player in board["players"]:
        names += [c for c in player.get("commander", []) if isinstance(c, str)]
        names += [c for c in player.get("hand", []) if isinstance(c, str)]
        names += [c for c in player.get("graveyard", []) if isinstance(c, str)]
    return names


def write_boards(out: Path) -> None:
    """Write the benchmark boards as board JSON files to look at or to feed other engines:
    ``small-0.json`` (10 permanents), ``commander-0.json`` (40), ``lands300-0.json``,
    ``lands1000-0.json`` and ``cataracts.json``, with the costs used on each in ``costs.json``."""
    out.mkdir(parents=True, exist_ok=True)
    boards = {"small-0": small_board(0), "commander-0": commander_board(0),
              "lands300-0": lands_board(300, 0), "lands1000-0": lands_board(1000, 0),
              "cataracts": cataracts_board()}
    costs = {"small-0": costs_for(0, 10), "commander-0": costs_for(0, 20),
             "lands300-0": [tight_cost(boards["lands300-0"]), over_cost(boards["lands300-0"])],
             "lands1000-0": [tight_cost(boards["lands1000-0"]), over_cost(boards["lands1000-0"])]}
    for name, board in boards.items():
        (out / f"{name}.json").write_text(json.dumps(board, indent=1) + "\n", encoding="utf-8")
    (out / "costs.json").write_text(json.dumps(costs, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m manasolver.benchmarks.boards OUTDIR")
    write_boards(Path(sys.argv[1]))
