"""Allies valued differently by two bots (analysis.skill.ally_strength_by_bot): a
placebo (one policy under two labels flags no ally) and a planted effect (a bot that
may never play Evrart Claire values him less than the same bot unrestricted)."""

from analysis.data.runs import Run
from analysis.skill import ally_strength_by_bot
from sim.options import RuleOptions
from sim.runner import simulate

GAMES = 20_000


def _mixed_run(deck, path, strong, weak):
    """One seat of ``strong`` against three of ``weak``, seats shuffled (the ladder's layout)."""
    return Run.open(simulate(deck, GAMES, path, players=4, bots=[strong, weak, weak, weak], seed=9, n_jobs=2,
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
