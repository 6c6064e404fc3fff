"""The ``revachol`` command line. It parses options, calls the library and prints;
it holds no game logic. Library imports happen inside each command so that
``revachol --help`` starts fast."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

from analysis.thresholds import DEFAULT_BORDERLINE_PP, DEFAULT_THRESHOLD_PP
from sim.bots.speed import MAIN_JOB_BOT, SKILLED_REFERENCE_BOT
from sim.console import output_width, stdout_console
from sim.os_errors import explain
from sim.bots.rungs import RUNG_NAMES
from sim.run import DEFAULT_CHUNK
from sim.run.workers import skip_last_collection, start_workers

skip_last_collection()
if output_width() is not None:  # a file or a pipe: --help at that width too (typer reads TERMINAL_WIDTH)
    os.environ.setdefault("TERMINAL_WIDTH", str(output_width()))


class Terminated(Exception):
    """SIGTERM arrived while a command ran outside a run's own supervision."""


def _terminate(signum, frame) -> None:
    raise Terminated()


class OneLineErrors(TyperGroup):
    """The commands, with every operating-system failure (a full disk, no permission,
    a read-only filesystem, too many open files …) printed as one line naming the
    path and what to do, and exit code 1; ``revachol --debug COMMAND`` shows the
    traceback instead. SIGINT or SIGTERM outside a run's supervision (a report read
    by worker processes, say) stops the command in one line: its local workers are
    ended and their semaphores released first, so nothing leaks and no warning
    follows (a run's games stop through :mod:`sim.run.supervisor`, which says what was kept)."""

    def invoke(self, ctx):
        import signal

        previous = signal.signal(signal.SIGTERM, _terminate) if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL else None
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if ctx.meta.get(SHOW_TRACEBACK):
                raise
            typer.echo(f"error: {explain(exc)}", err=True)
            raise typer.Exit(code=1) from None
        except (Terminated, KeyboardInterrupt) as exc:
            from sim.run.workers import kill_workers

            kill_workers()
            number = signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT
            typer.echo(f"error: stopped by {number.name}; run the same command again to continue", err=True)
            raise typer.Exit(code=128 + number) from None
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


SHOW_TRACEBACK = "revachol.debug"
_DEBUG = False  # revachol --debug, for _fail: set by the group's callback before any command runs
app = typer.Typer(
    cls=OneLineErrors,
    help="Balance toolkit for Echoes of Revachol: validate card data, simulate games, read balance reports.",
    no_args_is_help=True,
    add_completion=False,
)

DEFAULT_CARDS = Path("cards.yaml")
# The built-in bots (sim.bots.policy), weakest to strongest; kept literal so that --help imports no engine.
BOTS = ("Built-in bots: random, uniform (every rule path), greedy (the default), planner, expert (tuned "
        "against planner, as fast), search (strongest, slowest; search:iterations=N); or FILE.py:NAME for your own.")  # fmt: skip
