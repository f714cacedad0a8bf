"""Cost modifiers read from cards and applied from the board (CR 601.2f, 118.7, 702.41)."""

from __future__ import annotations

import pytest
from manasolver.models.card import Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.text.cost_modifiers import read_cost_effects
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent, Player, Turn
from manasolver.models.symbols import R
from manasolver.solver.casting.modifiers import board_modifiers, order_modifiers
from manasolver.solver.request import Modifier, SpellInfo


def card(name: str, type_line: str, text: str = "", power: str | None = None, cost: str | None = None) -> Card:
    return Card(name=name, type_line=TypeLine.parse(type_line), oracle_text=text, power=power,
                mana_cost=ManaCost.parse(cost) if cost else None)


THALIA = card("Thalia, Guardian of Thraben", "Legendary Creature — Human Soldier",
              "First strike\nNoncreature spells cost {1} more to cast.")
ELECTROMANCER = card("Goblin Electromancer", "Creature — Goblin Wizard",
                     "Instant and sorcery spells you cast cost {1} less to cast.")
TRINISPHERE = card("Trinisphere", "Artifact",
                   "As long as Trinisphere is untapped, each spell that would cost less than three mana to "
                   "cast costs three mana to cast. (Additional mana in the cost may be paid with any color "
                   "of mana or colorless mana. For example, a spell that would cost {1}{B} to cast costs "
                   "{2}{B} to cast instead.)")
UGIN = card("Ugin, the Ineffable", "Legendary Planeswalker — Ugin",
            "Colorless spells you cast cost {2} less to cast.")
ARTIFACT = card("Ornithopter", "Artifact Creature — Thopter", power="0")
BOLT = SpellInfo(types=frozenset({"instant"}), colors=R)


def state(*perms: tuple[str, Card, str] | tuple[str, Card, str, bool]) -> GameState:
    bf = tuple(Permanent(p[0], p[1], p[2], tapped=len(p) > 3 and bool(p[3])) for p in perms)
    return GameState((Player("you"), Player("opp")), Turn("you"), bf)


def kinds(mods: list) -> list[tuple[str, str]]:
    out = []
    for applied in mods:
        m = applied.modifier
        out.append((m.kind, str(m.amount) if m.kind == "minimum" else m.cost.format()))
    return out


def test_t60_thalia_and_electromancer_on_bolt() -> None:
    """T60 (601.2f): Thalia +{1} on a noncreature spell, Electromancer {1} off an instant."""
    mods = board_modifiers(state(("t", THALIA, "opp"), ("g", ELECTROMANCER, "you")), "you", BOLT)
    assert kinds(mods) == [("increase", "{1}"), ("reduce", "{1}")]


def test_electromancer_reduces_only_its_controllers_spells() -> None:
    """CR 601.2f: "spells you cast" — an opponent's Electromancer does nothing for you."""
    assert board_modifiers(state(("g", ELECTROMANCER, "opp")), "you", BOLT) == []


def test_thalia_does_not_touch_creature_spells() -> None:
    """CR 601.2f; Thalia ruling: "noncreature spells" excludes creature spells."""
    creature = SpellInfo(types=frozenset({"creature"}))
    assert board_modifiers(state(("t", THALIA, "opp")), "you", creature) == []


def test_t63_trinisphere_minimum_only_while_untapped() -> None:
    """T63 and the Trinisphere ruling: a minimum of three, only while it is untapped."""
    assert kinds(board_modifiers(state(("x", TRINISPHERE, "opp")), "you", BOLT)) == [("minimum", "3")]
    assert board_modifiers(state(("x", TRINISPHERE, "opp", True)), "you", BOLT) == []


def test_t56_ugin_reduces_colorless_spells_only() -> None:
    """T56/T57 (118.7a): Ugin, the Ineffable takes {2} off colorless spells you cast."""
    kozilek = SpellInfo(types=frozenset({"creature"}), colors=0)
    assert kinds(board_modifiers(state(("u", UGIN, "you")), "you", kozilek)) == [("reduce", "{2}")]
    assert board_modifiers(state(("u", UGIN, "you")), "you", BOLT) == []


def test_t65_affinity_counts_artifacts_you_control() -> None:
    """T65/T66 (702.41a): affinity for artifacts reduces {1} per artifact you control."""
    frogmite = card("Frogmite", "Artifact Creature — Frog", "Affinity for artifacts (This spell costs {1} "
                    "less to cast for each artifact you control.)", cost="{4}")
    spell = SpellInfo(types=frozenset({"artifact", "creature"}), card=frogmite)
    board = state(*[(f"a{i}", ARTIFACT, "you") for i in range(4)], ("o", ARTIFACT, "opp"))
    assert kinds(board_modifiers(board, "you", spell)) == [("reduce", "{4}")]


