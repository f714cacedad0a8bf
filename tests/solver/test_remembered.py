"""What the engine remembers lives with the object whose lifetime it shares (docs/architecture.md,
"What is remembered, and where"): a permanent's options are one object across boards, carrying
what readers computed from them; an announced cost is one entry of one table, holding its 609.4b
re-announcements; and every memo left in the engine is named in that section of the map."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Any

import manasolver.models
import manasolver.solver
import pytest
from manasolver.models._memo import IdentityMemo, KeyMemo
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.models.effects import SpendAs, SpendTable
from manasolver.models.errors import Unsupported
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, U
from manasolver.solver.backends.problem import announced
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Options, SourceClass
from paths import REPO


def _board(prefix: str) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "them"}],
            "battlefield": [{"id": f"{prefix}1", "card": "Forest"},
                            {"id": f"{prefix}2", "card": "Forest"},
                            {"id": f"{prefix}3", "card": "Llanowar Elves"},
                            {"id": f"{prefix}4", "card": "Birds of Paradise"},
                            {"id": f"{prefix}5", "card": "Sol Ring"}]}


def test_options_of_one_card_in_one_state_are_one_object_on_every_board() -> None:
    """Forests, Elves, Birds and Sol Ring on two boards with other ids: each class's options are
    the very object of the first board, and what is read from them on one board is kept in them."""
    first = build_supply(load_state(_board("a")), "you")
    second = build_supply(load_state(_board("b")), "you")
    assert [k.name for k in first.classes] == ["Forest", "Llanowar Elves", "Birds of Paradise", "Sol Ring"]
    for a, b in zip(first.classes, second.classes):
        assert type(a.options) is Options and a.options is b.options, a.name
    assert not second.restricted  # read from the options of the second board's classes ...
    assert all(k.options.flags == (False, (True,) * len(k.options), False) for k in first.classes)  # ... kept


def test_options_compare_and_pickle_as_their_tuple() -> None:
    """Options are a tuple by value: equal to the plain tuple, and a copy carries nothing computed."""
    import pickle
    sup = build_supply(load_state(_board("c")), "you")
    opts = sup.classes[0].options
    assert opts == tuple(opts) and hash(opts) == hash(tuple(opts))
    _ = sup.restricted  # fills the options' flags
    copy = pickle.loads(pickle.dumps(opts))
    assert copy == opts and type(copy) is Options and copy.flags is None


def test_a_source_class_given_a_plain_tuple_holds_options() -> None:
    sup = build_supply(load_state(_board("d")), "you")
    k = sup.classes[0]
    made = SourceClass(k.members, k.positions, tuple(k.options), k.snow, k.kind, k.name)
    assert type(made.options) is Options and made == k


def test_announced_cost_is_one_entry_per_cost_and_modifiers() -> None:
    cost = ManaCost.parse("{2}{W/U}{W/U}")
    assert announced(cost) is announced(cost)
    assert announced(cost).forms == announced(ManaCost.parse("{2}{W/U}{W/U}")).forms


def test_cr_609_4b_announced_again_under_a_spend_table_chromatic_orrery() -> None:
    """Under Chromatic Orrery's rule (any mana as though it were mana of any color, CR 609.4b) the
    cost is announced again with its {U} demand widened to any type; remembered in the cost's
    entry, the plain announcement unchanged."""
    cost = ManaCost.parse("{1}{U}")
    table = SpendTable.of((SpendAs("Chromatic Orrery", ANY_TYPE, ANY_COLOR),))
    spent = announced(cost, (), table)
    assert spent is announced(cost, (), table)
    assert spent.spend == table and announced(cost).spend.identity
    assert [f.demands for f in spent.forms] == [((ANY_TYPE, 1),)]
    assert [f.demands for f in announced(cost).forms] == [((U, 1),)]


def test_a_refused_announcement_is_refused_again() -> None:
    """Ten Phyrexian hybrids, five {2/C} and five {C/C} symbols: 2^15 announcements, more than the
    engine enumerates (CR 601.2b): Unsupported, and again when asked again (the refusal kept)."""
    text = "".join("{" + a + "/" + b + "/P}" for a, b in ("WU", "UB", "BR", "RG", "GW", "WB", "UR", "BG", "RW", "GU"))
    text += "".join("{2/" + c + "}" for c in "WUBRG") + "{C/W}{C/U}{C/B}{C/R}{C/G}"
    cost = ManaCost.parse(text)
    for _ in range(2):
        with pytest.raises(Unsupported, match="32768 combinations"):
            announced(cost)


def _engine_memos() -> list[tuple[str, str]]:
    """(module, name) of every module-level memo of the engine: ``IdentityMemo``, ``KeyMemo`` and
    ``lru_cache`` functions of ``manasolver.models`` and ``manasolver.solver`` but the service and
    castability."""
    found: dict[int, tuple[str, str]] = {}
    for package in (manasolver.models, manasolver.solver):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if ".service" in info.name or ".castability" in info.name:
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, (IdentityMemo, KeyMemo, functools._lru_cache_wrapper)):
                    found.setdefault(id(value), (info.name, name))  # once, where first met
    return sorted(found.values())


def test_every_memo_of_the_engine_is_named_in_the_architecture_map() -> None:
    memos = _engine_memos()
    assert ("manasolver.solver.supply.build", "_ROWS") in memos and \
        ("manasolver.solver.backends.problem", "_ANNOUNCED") in memos
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## What is remembered, and where"):]
    section = section[:section.index("\n## ", 3)] if "\n## " in section[3:] else section
    missing = [f"{module}.{name}" for module, name in memos
               if not module.startswith("manasolver.models.text.") and f"`{name}`" not in section]
    assert not missing, f"memos not listed in docs/architecture.md's 'What is remembered': {missing}"


def test_cr_107_5_302_6_a_card_whose_row_reads_only_tapped_and_sick_keeps_one_row_per_such_state() -> None:
    """A Forest with a counter on it has the very options of a plain Forest (its row reads only whether
    it is tapped, CR 107.5); a summoning-sick Llanowar Elves has none (302.6), one with haste has the
    options of an Elves that is not sick, and a tapped Forest has none."""
    def supply(prefix: str, battlefield: list[dict[str, Any]]) -> Any:
        for i, perm in enumerate(battlefield):
            perm["id"] = f"{prefix}{i}"
        return build_supply(load_state({"players": [{"name": "you"}], "battlefield": battlefield}), "you")
    plain = supply("p", [{"card": "Forest"}, {"card": "Llanowar Elves"}])
    other = supply("q", [{"card": "Forest", "counters": {"+1/+1": 1}}, {"card": "Llanowar Elves", "sick": True},
                         {"card": "Llanowar Elves", "sick": True, "haste": True}, {"card": "Forest", "tapped": True}])
    assert [(k.name, k.members) for k in other.classes] == [("Forest", ("q0",)), ("Llanowar Elves", ("q2",))]
    assert [k.options for k in other.classes] == [k.options for k in plain.classes]
    assert all(a.options is b.options for a, b in zip(other.classes, plain.classes))
    assert other.creatures == 2  # untapped creatures, sick or not