# Rule options (docs/RULES.md readings, sim/options.py), shared by the commands that play games.
DOUBLE_ANY_SYMBOL = typer.Option(False, help="Rule option opt_double_any_symbol (A2 may double any symbol in its squad).")
ONE_SPECIAL_CROWN = typer.Option(False, "--one-special-crown-per-squad", help="Rule option opt_one_special_crown_per_squad (A8: one extra crown per squad, not one per A8 card).")
EXTRA_PLAY_EXISTING = typer.Option(False, "--extra-play-existing-squad", help="Rule option opt_extra_play_existing_squad (A4: the extra card goes into an existing squad only).")
def _cores() -> int:
    """The cores this process may use (its CPU affinity), at least 1."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else max(1, os.cpu_count() or 1)


def _capped_jobs(value: int | None) -> int | None:
    """``--jobs`` as the workers to start: more than this machine's cores is capped to
    them, with one line saying so; ``-1`` (every core) and ``None`` as given."""
    cores = _cores()
    if value is not None and value > cores:
        typer.echo(f"--jobs {value} is more than this machine's {cores} cores: {cores} workers", err=True)
        return cores
    return value


# The options every command shares, declared once (typer's Annotated aliases); each command gives the default.
Cards = Annotated[Path, typer.Option(help="The card file.")]
Players = Annotated[int, typer.Option(min=2, max=4, help="Number of players, 2 to 4 (R2.1).")]
Bots = Annotated[list[str], typer.Option("--bot", help=f"Bot for every seat, or repeat once per seat: NAME[:key=value,...], e.g. greedy:w_points=2 or greedy:never=harry_du_bois. {BOTS}")]
Seed = Annotated[int, typer.Option(help="Root seed: the same seed and inputs give the same games; every deck, value or candidate a command sets side by side plays the same games (common random numbers).")]
Jobs = Annotated[int, typer.Option(callback=_capped_jobs, help="Worker processes; -1 uses every core; more than the machine's cores are capped to them.")]
Quiet = Annotated[bool, typer.Option(help="No progress: no bar on a terminal, no lines in a log.")]
Out = Annotated[Path | None, typer.Option(help="Where to write; default a folder under runs/ named by the command and its inputs.")]
DEFAULT_BOTS = [MAIN_JOB_BOT]  # the default bot of every command (sim.bots.speed)
BORDERLINE = typer.Option(DEFAULT_BORDERLINE_PP, min=0.0, metavar="PP", help="With --until-settled: a verdict (in compare, a change; in advise, the quantity an edit aims at) whose confidence sequence lies wholly within this many percentage points of its threshold is settled at the threshold (in other units than pp, the same fraction of the threshold); an effect exactly on the threshold is never settled otherwise. 0 turns it off.")
DEBUG = typer.Option(False, help="Run the engine's debug assertions (slower); every bot's choice is checked anyway.")
COMPANIONS = ("Companions, one rule in every command. The points-blind games (the same games with every task paying "
              "alike) play wherever a task's reward is judged against its difficulty: in run (--no-points-blind "
              "skips them) and for advise's task edits; compare judges rewards on completion as played. The skilled "
              "games (search, the reference of skilled play, in every seat) play when asked: revachol skill-check "
              "RUN, or --skill-check; without asking, only when they cost no more than the games they check, which "
              "search never does beside greedy or planner.")  # fmt: skip
"""The epilog of every command that plays or reads a companion (issue 68 item 7)."""
STALL_TIMEOUT = typer.Option(60.0, min=1.0, help="Stop the run when no game finished for this many seconds (a bot that never returns, say), keeping the finished chunks.")


@app.callback()
def main(
    ctx: typer.Context,
    debug: bool = typer.Option(False, "--debug", help="Show the full traceback of a failing command (an operating-system error, a bot file that does not compile: numba's whole message) above its one line."),
) -> None:
    """Balance toolkit for Echoes of Revachol."""
    from sim.switches import SwitchError, read

    global _DEBUG
    ctx.meta[SHOW_TRACEBACK] = _DEBUG = debug
    try:
        read(RUNG_NAMES)  # every REVACHOL_* switch, before any module reads one
    except SwitchError as exc:
        _fail(str(exc))


def _fail(message: str, code: int = 1) -> None:
    """Print one clear error and exit non-zero; with ``revachol --debug``, the whole
    story of the exception being handled first (a bot's compile error: numba's
    whole message)."""
    import sys
    import traceback

    if _DEBUG and sys.exc_info()[1] is not None:
        traceback.print_exception(sys.exc_info()[1])
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=code)


def _stopped(exc, resume: bool) -> None:
    """The one line of a run stopped by a signal or its watchdog (``sim.run.runner.RunStopped``):
    what was kept, and the exact command that continues it (this one, with ``--resume``
    when ``resume``). Exits 128 + the signal's number after a signal (130 for SIGINT),
    as a shell does, else 1."""
    import shlex
    import signal
    import sys

    command = ["revachol", *sys.argv[1:]]
    if resume and "--resume" not in command:
        command.append("--resume")
    _fail(f"{exc.kept}; continue with: {shlex.join(command)}", code=128 + signal.Signals[exc.signal] if exc.signal else 1)


def _seats(bot: list[str]) -> str | list[str]:
    """``--bot`` as the library takes it: one bot for every seat, or one per seat."""
    return bot[0] if len(bot) == 1 else bot


def _load(path: Path):
    from sim.cards import DeckError, load_deck

    try:
        return load_deck(path)
    except DeckError as exc:
        typer.echo(f"{path}: {len(exc.problems)} problem(s):", err=True)
        for problem in exc.problems:
            typer.echo(f"  {problem}", err=True)
        raise typer.Exit(code=1) from None


@app.command()
def validate(
    path: Path = typer.Argument(DEFAULT_CARDS, metavar="CARDS", help="The card file: allies, tasks and morale cards (cards.yaml)."),
) -> None:
    """Check a card file and print its summary: card counts, symbol supply (allies) against demand (tasks) per colour, the abilities present, and which values are estimates. Exits with code 1 and one line per problem when the file is invalid."""
    from sim.deck_summary import summarise
    from sim.summary_view import render_summary

    deck = _load(path)
    stdout_console().print(render_summary(summarise(deck), str(path)))


@app.command(epilog=COMPANIONS)
def run(
    cards: Cards = DEFAULT_CARDS,
    games: int = typer.Option(100_000, "--games", "-n", min=1, help="Number of games to play."),
    players: str = typer.Option("4", help="Number of players, 2 to 4 (R2.1); several, e.g. 2,3,4, play each count on the same seeds and report them side by side."),
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    runs: Path = typer.Option(Path("runs"), help="Folder that holds the run directories."),
    name: str | None = typer.Option(None, help="Name of the run directory; default: from the card file, its hash, players, bots, games and seed."),
    jobs: Jobs = -1,
    quiet: bool = typer.Option(False, help="No progress bar and no findings: print only the report's path."),
    threshold: float = typer.Option(DEFAULT_THRESHOLD_PP, min=0.0, help="Smallest effect on win rate, in percentage points, that earns an ally a verdict (stronger or weaker) in the report."),
    points_blind: bool = typer.Option(True, help="Also play the same games with every task paying the deck's mean points (rounded), in RUN/points_blind: the report measures each task's difficulty there, free of the bots chasing its reward. --no-points-blind skips it (half the games; the report then judges task rewards on completion as played)."),
    skill_check: bool | None = typer.Option(None, "--skill-check/--no-skill-check", help="Also play the run's first games with search, the reference of skilled play, in every seat (as many as 3 minutes of this machine's cores play, in RUN/skilled) and mark the findings that depend on skill; revachol skill-check RUN does it later, on a budget of your choice. Default: on only when it costs no more than the run with its points-blind companion, which search never does beside greedy or planner; without it the findings end with the command that checks them."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play in rounds of --round-games games and stop when every verdict (each ally against the average ally, the first player's edge) is settled: its anytime-valid 95% confidence sequence lies wholly beyond or wholly within the ±--threshold band, or wholly within --borderline of the threshold (at the threshold); or at --max-games. Needs --max-games; replaces --games. The same command with --max-games raised continues the run."),
    max_games: int | None = typer.Option(None, min=1, help="With --until-settled: the most games to play."),
    borderline: float = BORDERLINE,
    round_games: int = typer.Option(50_000, min=1, help="With --until-settled: games per round (whole chunks of 25,000, or one smaller chunk); the verdicts are checked after each."),
    debug: bool = DEBUG,
    stall_timeout: float = STALL_TIMEOUT,
) -> None:
    """The main job: play the games and write the balance report. With no options: the default cards.yaml, 100,000 games, 4 players, greedy in every seat, then the same games with every task paying alike (the points-blind companion); revachol skill-check RUN then says which verdicts hold for skilled play. The run goes to runs/NAME/ and the command prints the report's findings, most important first, and where the report is. Run the same command again to continue an interrupted run or to rebuild its report."""
    start_workers(jobs, "sim.run.runner")  # while the imports below run
    from analysis.experiments.main_job import main_job
    from analysis.report.terminal import print_findings
    from analysis.report.words.experiments import main_job_line
    from sim.run.runner import RunError, RunStopped
    from sim.rundir.lock import LockedError

    counts = _player_counts(players)
    if until_settled and (max_games is None or len(counts) > 1):
        _fail("--until-settled needs --max-games N, and one player count")
    if max_games is not None and not until_settled:
        _fail("--max-games is for --until-settled runs; a fixed run takes --games")
    try:
        job = main_job(cards, games, counts, _seats(bot), seed, runs, name, jobs,
                       progress=None if not quiet else False, threshold_pp=threshold, points_blind=points_blind,
                       skill_check=skill_check, max_games=max_games, borderline_pp=borderline,
                       round_games=round_games, debug=debug, stall_timeout=stall_timeout, deck=_load(cards))  # fmt: skip
    except RunStopped as exc:
        _stopped(exc, resume=False)  # run resumes by itself
    except (RunError, LockedError, ValueError, AssertionError) as exc:  # AssertionError: a --debug check
        _fail(str(exc))
    if quiet:
        typer.echo(str(job.report.path))
        return
    if job.stopping is not None:
        typer.echo(job.stopping.summary())
    typer.echo(main_job_line(job))
    print_findings(job.report.findings, check=job.report.tables.get("skill_check"), unchecked=job.report.unchecked)
    typer.echo(f"report: {job.report.path}")


