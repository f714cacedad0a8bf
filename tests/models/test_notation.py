"""Notation: mana symbols and costs (CR 107.4, 202.2, 202.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadCost
from manasolver.models.symbols import (
    ANY_COLOR,
    HYBRID_PAIRS,
    B,
    C,
    G,
    R,
    U,
    W,
    parse_symbol,
)


def mv(text: str, x: int | None = None) -> int:
    return ManaCost.parse(text).mana_value(x)


# --- symbols as data -------------------------------------------------------

@pytest.mark.parametrize("text,ways", [
    ("{W}", ["{W}"]),
    ("{C}", ["{C}"]),
    ("{3}", ["{3}"]),
    ("{W/U}", ["{W}", "{U}"]),
    ("{2/W}", ["{W}", "{2}"]),
    ("{W/P}", ["{W}", "life"]),
    ("{W/U/P}", ["{W}", "{U}", "life"]),
    ("{C/W}", ["{C}", "{W}"]),
    ("{S}", ["{S}"]),
    ("{X}", ["{0}"]),
    ("{E}", ["{E}"]),
])
def test_cr_107_4_ways_to_pay_each_symbol(text: str, ways: list[str]) -> None:
    """CR 107.4a-h: the announced forms of every kind of symbol."""
    assert [w.text for w in parse_symbol(text).ways_to_pay()] == ways


def test_cr_107_4e_hybrid_canonical_order_every_pair() -> None:
    """CR 107.4e: the ten pairs parse in either order and print in the rules' order."""
    for a, b in HYBRID_PAIRS:
        canonical = "{" + a + "/" + b + "}"
        assert parse_symbol("{" + b + "/" + a + "}").text == canonical
        assert parse_symbol(canonical.lower()).text == canonical
        assert parse_symbol("{" + b + "/" + a + "/p}").text == "{" + a + "/" + b + "/P}"


def test_symbol_color_bits() -> None:
    assert parse_symbol("{B/G}").colors == B | G
    assert parse_symbol("{2/R}").colors == R
    assert parse_symbol("{C}").colors == 0 and parse_symbol("{C}").colorless
    assert parse_symbol("{C/U}").colors == U and parse_symbol("{C/U}").colorless
    assert parse_symbol("{G/U/P}").colors == G | U
    assert ANY_COLOR == W | U | B | R | G and C == 32


def test_tap_untap_are_not_mana() -> None:
    """CR 107.5, 107.6: {T} and {Q} are activation costs, not mana."""
    assert not parse_symbol("{T}").is_mana
    assert not parse_symbol("{Q}").is_mana
    assert parse_symbol("{T}").ways_to_pay() == ()


# --- mana value (CR 202.3) ---------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("{2/W}{2/U}{2/B}{2/R}{2/G}", 10),   # T01, 202.3f: Reaper King
    ("{1}{W/U}{W/U}", 3),                # T04
    ("{2/B}{2/B}{2/B}", 6),              # T05
    ("{1}{B/P}{B/P}", 3),                # T06: Dismember, 202.3g
    ("{U/P}", 1),                        # T07: Gitaxian Probe
    ("{1}{G}{G/W/P}{W}", 4),             # T08: Ajani, Sleeper Agent
    ("{2}{C/W}", 3),                     # T09
    ("{C/W}{C/U}{C/B}{C/R}{C/G}", 5),    # T09b
    ("{8}{C}{C}", 10),                   # T10: Kozilek
    ("{X}{G}{G}{G}", 3),                 # T11: Chord of Calling off the stack
    ("{X}{X}", 0),                       # Walking Ballista
    ("{S}{S}", 2),
    ("{0}", 0),
])
def test_cr_202_3_mana_value(text: str, expected: int) -> None:
    """CR 202.3: hybrid its largest half (202.3f), Phyrexian 1 (202.3g), X 0 (202.3e)."""
    assert mv(text) == expected


def test_cr_202_3e_x_on_the_stack() -> None:
    """T12: Chord of Calling with X=4 on the stack has MV 7; Ballista X=2 has 4."""
    assert mv("{X}{G}{G}{G}", 4) == 7
    assert mv("{X}{X}", 2) == 4


# --- colors (CR 202.2) -------------------------------------------------------------------------