def test_t70_ghalta_counts_total_power() -> None:
    """T70 (Ghalta ruling): {X} less where X is the total power of creatures you control."""
    ghalta = card("Ghalta, Primal Hunger", "Legendary Creature — Dinosaur",
                  "Trample\nThis spell costs {X} less to cast, where X is the total power of creatures "
                  "you control.", cost="{10}{G}{G}")
    big = card("Colossal Dreadmaw", "Creature — Dinosaur", power="6")
    spell = SpellInfo(types=frozenset({"creature"}), card=ghalta)
    board = state(("a", big, "you"), ("b", big, "you"), ("c", card("Bear", "Creature — Bear", power="3"), "you"))
    assert kinds(board_modifiers(board, "you", spell)) == [("reduce", "{15}")]


def test_unknown_cost_modifier_is_unsupported_not_ignored() -> None:
    """A cost effect the reader can't model exactly is refused, never guessed."""
    odd = card("Kopala, Warden of Waves", "Legendary Creature — Merfolk Wizard",
               "Spells your opponents cast that target a Merfolk you control cost {2} more to cast.")
    with pytest.raises(Unsupported) as err:
        board_modifiers(state(("k", odd, "opp")), "you", BOLT)
    assert err.value.where == "battlefield[0]"


def test_order_is_increases_reductions_minimums() -> None:
    """601.2f: increases first, then reductions, then minimums (Trinisphere ruling)."""
    mods = [Modifier("minimum", amount=3), Modifier("reduce", ManaCost.parse("{1}")),
            Modifier("increase", ManaCost.parse("{1}"))]
    assert [m.kind for m in order_modifiers(mods)] == ["increase", "reduce", "minimum"]


@pytest.mark.parametrize("text", [
    "Spells cost {1} more to cast.",                                   # Sphere of Resistance
    "Creature spells you cast cost {2} less to cast.",                 # Heartless Summoning
    "Colorless spells you cast cost {1} less to cast.",                # Herald of Kozilek
    "Artifact and enchantment spells your opponents cast cost {2} more to cast.",
    "Goblin spells you cast cost {1} less to cast.",                   # Goblin Warchief
])
def test_board_effects_are_read(text: str) -> None:
    """CR 601.2f, 118.7: each common wording of a board cost effect is read, none left unknown."""
    effects, unknown = read_cost_effects(text, "X")
    assert len(effects) == 1 and unknown == ()


def test_t67_metalcraft_reduction_counted_before_mana_abilities() -> None:
    """T67 (601.2f; Stoic Rebuttal ruling): metalcraft checks three artifacts while the total is set."""
    rebuttal = card("Stoic Rebuttal", "Instant", "Metalcraft — This spell costs {1} less to cast if you "
                    "control three or more artifacts.\nCounter target spell.", cost="{1}{U}{U}")
    spell = SpellInfo(types=frozenset({"instant"}), card=rebuttal)
    three = state(*[(f"a{i}", ARTIFACT, "you") for i in range(3)])
    two = state(*[(f"a{i}", ARTIFACT, "you") for i in range(2)])
    assert kinds(board_modifiers(three, "you", spell)) == [("reduce", "{1}")]
    assert board_modifiers(two, "you", spell) == []


def test_domain_reduction_counts_basic_land_types() -> None:
    """Domain: {2} less per basic land type among lands you control (Everywhere gives five)."""
    effects, unknown = read_cost_effects(
        "Domain — This spell costs {2} less to cast for each basic land type among lands you control.", "X")
    assert unknown == () and effects[0].per == "domain"
    scape = card("Tribal Flames", "Sorcery", "Domain — This spell costs {2} less to cast for each basic land "
                 "type among lands you control.", cost="{10}{R}")
    everywhere = card("Everywhere", "Token Land — Plains Island Swamp Mountain Forest")
    spell = SpellInfo(types=frozenset({"sorcery"}), card=scape)
    assert kinds(board_modifiers(state(("e", everywhere, "you")), "you", spell)) == [("reduce", "{10}")]


def test_two_color_board_reduction() -> None:
    """CR 118.7a; Thunderscape Familiar: "Black spells and green spells you cast cost {1} less"."""
    effects, _ = read_cost_effects("Black spells and green spells you cast cost {1} less to cast.", "X")
    assert effects[0].colors == 4 | 16
