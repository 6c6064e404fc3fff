"""The ``revachol`` command line: each command declares its options, calls its
function of the library (:mod:`analysis.workflows`, the report, the runner) and prints
the result; it holds no logic and composes no sentence. What every command shares is
declared once in ``commands/common.py``; the experiments' commands are in
``commands/experiments.py``. Library imports happen inside each command so that
``revachol --help`` starts fast."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from analysis.defaults import MAIN_JOB_GAMES, MAIN_JOB_ROUND
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from commands import experiments
from commands.common import (BORDERLINE, BOTS, COMPANIONS, DEBUG, DEFAULT_BOTS, DEFAULT_CARDS, DOUBLE_ANY_SYMBOL,
                             EXTRA_PLAY_EXISTING, ONE_SPECIAL_CROWN, STALL_TIMEOUT, TRACEBACKS, Bots,
                             Cards, DaskLocal, IncludeUnfinished, Jobs, OneLineErrors, Players, Quiet, Scheduler, Seed,
                             Threshold, capped_jobs, cores, errors, fail, load, player_counts, seats, settled, show)  # fmt: skip
from sim.bots.rungs import RUNG_NAMES
from sim.bots.speed import SKILLED_REFERENCE_BOT
from sim.console import output_width, stdout_console
from sim.run import DEFAULT_CHUNK
from sim.run.workers import skip_last_collection, start_workers

skip_last_collection()
if output_width() is not None:  # a file or a pipe: --help at that width too (typer reads TERMINAL_WIDTH)
    os.environ.setdefault("TERMINAL_WIDTH", str(output_width()))

app = typer.Typer(
    cls=OneLineErrors,
    help="Balance toolkit for Echoes of Revachol: validate card data, simulate games, read balance reports.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def main(
    debug: bool = typer.Option(False, "--debug", help="Show the full traceback of a failing command (an operating-system error, a bot file that does not compile: numba's whole message) above its one line."),
) -> None:
    """Balance toolkit for Echoes of Revachol."""
    from sim.switches import SwitchError, read

    TRACEBACKS["shown"] = debug
    try:
        read(RUNG_NAMES)  # every REVACHOL_* switch, before any module reads one
    except SwitchError as exc:
        fail(str(exc))


@app.command()
def validate(
    path: Path = typer.Argument(DEFAULT_CARDS, metavar="CARDS", help="The card file: allies, tasks and morale cards (cards.yaml)."),
) -> None:
    """Check a card file and print its summary: card counts, symbol supply (allies) against demand (tasks) per colour, the abilities present, and which values are estimates. Exits with code 1 and one line per problem when the file is invalid."""
    from sim.deck_summary import summarise
    from sim.summary_view import render_summary

    deck = load(path)
    stdout_console().print(render_summary(summarise(deck), str(path)))


@app.command(epilog=COMPANIONS)
def run(
    cards: Cards = DEFAULT_CARDS,
    games: int = typer.Option(MAIN_JOB_GAMES, "--games", "-n", min=1, help="Number of games to play."),
    players: str = typer.Option("4", help="Number of players, 2 to 4 (R2.1); several, e.g. 2,3,4, play each count on the same seeds and report them side by side."),
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    runs: Path = typer.Option(Path("runs"), help="Folder that holds the run directories."),
    name: str | None = typer.Option(None, help="Name of the run directory; default: from the card file, its hash, players, bots, games and seed."),
    jobs: Jobs = -1,
    quiet: bool = typer.Option(False, help="No progress bar and no findings: print only the report's path."),
    threshold: Threshold = DEFAULT_THRESHOLD_PP,
    points_blind: bool = typer.Option(True, help="Also play the same games with every task paying the deck's mean points (rounded), in RUN/points_blind: the report measures each task's difficulty there, free of the bots chasing its reward. --no-points-blind skips it (half the games; the report then judges task rewards on completion as played)."),
    skill_check: bool | None = typer.Option(None, "--skill-check/--no-skill-check", help="Also play the run's first games with search, the reference of skilled play, in every seat (as many as 3 minutes of this machine's cores play, in RUN/skilled) and mark the findings that depend on skill; revachol skill-check RUN does it later, on a budget of your choice. Default: on only when it costs no more than the run with its points-blind companion, which search never does beside greedy or planner; without it the findings end with the command that checks them."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play in rounds of --round-games games and stop when every verdict (each ally against the average ally, the first player's edge) is settled: its anytime-valid 95% confidence sequence lies wholly beyond or wholly within the ±--threshold band, or wholly within --borderline of the threshold (at the threshold); or at --max-games. Needs --max-games; replaces --games. The same command with --max-games raised continues the run."),
    max_games: int | None = typer.Option(None, min=1, help="With --until-settled: the most games to play."),
    borderline: float = BORDERLINE,
    round_games: int = typer.Option(MAIN_JOB_ROUND, min=1, help="With --until-settled: games per round (whole chunks of 25,000, or one smaller chunk); the verdicts are checked after each."),
    debug: bool = DEBUG,
    stall_timeout: float = STALL_TIMEOUT,
) -> None:
    """The main job: play the games and write the balance report. With no options: the default cards.yaml, 100,000 games, 4 players, greedy in every seat, then the same games with every task paying alike (the points-blind companion); revachol skill-check RUN then says which verdicts hold for skilled play. The run goes to runs/NAME/ and the command prints the report's findings, most important first, and where the report is. Run the same command again to continue an interrupted run or to rebuild its report."""
    start_workers(jobs, "sim.run.runner")  # while the imports below run
    from analysis.workflows import run as play

    counts = player_counts(players)
    settled(until_settled, max_games, "runs; a fixed run", "--max-games N, and one player count", len(counts) == 1)
    with errors(checks=True):  # run resumes by itself
        result = play(cards, games, counts, seats(bot), seed, runs=runs, name=name, n_jobs=jobs,
                      progress=None if not quiet else False, threshold_pp=threshold, points_blind=points_blind,
                      skill_check=skill_check, max_games=max_games, borderline_pp=borderline, round_games=round_games,
                      debug=debug, stall_timeout=stall_timeout, deck=load(cards))  # fmt: skip
    if quiet:
        typer.echo(str(result.value.report.path))
    else:
        show(result)