def _player_counts(text: str) -> list[int]:
    """``"2,3,4"`` as ``[2, 3, 4]``; one clear error for anything but distinct counts 2-4 (R2.1)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or len(set(counts)) != len(counts) or not all(2 <= n <= 4 for n in counts):
        _fail(f"--players {text!r}: give a player count from 2 to 4, or several separated by commas, e.g. 2,3,4 (R2.1)")
    return counts


@app.command("skill-check", epilog=COMPANIONS)
def skill_check_command(
    run_dir: Path = typer.Argument(..., metavar="RUN", help="A run directory of revachol run or simulate, complete; or the folder of a revachol run of several player counts."),
    games: int | None = typer.Option(None, "--games", "-n", min=1, help="Skilled games per run: the run's first K games (with --until-settled, the most). Default: as many as --minutes allow."),
    minutes: float | None = typer.Option(None, min=0.01, help="The budget in minutes of this machine's cores, from the bot's measured speed (default 3; with --until-settled, the most, default 30)."),
    bot: str = typer.Option(SKILLED_REFERENCE_BOT, help="The bot of every seat: by default the reference of skilled play, or another bot's specification (the check then speaks of that bot's play)."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play in rounds of a tenth of the budget and stop when every measure's change is settled: its anytime-valid 95% interval lies wholly beyond its threshold (depends on skill) or wholly within it (holds); or at the budget. The same command, or a larger budget, continues."),
    jobs: Jobs = -1,
    quiet: bool = typer.Option(False, help="No progress bar and no table: print the check's sentence and the report's path."),
    scheduler: str | None = typer.Option(None, help="Play on an existing Dask cluster, e.g. tcp://HOST:8786."),
    dask_local: int | None = typer.Option(None, min=1, help="Start a local Dask cluster with this many workers and play on it."),
) -> None:
    """Which verdicts hold for skilled play? Plays the run's first K games again (the same deals and dice) with search in every seat, in chunks of 100 (Ctrl-C keeps them; the same command continues; a larger K adds games), rebuilds the report with the skill check, and prints every measure: depends on skill, holds (its change lies within its threshold), or cannot tell yet, with the smallest change K games detect and the games that would tell. With --until-settled, K grows in rounds until every measure is settled or the budget is spent, and the last line says where it stopped and why."""
    if games is not None and minutes is not None:
        _fail("give --games or --minutes, not both")
    start_workers(jobs, "sim.run.runner")
    from analysis.experiments.check_skill import check_skill
    from analysis.report.terminal import print_skill_check
    from analysis.report.words.skill import skill_check_lines, skill_settled_sentence
    from sim.rundir import RunError
    from sim.rundir.lock import LockedError
    from sim.run.runner import RunStopped

    try:
        done = check_skill(run_dir, games, minutes, bot, jobs, progress=None if not quiet else False,
                           scheduler=scheduler, dask_local=dask_local, until_settled=until_settled)  # fmt: skip
    except RunStopped as exc:
        _stopped(exc, resume=False)  # the same command continues
    except (RunError, LockedError, ValueError) as exc:
        _fail(str(exc))
    check = done.report.tables.get("skill_check")
    if not quiet and check is not None and not check.empty:
        print_skill_check(check)
    for line in skill_check_lines(check, done.report.unchecked):
        typer.echo(line)
    for path, stopping in zip(done.runs, done.stopping):
        typer.echo(skill_settled_sentence(stopping, path.name if len(done.runs) > 1 else ""))
    typer.echo(f"report: {done.report.path}")


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
    report_jobs: int | None = typer.Option(None, min=1, callback=_capped_jobs, help="With --report: the reports' local worker processes (report --jobs; default every core)."),
) -> None:
    """Measure the engine's speed in games/s on one core: the card file and its ability-free variant, with 2 and 4 players. With --report, the report's wall time, peak memory and rows/s instead. A measurement, not a test."""
    if report:
        import subprocess

        from analysis.report.bench import format_timings, report_scale

        try:
            typer.echo(format_timings(report_scale(report_games, runs, dask_local, report_jobs)))
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            _fail(str(exc))
        return
    from sim.run.bench import engine_speed, first_run_phases, format_lines, format_phases, pin_to_one_core

    _load(cards)
    if cold:
        typer.echo(f"first run of {bot!r}, 4 players, in a fresh process with an empty numba cache:")
        typer.echo(format_phases(first_run_phases(cards, bot, cold=True)))
        return
    typer.echo(pin_to_one_core())
    try:
        typer.echo(format_lines(engine_speed(cards, games, bot)))
    except ValueError as exc:
        _fail(str(exc))


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
    scheduler: str | None = typer.Option(None, help="Run on an existing Dask cluster, e.g. tcp://HOST:8786."),
    dask_local: int | None = typer.Option(None, min=1, help="Start a local Dask cluster with this many workers and run on it."),
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
    from sim.rundir import RunError
    from sim.run.runner import RunStopped
    from sim.run.runner import simulate as run

    deck = _load(cards)
    bots = _seats(bot)
    try:
        options = RuleOptions(
            double_any_symbol=double_any_symbol, one_special_crown_per_squad=one_special_crown_per_squad,
            extra_play_existing_squad=extra_play_existing_squad, turn_cap=turn_cap, shuffle_seats=shuffle_seats,
            debug=debug,
        )  # fmt: skip
        run(deck, games, out, players, bots, seed, jobs, options, chunk_size, resume, None if not quiet else False,
            scheduler, dask_local, cards_file=cards, stall_timeout=stall_timeout)  # fmt: skip
    except RunStopped as exc:
        _stopped(exc, resume=True)
    except (RunError, ValueError, AssertionError) as exc:  # AssertionError: a --debug check
        _fail(str(exc))
    typer.echo(f"{games:,} games written to {out}")


