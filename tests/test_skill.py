"""The skill section's flags, each with a placebo (one policy under two labels) and a
planted effect: a rung that beats the one below (analysis.skill.skill_summary), a
budget that pays in the skill trace (analysis.skill.skill_trace), and allies valued
differently by two bots (analysis.skill.ally_strength_by_bot: a bot that may never
play Evrart Claire values him less than the same bot unrestricted)."""

import pytest

from analysis.data.load import load
from analysis.data.runs import Run
from analysis.experiments.ladder import chunk_size, plan, play
from analysis.skill import ally_strength_by_bot, skill_summary, skill_trace
from sim.options import RuleOptions
from sim.rundir.manifest import read_manifest
from sim.run.runner import simulate
from tests.conftest import DEFAULT_CARDS

GAMES = 20_000


def _mixed_run(deck, path, strong, weak, games=GAMES):
    """One seat of ``strong`` against three of ``weak``, seats shuffled (the ladder's layout)."""
    return Run.open(simulate(deck, games, path, players=4, bots=[strong, weak, weak, weak], seed=9, n_jobs=2,
                             options=RuleOptions(shuffle_seats=True), progress=False))  # fmt: skip


def test_placebo_the_same_policy_under_two_labels_flags_at_most_one_ally(tmp_path, default_deck):
    # greedy's w_points is 1 by default: both labels play the same policy.
    table = ally_strength_by_bot([_mixed_run(default_deck, tmp_path / "run", "greedy:w_points=1", "greedy")])
    assert len(table) == len(default_deck.allies)
    assert (table["verdict"] != "").sum() <= 1


def test_planted_restricted_play_makes_the_unrestricted_bot_value_the_ally_more(tmp_path, default_deck):
    # Restricted play (Jaffe et al. 2012): the weaker bots may never play Evrart Claire
    # while another play is possible, so holding him helps them less.
    table = ally_strength_by_bot([_mixed_run(default_deck, tmp_path / "run", "greedy", "greedy:never=evrart_claire")])
    evrart = table.set_index("ally").loc["evrart_claire"]
    assert evrart["verdict"] == f"more to {evrart['strong']}"
    assert evrart["difference_low_pp"] > 0


@pytest.fixture(scope="module")
def ladder_runs(tmp_path_factory, default_deck):
    """A placebo rung (one policy under two labels) and a planted one (greedy against random)."""
    path = tmp_path_factory.mktemp("ladder")
    return (_mixed_run(default_deck, path / "same", "greedy:w_points=1", "greedy", games=4_000),
            _mixed_run(default_deck, path / "planted", "greedy", "random", games=4_000))  # fmt: skip


def test_a_rung_beats_the_one_below_only_when_it_plays_better(ladder_runs):
    same, planted = skill_summary(list(ladder_runs)).set_index("strong").loc[["greedy:w_points=1", "greedy"]].itertuples()
    assert not same.beats and same.win_rate_low < 0.25 < same.win_rate_high
    assert planted.beats and planted.win_rate_low > 0.25 + 0.02


def test_the_skill_trace_flattens_at_the_first_budget_from_which_no_budget_pays(ladder_runs):
    same, planted = ladder_runs
    trace = skill_trace([(2, planted), (4, same)])  # pays at 2, not at 4: the knee is 4
    assert trace["budget"].tolist() == [2, 4]
    assert trace["pays"].tolist() == [True, False]
    assert (trace["flattens_at"] == 4).all()


def test_a_small_budget_that_does_not_pay_below_one_that_does_is_not_the_knee(ladder_runs):
    same, planted = ladder_runs
    trace = skill_trace([(4, planted), (2, same)])  # not at 2, pays at 4, the largest: still pays
    assert trace["pays"].tolist() == [False, True]
    assert (trace["flattens_at"] == 0).all()


def test_a_ladder_match_is_played_in_chunks_of_100_games_and_an_older_run_keeps_its_chunks(tmp_path):
    """A match of 250 games is 3 parts, so every worker takes some (a match of
    ``search`` at a large budget ran on one worker in a single 25,000-game chunk); a
    complete run written in 25,000-game chunks, as earlier versions did, is reused."""
    [new] = plan(tmp_path / "new", rungs=("random", "uniform"), players=(2,), trace_budgets=())
    play(DEFAULT_CARDS, [new], n_games=250, trace_games=0, n_jobs=2)
    assert sorted(p.name for p in (new.run / "games").iterdir()) == [f"part-0000{k}.parquet" for k in range(3)]
    [old] = plan(tmp_path / "old", rungs=("random", "uniform"), players=(2,), trace_budgets=())
    simulate(DEFAULT_CARDS, 250, old.run, 2, ["uniform", "random"], 0, 2, RuleOptions(shuffle_seats=True),
             chunk_size=25_000, progress=False)  # fmt: skip
    play(DEFAULT_CARDS, [old], n_games=250, trace_games=0, n_jobs=2)  # refused before: chunk_size differs
    assert read_manifest(old.run)["chunk_size"] == 25_000 and chunk_size(old.run) == 25_000
    assert load(old.run, "games").equals(load(new.run, "games"))  # the same games, whatever the chunks


@pytest.mark.slow
def test_a_ladder_match_on_a_dask_cluster_plays_the_games_of_local_workers(tmp_path):
    """``revachol skill --dask-local``/``--scheduler`` hand the chunks to Dask (a trace
    point at a large budget costs hours of CPU); the games do not depend on where."""
    pytest.importorskip("distributed")
    [local] = plan(tmp_path / "local", rungs=("random", "uniform"), players=(2,), trace_budgets=())
    [on_dask] = plan(tmp_path / "dask", rungs=("random", "uniform"), players=(2,), trace_budgets=())
    play(DEFAULT_CARDS, [local], n_games=250, trace_games=0, n_jobs=1)
    play(DEFAULT_CARDS, [on_dask], n_games=250, trace_games=0, dask_local=1)
    assert read_manifest(on_dask.run)["backend"].startswith("dask")
    assert load(on_dask.run, "games").equals(load(local.run, "games"))
