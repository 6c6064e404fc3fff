"""What every command of the ``revachol`` command line (``cli.py``) shares: the options
declared once (typer's ``Annotated`` aliases and shared defaults), the command group
that turns an operating-system error or a signal into one line, and the helpers that
turn the library's errors into one line and print a command's result. Nothing here
plays a game or composes a result's sentence: the library does (:mod:`analysis.workflows`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from typer.core import TyperGroup

from analysis.thresholds import DEFAULT_BORDERLINE_PP
from sim.bots.speed import MAIN_JOB_BOT
from sim.os_errors import explain

T = TypeVar("T")
TRACEBACKS = {"shown": False}
"""``revachol --debug``, for :func:`fail` and the command group: set by ``cli.main``
before any command runs (a run's error may reach :func:`fail` outside click's context)."""


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
            if TRACEBACKS["shown"]:
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



DEFAULT_CARDS = Path("cards.yaml")
# The built-in bots (sim.bots.policy), weakest to strongest; kept literal so that --help imports no engine.
BOTS = ("Built-in bots: random, uniform (every rule path), greedy (the default), planner, expert (tuned "
        "against planner, as fast), search (strongest, slowest; search:iterations=N); or FILE.py:NAME for your own.")  # fmt: skip
# Rule options (docs/RULES.md readings, sim/options.py), shared by the commands that play games.
DOUBLE_ANY_SYMBOL = typer.Option(False, help="Rule option opt_double_any_symbol (A2 may double any symbol in its squad).")
ONE_SPECIAL_CROWN = typer.Option(False, "--one-special-crown-per-squad", help="Rule option opt_one_special_crown_per_squad (A8: one extra crown per squad, not one per A8 card).")
EXTRA_PLAY_EXISTING = typer.Option(False, "--extra-play-existing-squad", help="Rule option opt_extra_play_existing_squad (A4: the extra card goes into an existing squad only).")
def cores() -> int:
    """The cores this process may use (its CPU affinity), at least 1."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else max(1, os.cpu_count() or 1)


def capped_jobs(value: int | None) -> int | None:
    """``--jobs`` as the workers to start: more than this machine's cores is capped to
    them, with one line saying so; ``-1`` (every core) and ``None`` as given."""
    count = cores()
    if value is not None and value > count:
        typer.echo(f"--jobs {value} is more than this machine's {count} cores: {count} workers", err=True)
        return count
    return value


# The options every command shares, declared once (typer's Annotated aliases); each command gives the default.
Cards = Annotated[Path, typer.Option(help="The card file.")]
Players = Annotated[int, typer.Option(min=2, max=4, help="Number of players, 2 to 4 (R2.1).")]
Bots = Annotated[list[str], typer.Option("--bot", help=f"Bot for every seat, or repeat once per seat: NAME[:key=value,...], e.g. greedy:w_points=2 or greedy:never=harry_du_bois. {BOTS}")]
Seed = Annotated[int, typer.Option(help="Root seed: the same seed and inputs give the same games; every deck, value or candidate a command sets side by side plays the same games (common random numbers).")]
Jobs = Annotated[int, typer.Option(callback=capped_jobs, help="Worker processes; -1 uses every core; more than the machine's cores are capped to them.")]
Quiet = Annotated[bool, typer.Option(help="No progress: no bar on a terminal, no lines in a log.")]
Out = Annotated[Path | None, typer.Option(help="Where to write; default a folder under runs/ named by the command and its inputs.")]
Threshold = Annotated[float, typer.Option(min=0.0, help="Smallest effect on win rate, in percentage points, that earns an ally a verdict (stronger or weaker) and the first player's edge a finding, as in the report.")]
Scheduler = Annotated[str | None, typer.Option(help="Play or read on an existing Dask cluster, e.g. tcp://HOST:8786; its workers must see the run directories at the same paths.")]
DaskLocal = Annotated[int | None, typer.Option(min=1, help="Start a local Dask cluster with this many workers and play or read on it.")]
IncludeUnfinished = Annotated[bool, typer.Option(help="Count stalled and truncated games in win rates (R4 Reading: a game stops as truncated at the turn cap).")]
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




