"""The policy set a state's kernels are compiled for (sim.bots.ids), and the compile
floor that CI's checked build uses to compile the engine once (REVACHOL_COMPILE_RUNG)."""

import pytest

from sim.bots import ids
from sim.bots.ids import EXPERT, GREEDY, PLANNER, RANDOM, SCRIPTED, SEARCH, UNIFORM, USER


def test_a_set_holds_the_highest_named_rung_and_every_rung_below(monkeypatch):
    monkeypatch.setattr(ids, "FLOOR", 0)  # whatever REVACHOL_COMPILE_RUNG this run has (CI's suite: search)
    assert ids.policy_set([GREEDY, GREEDY]) == (RANDOM, SCRIPTED, UNIFORM, GREEDY, USER)
    assert ids.policy_set([RANDOM, PLANNER]) == (RANDOM, SCRIPTED, UNIFORM, GREEDY, PLANNER, USER, EXPERT)
    assert ids.policy_set([EXPERT]) == ids.policy_set([PLANNER])  # expert shares planner's rung (issue 52)
    assert ids.policy_set([UNIFORM]) == (RANDOM, SCRIPTED, UNIFORM, USER)


def test_the_floor_raises_a_low_set_to_its_rung_and_leaves_a_higher_one(monkeypatch):
    monkeypatch.setattr(ids, "FLOOR", ids.compile_floor("planner"))
    assert ids.policy_set([RANDOM]) == (RANDOM, SCRIPTED, UNIFORM, GREEDY, PLANNER, USER, EXPERT)
    assert SEARCH in ids.policy_set([SEARCH, RANDOM])


def test_the_floor_is_the_named_rung_or_none():
    assert [ids.compile_floor(name) for name in ("", "random", "greedy", "planner", "search")] == [0, 0, 1, 2, 3]


def test_an_unknown_rung_name_is_refused_with_the_valid_ones():
    with pytest.raises(ValueError, match="REVACHOL_COMPILE_RUNG='best' is not a valid value; valid: unset, random, greedy, planner, search"):
        ids.compile_floor("best")


def test_an_unknown_policy_id_is_refused():
    with pytest.raises(ValueError, match=r"unknown policy id \[99\]"):
        ids.policy_set([99])
