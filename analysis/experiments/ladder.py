"""The skill ladder and the skill trace (``revachol skill``): the games that say how
much skill decides.

The ladder. The rungs are bot specifications, weakest first (:data:`RUNGS`). For
each player count and each rung, one seat plays the rung and every other seat the
rung below, the bots given to the seats in a random order in each game
(``shuffle_seats``; the first player is random anyway, R2.2). A rung beats the one
below when its win rate's 95% Wilson interval lies above the fair ``1/players``.

The skill trace (Ludii, ``Evaluation/src/metrics/designer/SkillTrace.java``): the
search bot at budget ``b`` in one seat against itself at ``b/2`` in the others, as
``b`` doubles (Ludii plays 8 doublings of UCT's iterations, 10 games each, the strong
agent rotating over the seats; here every seat of a game but one plays ``b/2`` too,
seats shuffled). Where the win rate stops rising above fair, more thinking no
longer pays: the game's skill ceiling for this bot (:func:`analysis.skill.skill_trace`).

Both are data: the rungs are any bot specifications and the trace's bot a template
with ``{budget}`` (:data:`TRACE_BOT`), so a new or renamed budget parameter is a
change of one string. Every game is played by :func:`sim.run.runner.simulate` into its
own run directory under ``out`` (``ladder/<strong>-vs-<weak>-<n>p``,
``trace/budget-<b>-<n>p``: the names differ, as a report of several runs needs); a complete run is reused and an interrupted one resumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis.report import document as doc
from analysis.report.words.experiments import LADDER_TITLE, TRACE_TITLE, flattens_line, ladder_lines
from sim.bots.rungs import RUNG_NAMES
from sim.options import RuleOptions
from sim.rundir.manifest import RunSpec, read_manifest
from sim.rundir.schema import MANIFEST
from sim.run.runner import simulate

RUNGS = RUNG_NAMES  # weakest first: each rung of the compile ladder is named by its bot (sim.bots.rungs)
TRACE_BOT = "search:iterations={budget}"  # the trace's bot; {budget} is replaced by the budget
TRACE_BUDGETS = (16, 32, 64, 128, 256)  # the stronger seat's budgets; each plays against half of it
TRACE_PLAYERS = 2  # Ludii's skill trace is a two-player measure


@dataclass(frozen=True)
class Match:
    """One run of the ladder or the trace: ``strong`` in one seat, ``weak`` in the rest.

    Attributes
    ----------
    kind : str
        ``ladder`` or ``trace``.
    strong, weak : str
        Bot specifications (:mod:`sim.bots.spec`).
    players : int
    run : Path
        The run directory.
    budget : int
        The trace's stronger budget (0 on the ladder).
    """

    kind: str
    strong: str
    weak: str
    players: int
    run: Path
    budget: int = 0


def _safe(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "._+-" else "_" for ch in label)


def trace_bot(template: str, budget: int) -> str:
    """The trace bot's specification at ``budget`` (``template`` with ``{budget}``)."""
    return template.replace("{budget}", str(budget))


