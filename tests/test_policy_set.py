"""The policy set a state's kernels are compiled for (sim.bots.ids), and the compile
floor that CI's checked build uses to compile the engine once (REVACHOL_COMPILE_RUNG)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.bots import ids
from sim.bots.ids import GREEDY, PLANNER, RANDOM, SCRIPTED, SEARCH, UNIFORM, USER

ROOT = Path(__file__).resolve().parents[1]


def test_a_set_holds_the_highest_named_rung_and_every_rung_below(monkeypatch):
    monkeypatch.setattr(ids, "FLOOR", 0)  # as without REVACHOL_COMPILE_RUNG (CI's suite sets it)
    assert ids.policy_set([GREEDY, GREEDY]) == (RANDOM, SCRIPTED, UNIFORM, GREEDY, USER)
    assert ids.policy_set([RANDOM, PLANNER]) == (RANDOM, SCRIPTED, UNIFORM, GREEDY, PLANNER, USER)
    assert ids.policy_set([UNIFORM]) == (RANDOM, SCRIPTED, UNIFORM, USER)


def test_the_floor_raises_a_low_set_to_its_rung_and_leaves_a_higher_one(monkeypatch):
    monkeypatch.setattr(ids, "FLOOR", ids.compile_floor("planner"))
    assert ids.policy_set([RANDOM]) == (RANDOM, SCRIPTED, UNIFORM, GREEDY, PLANNER, USER)
    assert SEARCH in ids.policy_set([SEARCH, RANDOM])


def test_the_floor_is_the_named_rung_or_none():
    assert [ids.compile_floor(name) for name in ("", "random", "greedy", "planner", "search")] == [0, 0, 1, 2, 3]


def test_an_unknown_rung_name_is_refused_with_the_valid_ones():
    with pytest.raises(ValueError, match="REVACHOL_COMPILE_RUNG='best': valid: random, greedy, planner, search"):
        ids.compile_floor("best")


def test_an_unknown_policy_id_is_refused():
    with pytest.raises(ValueError, match=r"unknown policy id \[99\]"):
        ids.policy_set([99])


_LOWER_RUNG = """
import json
from sim.bots.ids import FLOOR, policy_set
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games
from sim.bots.policy import POLICY_IDS
result = run_games(compile_deck(load_deck("cards.yaml")), 2, 3, seed=0, bots=["greedy", "random"])
print(json.dumps({"floor": FLOOR, "set": policy_set([POLICY_IDS["greedy"], POLICY_IDS["random"]]),
                  "games": int(result.games.shape[0])}))
"""


@pytest.mark.slow
def test_without_the_floor_a_greedy_run_compiles_its_own_rung_and_plays():
    """CI compiles the suite with REVACHOL_COMPILE_RUNG=search; a user's run has no
    floor: the greedy rung's own build (every policy up to greedy, R4-R9 played by
    its kernels) must compile and play too."""
    env = {k: v for k, v in os.environ.items() if k != ids.RUNG_SWITCH}
    out = subprocess.run([sys.executable, "-c", _LOWER_RUNG], env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    probe = json.loads(out.stdout)
    assert probe == {"floor": 0, "set": [RANDOM, SCRIPTED, UNIFORM, GREEDY, USER], "games": 3}