@app.command("skill-check", epilog=COMPANIONS)
def skill_check_command(
    run_dir: Path = typer.Argument(..., metavar="RUN", help="A run directory of revachol run or simulate, complete; or the folder of a revachol run of several player counts."),
    games: int | None = typer.Option(None, "--games", "-n", min=1, help="Skilled games per run: the run's first K games (with --until-settled, the most). Default: as many as --minutes allow."),
    minutes: float | None = typer.Option(None, min=0.01, help="The budget in minutes of this machine's cores, from the bot's measured speed (default 3; with --until-settled, the most, default 30)."),
    bot: str = typer.Option(SKILLED_REFERENCE_BOT, help="The bot of every seat: by default the reference of skilled play, or another bot's specification (the check then speaks of that bot's play)."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play in rounds of a tenth of the budget and stop when every measure's change is settled: its anytime-valid 95% interval lies wholly beyond its threshold (depends on skill) or wholly within it (holds); or at the budget. The same command, or a larger budget, continues."),
    jobs: Jobs = -1,
    quiet: bool = typer.Option(False, help="No progress bar and no table: print the check's sentence and the report's path."),
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
) -> None:
    """Which verdicts hold for skilled play? Plays the run's first K games again (the same deals and dice) with search in every seat, in chunks of 100 (Ctrl-C keeps them; the same command continues; a larger K adds games), rebuilds the report with the skill check, and prints every measure: depends on skill, holds (its change lies within its threshold), or cannot tell yet, with the smallest change K games detect and the games that would tell. With --until-settled, K grows in rounds until every measure is settled or the budget is spent, and the last line says where it stopped and why."""
    start_workers(jobs, "sim.run.runner")
    from analysis.workflows import skill_check as play

    with errors():  # the same command continues
        show(play(run_dir, games, minutes, bot, jobs, None if not quiet else False, table=not quiet,
                  scheduler=scheduler, dask_local=dask_local, until_settled=until_settled))  # fmt: skip


@app.command()
def bench(
    games: int = typer.Option(100_000, "--games", "-n", min=1, help="Games per line."),
    bot: str = typer.Option("random", help="Bot in every seat."),
    cards: Cards = DEFAULT_CARDS,
    cold: bool = typer.Option(False, "--cold", help="Instead, time a first run in a fresh process with an empty numba cache, phase by phase (seconds): what a fresh install waits before its first game."),
    report: bool = typer.Option(False, "--report", help="Instead, time `revachol report` (wall time, peak RSS, rows/s) on runs of --report-games games (default 1,000,000 and 10,000,000), each report in a process of its own."),
    report_games: list[int] = typer.Option([1_000_000, 10_000_000], min=1, help="With --report: the run sizes, repeat for several."),
    runs: Path = typer.Option(Path("runs") / "report-bench", help="With --report: the folder of the runs, g1m and g10m; complete runs there are reused (only read), missing ones are played there first (greedy, 4 players, seed 0)."),
    dask_local: int | None = typer.Option(None, min=1, help="With --report: time the reports on a local Dask cluster of this many workers."),
    report_jobs: int | None = typer.Option(None, min=1, callback=capped_jobs, help="With --report: the reports' local worker processes (report --jobs; default every core)."),
) -> None:
    """Measure the engine's speed in games/s on one core: the card file and its ability-free variant, with 2 and 4 players. With --report, the report's wall time, peak memory and rows/s instead. A measurement, not a test."""
    if report:
        import subprocess

        from analysis.report.bench import format_timings, report_scale

        try:
            typer.echo(format_timings(report_scale(report_games, runs, dask_local, report_jobs)))
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            fail(str(exc))
        return
    from sim.run.bench import engine_speed, first_run_phases, format_lines, format_phases, pin_to_one_core

    load(cards)
    if cold:
        typer.echo(f"first run of {bot!r}, 4 players, in a fresh process with an empty numba cache:")
        typer.echo(format_phases(first_run_phases(cards, bot, cold=True)))
        return
    typer.echo(pin_to_one_core())
    try:
        typer.echo(format_lines(engine_speed(cards, games, bot)))
    except ValueError as exc:
        fail(str(exc))


@app.command()
def simulate(
    games: int = typer.Option(100_000, "--games", "-n", min=1, help="Number of games to play."),
    out: Path = typer.Option(..., "--out", "-o", help="Run directory to write (new or empty; with --resume, the run to continue)."),
    cards: Cards = DEFAULT_CARDS,
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    shuffle_seats: bool = typer.Option(False, help="Give the bots to the seats in a random order in each game (the first player is random anyway, R2.2)."),
    seed: Seed = 0,
    jobs: Jobs = -1,
    chunk_size: int = typer.Option(DEFAULT_CHUNK, min=1, help="Games per chunk (one Parquet part each, and the unit of --resume)."),
    resume: bool = typer.Option(False, help="Continue an interrupted run in --out, reusing its finished chunks."),
    quiet: Quiet = False,
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
    double_any_symbol: bool = DOUBLE_ANY_SYMBOL,
    one_special_crown_per_squad: bool = ONE_SPECIAL_CROWN,
    extra_play_existing_squad: bool = EXTRA_PLAY_EXISTING,
    turn_cap: int = typer.Option(1000, min=1, help="Turns after which a game stops as truncated (R4 Reading)."),
    debug: bool = DEBUG,
    stall_timeout: float = STALL_TIMEOUT,
) -> None:
    """Play many games and write them to a run directory: Parquet tables of games, players and cards, a copy of the card file, and manifest.json. Interrupted runs continue with --resume; results do not depend on --jobs or --chunk-size."""
    if scheduler is None and dask_local is None:
        start_workers(jobs, "sim.run.runner")  # while the imports below run
    from sim.options import RuleOptions
    from sim.run.runner import simulate as play

    deck = load(cards)
    with errors(resume=True, checks=True):
        options = RuleOptions(
            double_any_symbol=double_any_symbol, one_special_crown_per_squad=one_special_crown_per_squad,
            extra_play_existing_squad=extra_play_existing_squad, turn_cap=turn_cap, shuffle_seats=shuffle_seats,
            debug=debug,
        )  # fmt: skip
        play(deck, games, out, players, seats(bot), seed, jobs, options, chunk_size, resume,
             None if not quiet else False, scheduler, dask_local, cards_file=cards, stall_timeout=stall_timeout)  # fmt: skip
    typer.echo(f"{games:,} games written to {out}")


@app.command(epilog=COMPANIONS)
def report(
    run_dir: Path = typer.Argument(..., metavar="RUN", help="A run directory written by `revachol simulate`."),
    out: Path | None = typer.Option(None, help="where to write; default RUN_DIR/report"),
    include_unfinished: IncludeUnfinished = False,
    threshold: Threshold = DEFAULT_THRESHOLD_PP,
    target_turns: str | None = typer.Option(None, help="Your target for mean turns per game, LO..HI (e.g. 50..60): the findings rank game length by its miss."),
    bot: str | None = typer.Option(None, help="Card strength from the players of this bot only (as the run spells it, e.g. search or search:iterations=256): how a skilled or a weak player's allies pay."),
    quiet: bool = typer.Option(False, help="No progress bar (shown for a million games or more) and no findings: print only the report's path."),
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
    jobs: int | None = typer.Option(None, callback=capped_jobs, help="Local worker processes that read the run's parts side by side; -1 uses every core (default: every core from 200,000 games on, one below); the report is the same whatever their number."),
    section: list[str] = typer.Option([], help="Also print this section of the report in the terminal, by title (e.g. \"card strength\"; repeat for several; all for every section): its answers, notes and tables, as the page shows them."),
) -> None:
    """Write the balance report of a run: one self-contained HTML page that opens with the Findings (one sentence each, most important first), then game length, morale loss, card strength, task rewards, seat advantage by turn order, each answered in a sentence with sample sizes and 95% confidence intervals, figures embedded, sortable tables, and the run's provenance at the end; every table as CSV under tables/. Prints the Findings that open the page (the first eight, most important first) and the path of the HTML file."""
    from analysis.workflows import report as build

    with errors():
        show(build(run_dir, out, section, not quiet, target_turns, include_unfinished=include_unfinished,
                   threshold_pp=threshold, bot=bot, progress=False if quiet else None, scheduler=scheduler,
                   dask_local=dask_local, workers=cores() if jobs == -1 else jobs))  # fmt: skip


@app.command()
def plan(
    run_dir: Path = typer.Argument(..., metavar="RUN", help="A run directory written by `revachol run` or `revachol simulate`."),
    effect: str | None = typer.Option(None, help="Effect on win rate to detect, in percentage points (1pp, or 1): an ally's against the average ally and the first player's edge over a fair seat."),
    effect_points: str | None = typer.Option(None, help="Gap of a task's reward from par to detect, in points (1.5, or 1.5points)."),
    effect_turns: str | None = typer.Option(None, help="Miss of a target for mean turns per game to detect, in turns (3, or 3turns)."),
    threshold: Threshold = DEFAULT_THRESHOLD_PP,
    include_unfinished: IncludeUnfinished = False,
) -> None:
    """How many games? For each verdict of the report (ally strength, task rewards, the first player's edge, game length against a target), the games that would detect the effect you give with 80% power, from the run's standard errors (its report's tables when written, else its games), and the effect this run detects (mde). An effect below the practical threshold can never be flagged."""
    from analysis.workflows import plan as play

    with errors():
        show(play(run_dir, effect, effect_points, effect_turns, include_unfinished=include_unfinished,
                  threshold_pp=threshold))


# The experiments' commands (commands/experiments.py), in the order --help lists them.
app.command(epilog=COMPANIONS)(experiments.compare)
app.command("card-value")(experiments.card_value)
app.command()(experiments.sweep)
app.command()(experiments.tune)
app.command(epilog=COMPANIONS)(experiments.advise)
app.command()(experiments.skill)
app.command("train-expert")(experiments.train_expert)


@app.command()
def replay(
    seed: int = typer.Option(..., help="The run's root seed: the same seed and game number give the same game."),
    players: Players = 4,
    cards: Cards = DEFAULT_CARDS,
    game: int = typer.Option(0, min=0, help="Which game of the run to show (games are numbered from 0)."),
    bot: str = typer.Option("random", help=f"The bot in every seat. {BOTS}"),
    double_any_symbol: bool = DOUBLE_ANY_SYMBOL,
    one_special_crown_per_squad: bool = ONE_SPECIAL_CROWN,
    extra_play_existing_squad: bool = EXTRA_PLAY_EXISTING,
) -> None:
    """Print one game turn by turn: the rule options, the deal, who played what where, completions with the symbols used and the crowns standing in, the morale track, morale-loss events with their dice and penalties, and the final scores."""
    from sim.options import RuleOptions
    from sim.trace import replay as trace_replay

    deck = load(cards)
    options = RuleOptions(
        double_any_symbol=double_any_symbol, one_special_crown_per_squad=one_special_crown_per_squad,
        extra_play_existing_squad=extra_play_existing_squad,
    )  # fmt: skip
    with errors():
        typer.echo(trace_replay(deck, players, seed, game, [bot] * players, options))


if __name__ == "__main__":
    app()