@pytest.mark.parametrize("text,colors", [
    ("{2/W}{2/U}{2/B}{2/R}{2/G}", ["W", "U", "B", "R", "G"]),  # T02/T03
    ("{1}{W/U}{W/U}", ["W", "U"]),
    ("{1}{B/P}{B/P}", ["B"]),
    ("{1}{G}{G/W/P}{W}", ["W", "G"]),
    ("{2}{C/W}", ["W"]),            # 107.4e: a hybrid with a colorless half is colored
    ("{8}{C}{C}", []),              # 202.2b
    ("{X}{S}", []),
])
def test_cr_202_2_colors_of_a_cost(text: str, colors: list[str]) -> None:
    """CR 202.2, 202.2d: every color in the cost, hybrid halves included."""
    assert ManaCost.parse(text).color_letters == colors


def test_devotion_counts_hybrid_for_each_color() -> None:
    """Nykthos ruling 2013-09-15: hybrid symbols count toward devotion to each color."""
    d = ManaCost.parse("{1}{W/U}{W}{2/U}{B/P}").devotion()
    assert d == {"W": 2, "U": 2, "B": 1, "R": 0, "G": 0}


# --- parse, format, repr ----------------------------------------------------

@pytest.mark.parametrize("given_text,canonical", [
    ("{u/w}", "{W/U}"),
    ("{W}{2}", "{2}{W}"),
    ("{1}{1}{G}", "{2}{G}"),
    ("{G}{X}{1}", "{X}{1}{G}"),
    ("{X}{X}", "{X}{X}"),
    ("{0}", "{0}"),
    ("{X}{0}", "{X}"),
    (" {2} {w} ", "{2}{W}"),
    ("{r/g/p}", "{R/G/P}"),
    ("{w/c}", "{C/W}"),
    ("{E}{E}", "{E}{E}"),
])
def test_format_is_canonical(given_text: str, canonical: str) -> None:
    cost = ManaCost.parse(given_text)
    assert cost.format() == canonical
    assert ManaCost.parse(cost.format()) == cost


def test_repr_evaluates_back() -> None:
    cost = ManaCost.parse("{X}{2}{W/U}{B/P}{S}")
    assert eval(repr(cost), {"ManaCost": ManaCost}) == cost


_SYMBOLS = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{1}", "{2}", "{3}", "{X}", "{S}", "{W/U}",
            "{B/G}", "{2/R}", "{G/P}", "{U/R/P}", "{C/B}", "{E}"]


@given(st.lists(st.sampled_from(_SYMBOLS), min_size=1, max_size=12))
def test_format_parse_is_a_fixed_point(symbols: list[str]) -> None:
    """format(parse(s)) is a fixed point for any sequence of symbols."""
    once = ManaCost.parse("".join(symbols)).format()
    assert ManaCost.parse(once).format() == once
    assert ManaCost.parse(once).mana_value() == ManaCost.parse("".join(symbols)).mana_value()


# --- errors name the symbol and its position ---------------------------------------------------

@pytest.mark.parametrize("text,where,fragment", [
    ("{2}{W}{K}", "cost[2]", "{K}"),
    ("{2}{W/W}", "cost[1]", "{W/W}"),
    ("{W", "cost[0]", "unclosed"),
    ("2W", "cost[0]", "expected '{'"),
    ("{}", "cost[0]", "malformed"),
    ("{P}", "cost[0]", "{P}"),
    ("{2/C}", "cost[0]", "{2/C}"),
    ("{1000001}", "cost[0]", "larger"),
    ("{W}{HW}", "cost[1]", "silver-bordered"),
    ("{½}", "cost[0]", "silver-bordered"),
    ("{∞}", "cost[0]", "silver-bordered"),
    ("{W}{Ｗ}", "cost[1]", "unknown"),
])
def test_bad_symbols_are_named_with_position(text: str, where: str, fragment: str) -> None:
    with pytest.raises(BadCost) as err:
        ManaCost.parse(text)
    assert err.value.where == where
    assert fragment in err.value.message
    assert err.value.code == "bad_cost"


def test_empty_cost_is_refused_but_allowed_inside() -> None:
    """An empty cost is an error at the protocol's edge; {0} is the cost of nothing (118.5)."""
    with pytest.raises(BadCost):
        ManaCost.parse("")
    assert not ManaCost.parse("", allow_empty=True)


def test_non_string_cost_is_refused() -> None:
    with pytest.raises(BadCost):
        ManaCost.parse(3)  # type: ignore[arg-type]


def test_with_x_substitutes_every_variable() -> None:
    """CR 107.3: X in {X}{X} is the same number twice."""
    assert ManaCost.parse("{X}{X}{R}").with_x(3).format() == "{6}{R}"
    assert ManaCost.parse("{X}{R}").with_x(0).format() == "{R}"