@app.command(epilog=COMPANIONS)
def report(
    run_dir: Path = typer.Argument(..., metavar="RUN", help="A run directory written by `revachol simulate`."),
    out: Path | None = typer.Option(None, help="where to write; default RUN_DIR/report"),
    include_unfinished: bool = typer.Option(False, help="count stalled and truncated games in win rates"),
    threshold: float = typer.Option(DEFAULT_THRESHOLD_PP, min=0.0, help="Smallest effect on win rate, in percentage points, that earns an ally a verdict (stronger or weaker) in the report."),
    target_turns: str | None = typer.Option(None, help="Your target for mean turns per game, LO..HI (e.g. 50..60): the findings rank game length by its miss."),
    bot: str | None = typer.Option(None, help="Card strength from the players of this bot only (as the run spells it, e.g. search or search:iterations=256): how a skilled or a weak player's allies pay."),
    quiet: bool = typer.Option(False, help="No progress bar (shown for a million games or more) and no findings: print only the report's path."),
    scheduler: str | None = typer.Option(None, help="Read the run's parts on an existing Dask cluster, e.g. tcp://HOST:8786 (its workers must see the run at the same path)."),
    dask_local: int | None = typer.Option(None, min=1, help="Start a local Dask cluster with this many workers and read the run's parts on it."),
    jobs: int | None = typer.Option(None, callback=_capped_jobs, help="Local worker processes that read the run's parts side by side; -1 uses every core (default: every core from 200,000 games on, one below); the report is the same whatever their number."),
    section: list[str] = typer.Option([], help="Also print this section of the report in the terminal, by title (e.g. \"card strength\"; repeat for several; all for every section): its answers, notes and tables, as the page shows them."),
) -> None:
    """Write the balance report of a run: one self-contained HTML page that opens with the Findings (one sentence each, most important first), then game length, morale loss, card strength, task rewards, seat advantage by turn order, each answered in a sentence with sample sizes and 95% confidence intervals, figures embedded, sortable tables, and the run's provenance at the end; every table as CSV under tables/. Prints the Findings that open the page (the first eight, most important first) and the path of the HTML file."""
    from analysis.report.page import build_report
    from analysis.report.terminal import print_findings, print_section
    from analysis.experiments.tune import Target
    from sim.cards import DeckError
    from sim.rundir import RunError

    try:
        target = Target.parse(f"turns={target_turns}") if target_turns is not None else None
    except ValueError:
        _fail(f"--target-turns {target_turns!r}: write LO..HI in turns, e.g. 50..60")
    try:
        report = build_report(run_dir, out, include_unfinished, threshold,
                              target_turns=(target.low, target.high) if target else None, bot=bot,
                              progress=False if quiet else None, scheduler=scheduler, dask_local=dask_local,
                              workers=_cores() if jobs == -1 else jobs)  # fmt: skip
    except (RunError, DeckError, ValueError) as exc:
        _fail(str(exc).replace("\n", "; "))
    titles = {s.title.lower(): s for s in report.sections}
    unknown = [name for name in section if name.lower() not in (*titles, "all")]
    if unknown:
        _fail(f"--section {unknown[0]!r}: no such section; valid: {', '.join(s.title for s in report.sections)}, all")
    if not quiet:
        print_findings(report.findings, check=report.tables.get("skill_check"), unchecked=report.unchecked)
    wanted = {name.lower() for name in section}
    for shown in report.sections:
        if "all" in wanted or shown.title.lower() in wanted:
            print_section(shown)
    typer.echo(str(report.path))


@app.command()
def plan(
    run_dir: Path = typer.Argument(..., metavar="RUN", help="A run directory written by `revachol run` or `revachol simulate`."),
    effect: str | None = typer.Option(None, help="Effect on win rate to detect, in percentage points (1pp, or 1): an ally's against the average ally and the first player's edge over a fair seat."),
    effect_points: str | None = typer.Option(None, help="Gap of a task's reward from par to detect, in points (1.5, or 1.5points)."),
    effect_turns: str | None = typer.Option(None, help="Miss of a target for mean turns per game to detect, in turns (3, or 3turns)."),
    threshold: float = typer.Option(DEFAULT_THRESHOLD_PP, min=0.0, help="Smallest effect on win rate, in percentage points, that earns a verdict (as for revachol report)."),
    include_unfinished: bool = typer.Option(False, help="count stalled and truncated games in win rates (when the run has no report to read)"),
) -> None:
    """How many games? For each verdict of the report (ally strength, task rewards, the first player's edge, game length against a target), the games that would detect the effect you give with 80% power, from the run's standard errors (its report's tables when written, else its games), and the effect this run detects (mde). An effect below the practical threshold can never be flagged."""
    from analysis.plan import parse_effect, plan_games
    from analysis.report.terminal import print_table
    from analysis.report.words.plan import plan_lines
    from sim.cards import DeckError
    from sim.rundir import RunError

    try:
        effects = [parse_effect(text, unit) if text is not None else None
                   for text, unit in ((effect, "pp"), (effect_points, "points"), (effect_turns, "turns"))]  # fmt: skip
        found = plan_games(run_dir, *effects, include_unfinished=include_unfinished, threshold_pp=threshold)
    except (RunError, DeckError, ValueError) as exc:
        _fail(str(exc).replace("\n", "; "))
    title, lines = plan_lines(found.table, found.source)
    print_table(found.table, title, hide=("unit",))
    for line in lines:
        typer.echo(line)


