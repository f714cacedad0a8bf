"""The supply's value types made by :func:`~manasolver.solver.supply.model.maker` are the very
objects their ``__init__`` makes: equal, hashed alike, frozen, copied and pickled alike."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from manasolver.models.cost import ManaCost
from manasolver.solver.supply.model import Derived, Option, Options, SourceClass, Supply, maker


def test_made_source_class_option_and_supply_equal_those_of_their_init() -> None:
    option = maker(Option)(0, (1,), ("{T}",), ManaCost(), 0, 0, 0, False, True, True, 1, None, 0, (), (), 0)
    assert type(option) is Option and option == Option(0, (1,), ("{T}",), tap=True)
    options = Options((option,))
    made = maker(SourceClass)(("p1",), (0,), options, False, "land", "Forest", False, ())
    plain = SourceClass(("p1",), (0,), options, False, "land", "Forest")
    assert type(made) is SourceClass and made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert pickle.loads(pickle.dumps(made)) == plain
    assert dataclasses.replace(made, members=("p2",)).members == ("p2",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.members = ("p3",)  # type: ignore[misc]
    supply = maker(Supply)("you", (), (made,), (), 20, 0, 0, (), (), Derived())
    assert type(supply) is Supply and supply == Supply("you", (), (plain,), (), 20, 0)