def fail(message: str, code: int = 1) -> None:
    """Print one clear error and exit non-zero; with ``revachol --debug``, the whole
    story of the exception being handled first (a bot's compile error: numba's
    whole message)."""
    import traceback

    if TRACEBACKS["shown"] and sys.exc_info()[1] is not None:
        traceback.print_exception(sys.exc_info()[1])
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=code)


def stopped(exc, resume: bool) -> None:
    """The one line of a run stopped by a signal or its watchdog (``sim.run.runner.RunStopped``):
    what was kept, and the exact command that continues it (this one, with ``--resume``
    when ``resume``). Exits 128 + the signal's number after a signal (130 for SIGINT),
    as a shell does, else 1."""
    import signal

    command = ["revachol", *sys.argv[1:]]
    if resume and "--resume" not in command:
        command.append("--resume")
    fail(f"{exc.kept}; continue with: {command_line(command)}", code=128 + signal.Signals[exc.signal] if exc.signal else 1)


def seats(bot: list[str]) -> str | list[str]:
    """``--bot`` as the library takes it: one bot for every seat, or one per seat."""
    return bot[0] if len(bot) == 1 else bot


def load(path: Path):
    """The validated deck of the card file ``path``; a file that does not validate
    exits 1 after a line naming it and one line per problem."""
    from sim.cards import DeckError, load_deck

    try:
        return load_deck(path)
    except DeckError as exc:
        typer.echo(f"{path}: {len(exc.problems)} problem(s):", err=True)
        for problem in exc.problems:
            typer.echo(f"  {problem}", err=True)
        raise typer.Exit(code=1) from None


def player_counts(text: str) -> list[int]:
    """``"2,3,4"`` as ``[2, 3, 4]``; one clear error for anything but distinct counts 2-4 (R2.1)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or len(set(counts)) != len(counts) or not all(2 <= n <= 4 for n in counts):
        fail(f"--players {text!r}: give a player count from 2 to 4, or several separated by commas, e.g. 2,3,4 (R2.1)")
    return counts




def command_line(words: list[str] | None = None) -> str:
    """The command as typed (``revachol`` and its arguments, quoted for a shell)."""
    import shlex

    return shlex.join(words or ["revachol", *sys.argv[1:]])


@contextmanager
def errors(resume: bool = False, checks: bool = False) -> Iterator[None]:
    """The library's errors as one line and exit code 1 (:func:`fail`): a card file
    that does not validate, a run that cannot be used or is locked, a value out of
    range; a run stopped by a signal or its watchdog as what was kept and the command
    that continues it (:func:`stopped`, with ``--resume`` when ``resume``); with
    ``checks`` (a run with ``--debug``), a failed debug assertion too."""
    from sim.cards import DeckError
    from sim.rundir import RunError
    from sim.rundir.lock import LockedError

    try:
        yield
    except DeckError as exc:
        fail("; ".join(str(problem) for problem in exc.problems))
    except (RunError, LockedError, ValueError) as exc:
        runner = sys.modules.get("sim.run.runner")  # a run was stopped only where one ran
        if runner is not None and isinstance(exc, runner.RunStopped):
            stopped(exc, resume)
        fail(str(exc).replace("\n", "; "))
    except AssertionError as exc:
        if not checks:
            raise
        fail(str(exc))


def parsed(make: Callable[[], T], message: str) -> T:
    """``make()``, or exit 1 with ``message`` when it raises ValueError (an option's
    text that does not parse)."""
    try:
        return make()
    except ValueError:
        fail(message)


def settled(until_settled: bool, max_games: int | None, fixed: str, needs: str = "--max-games N",
            possible: bool = True) -> None:  # fmt: skip
    """Exit 1 unless ``--until-settled`` comes with ``--max-games`` (and is
    ``possible``) and ``--max-games`` only with it; ``fixed`` names the command's
    fixed kind (``"runs; a fixed run"``), ``needs`` what until settled needs."""
    if until_settled and (max_games is None or not possible):
        fail(f"--until-settled needs {needs}")
    if max_games is not None and not until_settled:
        fail(f"--max-games is for --until-settled {fixed} takes --games")


def show(result) -> None:
    """Print a command's :class:`analysis.report.result.Result`: its brief."""
    from analysis.report.terminal import print_page

    print_page(result.brief)