@app.command(epilog=COMPANIONS)
def compare(
    a: Path = typer.Argument(..., metavar="A", help="The reference card file (A)."),
    b: Path = typer.Argument(..., metavar="B", help="The changed card file (B); a card is paired with A's card of the same id."),
    games: int = typer.Option(20_000, "--games", "-n", min=2, help="Games played under each card file."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    out: Out = None,
    jobs: Jobs = -1,
    quiet: Quiet = False,
    skill_check: bool | None = typer.Option(None, "--skill-check/--no-skill-check", help="Also play both decks' first games with search, the reference of skilled play, in every seat (as many as 3 minutes of this machine's cores play, shared by the two decks) and say which changes depend on skill. Default: on only when it costs no more than the comparison, which search never does beside greedy or planner."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play both decks in rounds of --round-games games on the same seeds and stop when every change B − A is settled: its anytime-valid 95% confidence sequence lies wholly beyond or wholly within its practical threshold (2 pp for a rate, 5 turns, 0.5 morale-loss events); or at --max-games. Needs --max-games; replaces --games. The same command with --max-games raised continues the comparison."),
    max_games: int | None = typer.Option(None, min=1, help="With --until-settled: the most games per deck."),
    round_games: int = typer.Option(10_000, min=1, help="With --until-settled: games per round and deck (whole chunks of 25,000, or one smaller chunk); the changes are checked after each."),
    borderline: float = BORDERLINE,
) -> None:
    """What did my change do? Plays the same games (same seeds, same bots) under card files A and B and reports the paired differences B − A in game length, morale loss, task completion, seat win rates and each card's strength, each with a 95% CI and a flag when significant after Benjamini–Hochberg correction (one family per quantity). Prints the largest significant changes (pp, 95% CIs) and the path of compare.html."""
    from analysis.experiments.compare import comparison_brief, run_comparison
    from analysis.report.terminal import print_page
    from sim.rundir import RunError
    from analysis.experiments.check_skill import games_per_deck
    from sim.run.runner import RunStopped, run_name
    from sim.run.skilled import SKILLED_BOT, by_default

    if until_settled and max_games is None:
        _fail("--until-settled needs --max-games N")
    if max_games is not None and not until_settled:
        _fail("--max-games is for --until-settled comparisons; a fixed one takes --games")
    deck_a, deck_b = _load(a), _load(b)
    bots = _seats(bot)
    target = out or Path("runs") / run_name(a, deck_a, None if until_settled else games, seed, players=players,
                                            kind="compare-settled" if until_settled else "compare", versus=(b, deck_b))  # fmt: skip
    skilled = by_default(bot, players, points_blind=False) if skill_check is None else skill_check
    try:
        comparison = run_comparison(a, b, games, target, players, bots, seed, jobs, progress=None if not quiet else False,
                                    skill_check=SKILLED_BOT if skilled else None, max_games=max_games,
                                    round_games=round_games, skill_games=games_per_deck(players),
                                    borderline_pp=borderline)  # fmt: skip
    except RunStopped as exc:
        _stopped(exc, resume=False)  # compare resumes by itself
    except (RunError, ValueError) as exc:
        _fail(str(exc))
    print_page(comparison_brief(comparison, a.name, b.name))


@app.command("card-value")
def card_value(
    cards: Cards = DEFAULT_CARDS,
    ally: list[str] = typer.Option([], help="Ally id to value (repeat for several); default: every ally."),
    against: str | None = typer.Option(None, help="Id of the reference ally the value is measured against; default: the plain ally (no ability) nearest the average ally on --cards (and --reference-deck)."),
    reference_deck: Path | None = typer.Option(None, help="Another card file whose baseline joins --cards' in choosing the default reference: the plain ally nearest the average in both. Value a card file with its proposal here, and the proposal with the card file, so that both are valued against one ally."),
    games: int = typer.Option(5_000, "--games", "-n", min=2, help="Games per ally (and for the baseline and the reference)."),
    players: Players = 4,
    bot: list[str] = typer.Option(DEFAULT_BOTS, help="The bot of seat 0, the one restricted; give it twice, e.g. --bot search --bot planner, for a different bot in every other seat (card strength for a skilled player among weaker ones)."),
    seed: Seed = 0,
    out: Path | None = typer.Option(None, help="Where to write the runs and card_value.csv; default runs/card-value-..."),
    jobs: Jobs = -1,
) -> None:
    """Causal card value by restricted play (Jaffe et al. 2012): for each ally, seat 0's bot may not play it, on the same deals as a run where it may not play a plain reference ally; the value is seat 0's win rate without the reference minus without the ally (positive: worth more than a plain ally), in pp with paired 95% CIs, exact McNemar tests and Benjamini–Hochberg flags, beside the value against no restriction, the value per game in which seat 0 held the ally, and the report's correlational IWD. Writes card_value.csv and prints the table."""
    from analysis.experiments.card_value import card_value_brief, card_values, write_card_values
    from analysis.report.terminal import print_page
    from sim.rundir import RunError
    from sim.run.runner import run_name

    deck = _load(cards)
    if reference_deck is not None:
        _load(reference_deck)
    if len(bot) > 2:
        _fail(f"--bot given {len(bot)} times: give seat 0's bot, and optionally the bot of every other seat")
    target = out or Path("runs") / run_name(cards, deck, games, seed, players=players, bots="-vs-".join(bot),
                                            kind="card-value")  # fmt: skip
    try:
        table = card_values(cards, games, target, ally or None, bot[0], players, seed, jobs, against=against,
                            opponents=bot[-1], reference_deck=reference_deck)  # fmt: skip
    except (RunError, ValueError) as exc:
        _fail(str(exc))
    print_page(card_value_brief(table, bot, str(cards), against is not None, reference_deck and str(reference_deck),
                                write_card_values(table, target)))  # fmt: skip


@app.command()
def sweep(
    card: str = typer.Option(..., help="Id of the card to vary (see cards.yaml)."),
    field: str = typer.Option(..., help="Its field to vary, e.g. points, requires, symbols, save."),
    value: list[str] = typer.Option(..., help="A value, written as in cards.yaml (repeat): --value 1 --value 2, --value '[red, blue]'."),
    metric: list[str] = typer.Option([], help="Metric to plot (repeat); default: the card kind's, plus turns. See analysis/experiments/sweep.py."),
    cards: Cards = DEFAULT_CARDS,
    games: int = typer.Option(5_000, "--games", "-n", min=2, help="Games per value."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    out: Out = None,
    jobs: Jobs = -1,
) -> None:
    """Vary one field of one card over a list of values, play the same games for each, and show how the chosen metrics respond: each point with its n and 95% CI, and the paired difference between neighbouring values with its 95% CI (common random numbers). Writes sweep.csv, sweep_differences.csv and sweep.png."""
    import yaml

    from analysis.experiments.sweep import sweep as run_sweep
    from analysis.experiments.sweep import sweep_brief, write_sweep
    from analysis.report.terminal import print_page
    from sim.cards import DeckError
    from sim.rundir import RunError
    from sim.run.runner import run_name

    deck = _load(cards)
    try:
        values = [yaml.safe_load(v) for v in value]
    except yaml.YAMLError as exc:
        _fail(f"--value: not a value as written in cards.yaml ({str(exc).splitlines()[0]}); e.g. 3 or '[red, blue]'")
    target = out or Path("runs") / run_name(None, deck, games, seed, players=players, kind=f"sweep-{card}-{field}")
    bots = _seats(bot)
    try:
        table, differences = run_sweep(cards, card, field, values, games, target, metric or None, players, bots, seed,
                                       jobs)  # fmt: skip
    except DeckError as exc:
        _fail("; ".join(str(p) for p in exc.problems))
    except (RunError, ValueError) as exc:
        _fail(str(exc))
    print_page(sweep_brief(table, differences, card, field, write_sweep(table, differences, card, field, target)))


@app.command()
def tune(
    field: list[str] = typer.Option(..., help="An integer field to search, CARD.FIELD=LO..HI (repeat), e.g. find_your_badge.points=1..6."),
    target: list[str] = typer.Option(..., help="A target (repeat): turns=LO..HI, advantage_p1=X, completion:TASK=LO..HI."),
    cards: Cards = DEFAULT_CARDS,
    games: int = typer.Option(5_000, "--games", "-n", min=2, help="Games per candidate deck."),
    evaluations: int = typer.Option(40, min=1, help="Roughly how many candidate decks to play."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    out: Out = None,
    jobs: Jobs = -1,
) -> None:
    """Search card fields towards your targets (SciPy's differential evolution over integer fields; each candidate plays the same games on the search seed). Prints the proposal as a diff of the card file and writes proposal.yaml; then plays the original and the proposal again on a fresh hold-out seed and reports that comparison (compare.html, and the targets' values reached), since the in-sample figures of the winner flatter it."""
    from analysis.report.terminal import print_page
    from analysis.experiments.tune import FieldRange, Target, tune_brief
    from analysis.experiments.tune import tune as run_tune
    from sim.cards import DeckError
    from sim.rundir import RunError
    from sim.run.runner import run_name

    deck = _load(cards)
    target_dir = out or Path("runs") / run_name(cards, deck, games, seed, players=players, kind="tune")
    bots = _seats(bot)
    try:
        fields, targets = [FieldRange.parse(f) for f in field], [Target.parse(t) for t in target]
        result = run_tune(cards, fields, targets, games, target_dir, players, bots, seed, evaluations, jobs)
    except DeckError as exc:
        _fail("; ".join(str(p) for p in exc.problems))
    except (RunError, ValueError) as exc:
        _fail(str(exc))
    print_page(tune_brief(result, seed))


@app.command(epilog=COMPANIONS)
def advise(
    cards: Path = typer.Option(DEFAULT_CARDS, help="The card file; the proposal edits a copy of its text, comments kept."),
    games: int = typer.Option(50_000, "--games", "-n", min=100, help="Games per candidate deck on the search seed (and as many with every task paying alike); fewer make the search chase noise (docs/EXPERIMENTS.md)."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: int = typer.Option(0, help="The search seed: every candidate plays the same games (common random numbers); the result is measured on a hold-out seed the search never uses."),
    threshold: float = typer.Option(DEFAULT_THRESHOLD_PP, min=0.0, help="Smallest effect on win rate, in percentage points, that earns an ally a verdict (as in the report)."),
    out: Out = None,
    jobs: Jobs = -1,
    lock: list[str] = typer.Option([], help="A field never to edit, CARD.FIELD (repeat), e.g. evrart_claire.symbols; a card's own locked: list counts too."),
    only_estimated: bool = typer.Option(False, help="Edit only the fields a card lists under estimated: (never a printed value)."),
    target_turns: str | None = typer.Option(None, help="Mean turns per game to keep within, LO..HI (e.g. 50..60), instead of within 5% of the original's; the same as --target turns=LO..HI."),
    target: list[str] = typer.Option([], help="A range the search moves towards (repeat): edge=LO..HI, the first player's edge over a fair seat in pp (e.g. edge=-1..1), or turns=LO..HI, mean turns per game (e.g. turns=50..60); the page says whether the proposal reached it on the hold-out."),
    abilities: bool = typer.Option(False, help="Also edit the allies' abilities (A1-A9): a stronger ally's removed, moved to a weaker ally that has none or swapped with one's; a weaker ally takes a stronger one's. --lock CARD.ability keeps one."),
    holdout_games: int = typer.Option(100_000, min=100, help="Fresh games per deck on the hold-out seed, where the proposal is measured."),
    only: list[str] = typer.Option([], help="Edit only this card, by id (repeat for several), e.g. kim_kitsuragi; default: every card."),
    max_edits: int | None = typer.Option(None, min=1, help="The proposal holds at most this many edits, those the search ranks best (a move or a swap of two allies' fields is one edit)."),
    skill_check: bool | None = typer.Option(None, "--skill-check/--no-skill-check", help="Also play the hold-out's first games of the original and the proposal with search, the reference of skilled play, in every seat (as many as 3 minutes of this machine's cores play, shared by the two decks) and say which of the proposal's changes depend on skill, hold, or cannot be told yet on those games. Default: as compare's, on only when it costs no more than the hold-out."),
    confirm_with: str | None = typer.Option(None, metavar="BOT", help="--skill-check with this bot in every seat instead of search (e.g. planner); only search's play is called skilled play."),
    confirm_games: int | None = typer.Option(None, min=100, metavar="GAMES", help="With --skill-check: skilled games per deck, the hold-out's first (default: the budget above)."),
    own_effects: bool = typer.Option(True, help="Also play each edit alone on the original deck on the hold-out's seed and games (--holdout-games games, and as many points-blind, per edit) and show its own effect beside its effect in the proposal."),
    short_list: str = typer.Option("3,6", help="Shorter proposals to confirm on the hold-out: the K edits the search ranks best, for each K (comma-separated; a move or a swap is one edit; --holdout-games games, and as many points-blind, per K); written to proposal-K.yaml. Empty for none."),
    quiet: bool = typer.Option(False, help="No progress (else a status line on a terminal, one line per stage in a log)."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play each screened edit in rounds of --round-games games, up to --games, and stop it as soon as the anytime-valid 95% confidence sequence of the quantity it aims at shows it cannot beat the best so far (the deck it edits, or a closer edit that kept the first player's edge; the edit is dropped) or lies wholly inside the search's aim, wholly beyond it on the same side, or wholly within --borderline of it (its verdict is settled; the edit is judged on the games played). Every other deck of the search plays in the same rounds and is refused as soon as it surely breaks the length or edge guard; each edit alone stops once its card's verdict is settled. Prints the games played, and how many the same decks and edits alone would have played whole. On the default deck it plays about a third fewer games than without it but takes longer on two cores, each round's look refitting the effects while the workers wait: it pays only where games are far slower than expert's (docs/EXPERIMENTS.md)."),
    restricted_play: int | None = typer.Option(None, min=100, metavar="GAMES", help="Also value each edited ally by restricted play (as card-value: seat 0 may not play it) in the original and the proposal, GAMES games per run on the hold-out seed, against one plain ally nearest the average in both decks, and say which move toward zero without crossing it beyond their 95% CI (e.g. 20000)."),
    round_games: int | None = typer.Option(None, min=1, help="With --until-settled: games per round (whole chunks of 25,000, or one smaller chunk); default a tenth of --games (in whole chunks when above 25,000)."),
    borderline: float = BORDERLINE,
) -> None:
    """What should I change? Starts from the report's verdicts (allies stronger or weaker than the average ally, tasks paying out of line with their difficulty), screens one-card edits aimed at each (an ally's symbols, a task's points or required symbols, a morale card's save) on the same games, combines the best, and plays the proposal and the original on fresh games of a hold-out seed. Writes proposal.yaml (only the changed values touched), advice.html (one sentence per edit with its effect, before/after of every flagged quantity with 95% CIs, side effects, forest plot) and advice.csv; prints the diff and the before/after table."""
    start_workers(jobs, "sim.run.runner")
    import shlex
    import sys
    import time

    from analysis.experiments.advise import advise as run_advise
    from analysis.experiments.advise_page import advice_brief, write_advice
    from analysis.experiments.advise_search import parse_targets
    from analysis.experiments.until_settled import default_round
    from analysis.report.terminal import print_page
    from sim.cards import DeckError
    from sim.rundir import RunError
    from sim.run.runner import run_name
    from sim.run.skilled import by_default

    deck = _load(cards)
    try:
        ranges = parse_targets(target)
    except ValueError as exc:
        _fail(str(exc))
    if target_turns is not None:  # an alias of --target turns=LO..HI
        if "turns" in ranges:
            _fail(f"--target-turns {target_turns!r}: give it or --target turns=LO..HI, not both")
        try:
            ranges |= parse_targets([f"turns={target_turns}"])
        except ValueError:
            _fail(f"--target-turns {target_turns!r}: write LO..HI in turns, e.g. 50..60")
    try:
        sizes = [int(k) for k in short_list.split(",") if k.strip()]
    except ValueError:
        _fail(f"--short-list {short_list!r}: write edit counts separated by commas, e.g. 3,6")
    if round_games is not None and not until_settled:
        _fail("--round-games is for --until-settled")
    asked = by_default(bot, players, points_blind=True) if skill_check is None else skill_check
    confirm = confirm_with or (SKILLED_REFERENCE_BOT if asked else None)
    if confirm_games is not None and confirm is None:
        _fail("--confirm-games is for --skill-check (or --confirm-with BOT)")
    bots = _seats(bot)
    target = out or Path("runs") / run_name(cards, deck, games, seed, players=players,
                                            kind="advise-settled" if until_settled else "advise")  # fmt: skip
    began = time.monotonic()
    try:
        advice = run_advise(cards, target, games, players, bots, seed, threshold, locks=lock,
                            only_estimated=only_estimated, target_turns=ranges.get("turns"),
                            holdout_games=holdout_games, n_jobs=jobs, progress=not quiet, only=only,
                            max_edits=max_edits, confirm_with=confirm, confirm_games=confirm_games,
                            own_effects=own_effects,
                            short_list=sizes, abilities=abilities, target_edge=ranges.get("edge"),
                            round_games=(round_games or default_round(games)) if until_settled else None,
                            restricted_play=restricted_play, borderline_pp=borderline)  # fmt: skip
        html, csv = write_advice(advice, target, shlex.join(["revachol", *sys.argv[1:]]))
    except DeckError as exc:
        _fail("; ".join(str(p) for p in exc.problems))
    except (RunError, ValueError) as exc:
        _fail(str(exc))
    print_page(advice_brief(advice, time.monotonic() - began, (html, csv)))


@app.command()
def skill(
    cards: Cards = DEFAULT_CARDS,
    rung: list[str] = typer.Option(list(RUNG_NAMES), help="The ladder's bots, weakest first (repeat); each plays one seat against the one below it in every other seat."),
    players: str = typer.Option("2,3,4", help="Player counts to climb the ladder at, e.g. 2,3,4 (R2.1)."),
    games: int = typer.Option(2_000, "--games", "-n", min=1, help="Games per rung and player count."),
    trace_budget: list[int] = typer.Option([16, 32, 64, 128, 256], help="Skill trace: budgets of the stronger seat (repeat; even), each against half of it. --trace-budget 0 plays no trace."),
    trace_bot: str = typer.Option("search:iterations={budget}", help="Skill trace: the bot, with {budget} where its budget goes."),
    trace_games: int = typer.Option(2_000, min=1, help="Skill trace: games per budget (2 players, as Ludii's skill trace); at 2,000 a gain over 50% of about 2.2 pp is significant (Wilson 95%)."),
    seed: Seed = 0,
    out: Path | None = typer.Option(None, help="Where to write the runs and the report; default runs/skill-..."),
    jobs: Jobs = -1,
    quiet: Quiet = False,
    scheduler: str | None = typer.Option(None, help="Play the matches on an existing Dask cluster, e.g. tcp://HOST:8786 (its workers must see OUT at the same path): a trace point at a large budget costs hours of CPU."),
    dask_local: int | None = typer.Option(None, min=1, help="Start a local Dask cluster with this many workers and play the matches on it."),
    threshold: float = typer.Option(DEFAULT_THRESHOLD_PP, min=0.0, help="Smallest gain over fair, in percentage points, that counts as beating the rung below (and as a budget that pays)."),
) -> None:
    """How much does skill decide? Climbs the bot ladder at each player count: each rung plays one seat against the rung below in every other seat, seats shuffled, and its win rate (Wilson 95% CI, n games) is set against the fair 1/players. Then the skill trace (Ludii): the search bot at budget b against itself at b/2 as b doubles, and the budget where the gain flattens. Runs are kept under OUT and reused or resumed; prints both tables and writes a report with the skill-versus-luck section."""
    from analysis.experiments.ladder import play, plan, skill_brief
    from analysis.report.page import build_report
    from analysis.report.terminal import print_page
    from sim.rundir import RunError
    from sim.run.runner import RunStopped, run_name

    counts = _player_counts(players)
    deck = _load(cards)
    budgets = [b for b in trace_budget if b != 0]
    target = out or Path("runs") / run_name(cards, deck, games, seed, kind="skill")
    try:
        matches = play(cards, plan(target, rung, counts, budgets, trace_bot), games, trace_games, seed, jobs,
                       progress=None if not quiet else False, scheduler=scheduler, dask_local=dask_local)  # fmt: skip
        ladder = [m.run for m in matches if m.kind == "ladder"]
        points = [(m.budget, m.run) for m in matches if m.kind == "trace"]
        report = build_report(ladder or [m.run for m in matches], target / "report", threshold_pp=threshold,
                              skill_trace=points)  # fmt: skip
    except RunStopped as exc:
        _stopped(exc, resume=False)  # skill resumes its runs by itself
    except (RunError, ValueError) as exc:
        _fail(str(exc))
    print_page(skill_brief(report.tables, bool(ladder), threshold, target, report.path))


@app.command("train-expert")
def train_expert(
    players: str = typer.Option("2,3,4", help="The player counts whose weights are trained, e.g. 2 or 2,3,4; the others keep the shipped weights."),
    generations: int = typer.Option(40, min=1, help="CMA-ES generations per player count."),
    games: int = typer.Option(10_000, min=100, help="Games per candidate: one expert seat against planner in every other seat, seats shuffled."),
    seed: Seed = 0,
    cards: Path = typer.Option(DEFAULT_CARDS, help="The card file the weights are trained on."),
    out: Path | None = typer.Option(None, help="The weights file to write (default: the package's own, sim/bots/expert_weights.json)."),
) -> None:
    """Train the expert bot's weights by CMA-ES against planner (docs/BOTS.md). Needs the training extra: pip install 'revachol-balance\\[train]'. Prints one line per generation."""
    import shlex
    import sys

    from sim.bots.expert import shipped_weights
    from analysis.experiments.expert_training import default_path, train_count, write_weights
    from sim.deck_arrays import compile_deck

    deck = compile_deck(_load(cards))
    shipped = shipped_weights()
    blocks = {n: {k[: -len(f"_{n}p")]: v for k, v in shipped.items() if k.endswith(f"_{n}p")} for n in (2, 3, 4)}
    fit = {}
    try:
        for n in _player_counts(players):
            blocks[n], fit[n] = train_count(deck, n, generations, games, seed, report=typer.echo)
    except ImportError:
        _fail("training needs the cma package: pip install 'revachol-balance[train]'")
    path = out or default_path()
    write_weights(path, blocks, dict.fromkeys(fit, shlex.join(["revachol", *sys.argv[1:]])), fit)
    typer.echo(f"weights: {path}")


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

    deck = _load(cards)
    options = RuleOptions(
        double_any_symbol=double_any_symbol, one_special_crown_per_squad=one_special_crown_per_squad,
        extra_play_existing_squad=extra_play_existing_squad,
    )  # fmt: skip
    try:
        typer.echo(trace_replay(deck, players, seed, game, [bot] * players, options))
    except ValueError as exc:
        _fail(str(exc))


if __name__ == "__main__":
    app()
