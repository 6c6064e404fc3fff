"""A run takes the chunks another run already played of the same games (``simulate``'s
``donors``) instead of playing them again: the same tables, fewer games played."""

import os

from analysis.data.load import load
from sim.cards import load_deck
from sim.run.points_blind import companion_dir, play_points_blind
from sim.rundir import TABLES, check_parts, read_manifest
from sim.run.runner import borrowed_games, simulate

from tests.test_runner import CARDS, assert_same_tables, tables


def run(out, n, seed=5, donors=(), deck=CARDS):
    return simulate(deck, n, out, players=2, seed=seed, n_jobs=1, chunk_size=100, progress=False, donors=donors)


def test_a_run_takes_a_donors_chunks_and_its_tables_are_those_it_would_have_played(tmp_path):
    donor = run(tmp_path / "donor", 300)
    taker = run(tmp_path / "taker", 500, donors=[donor])
    assert borrowed_games(taker) == 300  # chunks 0-2 taken, 3-4 played
    assert read_manifest(taker)["timings"]["runs"][-1]["chunks"] == 2
    assert os.path.samefile(donor / "games" / "part-00002.parquet", taker / "games" / "part-00002.parquet")
    assert_same_tables(tables(taker), tables(run(tmp_path / "played", 500)))
    check_parts(taker, read_manifest(taker))


def test_a_donor_of_other_games_lends_nothing(tmp_path):
    other_seed = run(tmp_path / "seed6", 300, seed=6)
    three_players = simulate(CARDS, 300, tmp_path / "3p", players=3, seed=5, n_jobs=1, chunk_size=100, progress=False)
    taker = run(tmp_path / "taker", 300, donors=[other_seed, three_players, tmp_path / "no run here"])
    assert borrowed_games(taker) == 0
    assert_same_tables(tables(taker), tables(run(tmp_path / "played", 300)))


def test_a_donors_part_altered_since_it_was_written_is_not_taken(tmp_path):
    donor = run(tmp_path / "donor", 300)
    part = donor / "players" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:-8] + bytes(8))  # damaged after the donor recorded its checksum
    taker = run(tmp_path / "taker", 300, donors=[donor])
    assert borrowed_games(taker) == 200  # chunks 0 and 2; chunk 1 is played again, whole
    assert not os.path.samefile(donor / "games" / "part-00001.parquet", taker / "games" / "part-00001.parquet")
    assert_same_tables(tables(taker), tables(run(tmp_path / "played", 300)))


def test_two_decks_differing_only_in_task_points_share_one_points_blind_companion(tmp_path):
    """R1.4: the companion pays every task the deck's mean points, so moving one point
    from one task to another leaves its deck, and its games, the same."""
    deck = load_deck(CARDS)
    rich, poor = [task.id for task in deck.tasks if task.points >= 2][:2]
    edited = deck.model_copy(update={"tasks": [
        task.model_copy(update={"points": task.points + (task.id == rich) - (task.id == poor)}) for task in deck.tasks
    ]})  # fmt: skip
    assert edited.content_hash != deck.content_hash
    first = run(tmp_path / "first", 200, deck=deck)
    second = run(tmp_path / "second", 200, deck=edited)
    play_points_blind(first, n_jobs=1, progress=False)
    play_points_blind(second, n_jobs=1, progress=False, donors=[companion_dir(first)])
    assert borrowed_games(companion_dir(second)) == 200
    assert all(load(companion_dir(first), table).equals(load(companion_dir(second), table)) for table in TABLES)