def plan(out: str | Path, rungs: Sequence[str] = RUNGS, players: Sequence[int] = (2, 3, 4),
         trace_budgets: Sequence[int] = TRACE_BUDGETS, trace_template: str = TRACE_BOT,
         trace_players: int = TRACE_PLAYERS) -> list[Match]:  # fmt: skip
    """The matches of the ladder (each rung against the one below, at each player
    count) and of the trace (each budget against half of it).

    Raises
    ------
    ValueError
        For fewer than two rungs and no trace, a trace template without ``{budget}``,
        or a trace budget that is not an even number of at least 2 (its half plays).
    """
    out = Path(out)
    if len(rungs) < 2 and not trace_budgets:
        raise ValueError("the ladder needs at least two rungs (bots, weakest first), or a trace budget")
    if trace_budgets and "{budget}" not in trace_template:
        raise ValueError(f"the trace bot {trace_template!r} has no {{budget}} to fill in, e.g. {TRACE_BOT!r}")
    odd = [b for b in trace_budgets if b < 2 or b % 2]
    if odd:
        raise ValueError(f"trace budget {odd[0]}: give even budgets of at least 2 (each plays against half of it)")
    matches = [Match("ladder", strong, weak, n, out / "ladder" / f"{_safe(strong)}-vs-{_safe(weak)}-{n}p")
               for n in players for weak, strong in zip(rungs, rungs[1:])]  # fmt: skip
    matches += [Match("trace", trace_bot(trace_template, b), trace_bot(trace_template, b // 2), trace_players,
                      out / "trace" / f"budget-{b}-{trace_players}p", b) for b in trace_budgets]  # fmt: skip
    return matches


CHUNK = 100
"""Games per chunk of a ladder or trace run. ``search`` at a large budget plays about
a game a second on a core, so a match of 2,000 games in one chunk (the runner's
default is 25,000 games) ran on one worker, with nothing kept when it was stopped;
chunks of 100 games spread a match over every worker and keep what was played."""


def chunk_size(run: Path) -> int:
    """:data:`CHUNK`, or the chunk size of the run already in ``run``, which resuming
    or reusing it must keep (runs of earlier versions have chunks of 25,000 games).

    Raises
    ------
    sim.rundir.RunError
        For a manifest that cannot be read.
    """
    return RunSpec.of(read_manifest(run)).chunk_size if (run / MANIFEST).exists() else CHUNK


def play(cards: str | Path, matches: Sequence[Match], n_games: int, trace_games: int, seed: int = 0,
         n_jobs: int = -1, progress: bool | None = None, scheduler: str | None = None,
         dask_local: int | None = None) -> list[Match]:  # fmt: skip
    """Play every match (``n_games`` per ladder rung, ``trace_games`` per trace
    point) with seats shuffled, in chunks of :data:`CHUNK` games (:func:`chunk_size`);
    complete runs are reused, interrupted ones resumed. The chunks go to ``n_jobs``
    local workers, or to a Dask cluster (``scheduler``, an address such as
    ``tcp://HOST:8786``, or a local one of ``dask_local`` workers), as
    :func:`sim.run.runner.simulate`: a trace point at a large budget costs hours of CPU
    (docs/BOTS.md), and the games are the same wherever they are played.

    Returns
    -------
    list of Match
        ``matches``, played.

    Raises
    ------
    sim.rundir.RunError, ValueError
        As :func:`sim.run.runner.simulate` (an unknown bot is named before any game).
    """
    for match in matches:
        games = n_games if match.kind == "ladder" else trace_games
        simulate(cards, games, match.run, match.players, [match.strong] + [match.weak] * (match.players - 1), seed,
                 n_jobs, RuleOptions(shuffle_seats=True), chunk_size(match.run),
                 resume=(match.run / MANIFEST).exists(), progress=progress, scheduler=scheduler,
                 dask_local=dask_local)  # fmt: skip
    return list(matches)


def skill_brief(tables: dict, ladder: bool, threshold_pp: float, target: Path, report: Path) -> doc.Page:
    """What ``revachol skill`` prints (:func:`analysis.report.terminal.print_page`), data
    only, from the report's ``tables``: the ladder's table (when ``ladder`` matches
    were played), the skill trace's and the budget where its gain flattens (below
    ``threshold_pp``), and where the runs and the ``report`` are."""
    table, trace = tables.get("skill_summary"), tables.get("skill_trace")  # None: nothing to compare
    blocks: list[doc.Block] = []
    if ladder and table is not None:
        blocks += [doc.plain(LADDER_TITLE),
                   doc.Table(table[["players", "strong", "weak", "games", "win_rate", "win_rate_low", "win_rate_high",
                                    "fair_rate", "win_rate_ratio", "win_rate_ratio_low", "win_rate_ratio_high",
                                    "beats"]])]  # fmt: skip
    if trace is not None:
        flat = int(trace["flattens_at"].iloc[0])
        blocks += [doc.plain(TRACE_TITLE),
                   doc.Table(trace[["budget", "strong", "weak", "games", "win_rate", "win_rate_low", "win_rate_high",
                                    "fair_rate", "gain_pp", "gain_low_pp", "gain_high_pp", "pays"]]),
                   doc.plain(flattens_line(flat, threshold_pp))]  # fmt: skip
    blocks += [doc.plain(line) for line in ladder_lines(target, report)]
    return doc.Page("skill", tuple(blocks))
