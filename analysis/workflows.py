"""The library API of every command (issue 67 item 3): one function per command of
``revachol`` that a notebook calls, and that ``cli.py`` only wraps with its options.

Each plays what its command plays, with the command's defaults (the output folder
named by :func:`sim.run.runner.run_name`, the skill check on when it costs no more
than the games it checks, :func:`sim.run.skilled.by_default`), and returns its
:class:`~analysis.report.result.Result`, written: :func:`deliver` is the one place that
hands a command's result to the writer (:func:`analysis.report.writer.write_files`).
The report's commands (:func:`run`, the main job; :func:`report`, :func:`skill_check`,
:func:`skill`) write the report as they build it, through the same writer
(:func:`analysis.report.page.build_report`): their result's ``files`` are empty.

Every function raises what the experiment it calls raises: ``sim.cards.DeckError`` for a
card file that does not validate, ``sim.rundir.RunError`` (``sim.run.runner.RunStopped``
when a run is stopped; the same call continues it) and ``ValueError`` for an argument
out of range, each with one line to show; ``OSError`` when a file cannot be written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analysis.defaults import (ADVISE_GAMES, COMPARE_GAMES, COMPARE_ROUND, EXPERIMENT_GAMES, MAIN_JOB_GAMES,
                               TRAIN_GAMES, TRAIN_GENERATIONS, TUNE_EVALUATIONS)  # fmt: skip
from analysis.report.result import Result
from analysis.report.writer import Files, write_files
from analysis.thresholds import DEFAULT_BORDERLINE_PP, DEFAULT_THRESHOLD_PP
from sim.bots.speed import MAIN_JOB_BOT, SKILLED_REFERENCE_BOT
from sim.cards import load_deck

if TYPE_CHECKING:
    from analysis.experiments.advise import Advice

__all__ = ["advice_result", "advise", "card_value", "compare", "deliver", "plan", "report", "run", "skill",
           "skill_check", "sweep", "train_expert", "tune"]

RUNS = Path("runs")
"""The folder of every command's default output folder."""


def deliver(result: Result) -> Result:
    """Write ``result``'s files under its ``out`` (:func:`analysis.report.writer.write_files`)
    and return it. Raises OSError when a file cannot be written."""
    write_files(result.files, result.out)
    return result


def run(cards: str | Path, games: int = MAIN_JOB_GAMES, players: Sequence[int] = (4,),
        bots: str | Sequence[str] = MAIN_JOB_BOT, seed: int = 0, **options: Any) -> Result:  # fmt: skip
    """``revachol run``, the main job: :func:`analysis.experiments.main_job.main_job`
    (``options`` are its own: ``runs``, ``name``, ``n_jobs``, ``points_blind``,
    ``skill_check``, ``max_games`` …) with what it prints (what it played and where,
    the findings and the report's path). The value is the
    :class:`~analysis.experiments.main_job.MainJob`."""
    from analysis.experiments.main_job import main_job
    from analysis.report.brief import run_brief
    from analysis.report.words.experiments import main_job_lines

    job = main_job(cards, games, players, bots, seed, **options)
    return Result(job, run_brief(main_job_lines(job), job.report), Files(), job.report.path.parent)


def report(run_dir: str | Path, out: str | Path | None = None, sections: Sequence[str] = (), findings: bool = True,
           target_turns: str | None = None, **options: Any) -> Result:  # fmt: skip
    """``revachol report``: :func:`analysis.report.page.build_report` of the run
    (``options`` are its own: ``include_unfinished``, ``threshold_pp``, ``bot``,
    ``workers`` …; ``target_turns`` written ``LO..HI``), with what it prints: the
    findings (unless ``findings`` is false), the sections named in ``sections`` (by
    title, any case; ``all`` for every one) and the page's path.

    Raises
    ------
    ValueError
        Also for ``target_turns`` not written ``LO..HI`` and a section that is not the report's.
    """
    from analysis.experiments.tune import Target
    from analysis.report.brief import report_brief
    from analysis.report.page import build_report

    try:
        aim = Target.parse(f"turns={target_turns}") if target_turns is not None else None
    except ValueError:
        raise ValueError(f"--target-turns {target_turns!r}: write LO..HI in turns, e.g. 50..60") from None
    built = build_report(run_dir, out, target_turns=(aim.low, aim.high) if aim else None, **options)
    titles = [section.title for section in built.sections]
    unknown = [name for name in sections if name.lower() not in {*(t.lower() for t in titles), "all"}]
    if unknown:
        raise ValueError(f"--section {unknown[0]!r}: no such section; valid: {', '.join(titles)}, all")
    return Result(built, report_brief(built, sections, findings), Files(), built.path.parent)


def skill_check(run_dir: str | Path, games: int | None = None, minutes: float | None = None,
                bot: str = SKILLED_REFERENCE_BOT, jobs: int = -1, progress: bool | None = None, table: bool = True,
                **options: Any) -> Result:  # fmt: skip
    """``revachol skill-check``: :func:`analysis.experiments.check_skill.check_skill`
    of the run (``options``: ``scheduler``, ``dask_local``, ``until_settled``), with
    what it prints: every measure (unless ``table`` is false), each run's sentence,
    where a check played until settled stopped, and the report's path.

    Raises
    ------
    ValueError
        Also for both ``games`` and ``minutes``.
    """
    from analysis.experiments.check_skill import check_skill
    from analysis.report.brief import skill_check_brief

    if games is not None and minutes is not None:
        raise ValueError("give --games or --minutes, not both")
    done = check_skill(run_dir, games, minutes, bot, jobs, progress, **options)
    return Result(done, skill_check_brief(done, table), Files(), done.report.path.parent)


def plan(run_dir: str | Path, effect: str | None = None, effect_points: str | None = None,
         effect_turns: str | None = None, **options: Any) -> Result:  # fmt: skip
    """``revachol plan``: :func:`analysis.plan.plan_games` of the run for the effects
    written as text (``1pp``, ``1.5points``, ``3turns``; :func:`analysis.plan.parse_effect`),
    ``options`` its own, with its table and sentences. Writes nothing."""
    from analysis.plan import parse_effect, plan_games
    from analysis.report.brief import plan_brief

    effects = [parse_effect(text, unit) if text is not None else None
               for text, unit in ((effect, "pp"), (effect_points, "points"), (effect_turns, "turns"))]  # fmt: skip
    found = plan_games(run_dir, *effects, **options)
    return Result(found, plan_brief(found.table, found.source), Files(), Path(run_dir))


def compare(cards_a: str | Path, cards_b: str | Path, games: int = COMPARE_GAMES, players: int = 4,
            bots: str | Sequence[str] = MAIN_JOB_BOT, seed: int = 0, out: str | Path | None = None, jobs: int = -1,
            progress: bool | None = None, skill_check: bool | None = None, max_games: int | None = None,
            round_games: int = COMPARE_ROUND, borderline_pp: float = DEFAULT_BORDERLINE_PP) -> Result:  # fmt: skip
    """``revachol compare``: the same games under both card files, paired
    (:func:`analysis.experiments.compare.run_comparison`; with ``max_games``, until
    every change is settled), into ``out`` (default ``runs/compare-…``). The skill
    check plays both decks' first games with the reference of skilled play when asked,
    or by default when that costs no more than the comparison."""
    from analysis.experiments.check_skill import games_per_deck
    from analysis.experiments.compare import run_comparison
    from sim.run.runner import run_name
    from sim.run.skilled import SKILLED_BOT, by_default

    deck_a, deck_b = load_deck(cards_a), load_deck(cards_b)
    target = out or RUNS / run_name(cards_a, deck_a, None if max_games else games, seed, players=players,
                                    kind="compare-settled" if max_games else "compare", versus=(cards_b, deck_b))  # fmt: skip
    skilled = by_default(bots, players, points_blind=False) if skill_check is None else skill_check
    return deliver(run_comparison(cards_a, cards_b, games, target, players, bots, seed, jobs, progress=progress,
                                  skill_check=SKILLED_BOT if skilled else None, max_games=max_games,
                                  round_games=round_games, skill_games=games_per_deck(players),
                                  borderline_pp=borderline_pp))  # fmt: skip


def advise(cards: str | Path, games: int = ADVISE_GAMES, players: int = 4, bots: str | Sequence[str] = MAIN_JOB_BOT,
           seed: int = 0, threshold_pp: float = DEFAULT_THRESHOLD_PP, out: str | Path | None = None, jobs: int = -1,
           skill_check: bool | None = None, confirm_with: str | None = None, confirm_games: int | None = None,
           round_games: int | None = None, until_settled: bool = False, command: str = "", **options: Any) -> Result:  # fmt: skip
    """``revachol advise``: :func:`analysis.experiments.advise.advise` into ``out``
    (default ``runs/advise-…``), with its page, CSV files and proposals
    (:func:`analysis.experiments.advise_page.advice_files`) and its brief. ``options``
    are advise's own (``locks``, ``target_turns``, ``target_edge``, ``short_list`` …).
    The skill check plays with ``confirm_with``, else with the reference of skilled
    play when asked or when it costs no more than the hold-out; ``until_settled``
    plays the screen in rounds of ``round_games`` (default a tenth of ``games``).

    Raises
    ------
    ValueError
        Also for ``confirm_games`` without a skill check.
    """
    from analysis.experiments.advise import advise as play
    from analysis.experiments.until_settled import default_round
    from sim.run.runner import run_name
    from sim.run.skilled import by_default

    began = time.monotonic()
    deck = load_deck(cards)
    asked = by_default(bots, players, points_blind=True) if skill_check is None else skill_check
    confirm = confirm_with or (SKILLED_REFERENCE_BOT if asked else None)
    if confirm_games is not None and confirm is None:
        raise ValueError("--confirm-games is for --skill-check (or --confirm-with BOT)")
    target = Path(out or RUNS / run_name(cards, deck, games, seed, players=players,
                                         kind="advise-settled" if until_settled else "advise"))  # fmt: skip
    rounds = (round_games or default_round(games)) if until_settled else None
    advice = play(cards, target, games, players, bots, seed, threshold_pp, n_jobs=jobs, confirm_with=confirm,
                  confirm_games=confirm_games, round_games=rounds, **options)  # fmt: skip
    return advice_result(advice, command, time.monotonic() - began)


def advice_result(advice: Advice, command: str = "", seconds: float = 0.0) -> Result:
    """``advice`` (:func:`analysis.experiments.advise.advise`'s, a notebook's call or
    :func:`advise`'s) with its brief and its files
    (:func:`analysis.experiments.advise_page.advice_files`), written to its folder (the
    proposal's); ``command`` is shown on the page, ``seconds`` in the brief."""
    from analysis.experiments.advise_page import ADVICE_CSV, ADVICE_PAGE, advice_brief, advice_files

    out = advice.proposal.parent
    brief = advice_brief(advice, seconds, (out / ADVICE_PAGE, out / ADVICE_CSV))
    return deliver(Result(advice, brief, advice_files(advice, command), out))


def sweep(cards: str | Path, card: str, field: str, values: Sequence[Any], games: int = EXPERIMENT_GAMES,
          metrics: Sequence[str] | None = None, players: int = 4, bots: str | Sequence[str] = MAIN_JOB_BOT,
          seed: int = 0, out: str | Path | None = None, jobs: int = -1) -> Result:  # fmt: skip
    """``revachol sweep``: :func:`analysis.experiments.sweep.sweep` of ``card``.``field``
    over ``values`` into ``out`` (default ``runs/sweep-CARD-FIELD-…``); the value is the
    pair (table, differences), the files ``sweep.csv``, ``sweep_differences.csv`` and
    ``sweep.png``."""
    from analysis.experiments.sweep import SWEEP_FILES, sweep_brief, sweep_files
    from analysis.experiments.sweep import sweep as play
    from sim.run.runner import run_name

    target = Path(out or RUNS / run_name(None, load_deck(cards), games, seed, players=players,
                                         kind=f"sweep-{card}-{field}"))  # fmt: skip
    table, differences = play(cards, card, field, values, games, target, metrics, players, bots, seed, jobs)
    brief = sweep_brief(table, differences, card, field, [target / name for name in SWEEP_FILES])
    return deliver(Result((table, differences), brief, sweep_files(table, differences, card, field), target))


def card_value(cards: str | Path, allies: Sequence[str] = (), against: str | None = None,
               reference_deck: str | Path | None = None, games: int = EXPERIMENT_GAMES, players: int = 4,
               bots: Sequence[str] = (MAIN_JOB_BOT,), seed: int = 0, out: str | Path | None = None,
               jobs: int = -1) -> Result:  # fmt: skip
    """``revachol card-value``: :func:`analysis.experiments.card_value.card_values` into
    ``out`` (default ``runs/card-value-…``); ``bots`` is seat 0's bot, then optionally
    every other seat's. The value is the table, the file ``card_value.csv``.

    Raises
    ------
    ValueError
        Also for more than two bots.
    """
    from analysis.experiments.card_value import CARD_VALUE_FILE, card_value_brief, card_value_files, card_values
    from sim.run.runner import run_name

    deck = load_deck(cards)
    if reference_deck is not None:
        load_deck(reference_deck)
    if len(bots) > 2:
        raise ValueError(f"--bot given {len(bots)} times: give seat 0's bot, and optionally the bot of every other "
                         "seat")  # fmt: skip
    target = Path(out or RUNS / run_name(cards, deck, games, seed, players=players, bots="-vs-".join(bots),
                                         kind="card-value"))  # fmt: skip
    table = card_values(cards, games, target, list(allies) or None, bots[0], players, seed, jobs, against=against,
                        opponents=bots[-1], reference_deck=reference_deck)  # fmt: skip
    brief = card_value_brief(table, bots, str(cards), against is not None, reference_deck and str(reference_deck),
                             target / CARD_VALUE_FILE)  # fmt: skip
    return deliver(Result(table, brief, card_value_files(table), target))


def tune(cards: str | Path, fields: Sequence[str], targets: Sequence[str], games: int = EXPERIMENT_GAMES,
         evaluations: int = TUNE_EVALUATIONS,
         players: int = 4, bots: str | Sequence[str] = MAIN_JOB_BOT, seed: int = 0, out: str | Path | None = None,
         jobs: int = -1) -> Result:  # fmt: skip
    """``revachol tune``: :func:`analysis.experiments.tune.tune` of ``fields``
    (``CARD.FIELD=LO..HI``) towards ``targets`` (``turns=LO..HI`` …) into ``out``
    (default ``runs/tune-…``)."""
    from analysis.experiments.tune import FieldRange, Target
    from analysis.experiments.tune import tune as play
    from sim.run.runner import run_name

    target = out or RUNS / run_name(cards, load_deck(cards), games, seed, players=players, kind="tune")
    ranges, aims = [FieldRange.parse(f) for f in fields], [Target.parse(t) for t in targets]
    return deliver(play(cards, ranges, aims, games, target, players, bots, seed, evaluations, jobs))


def train_expert(cards: str | Path, players: Sequence[int] = (2, 3, 4), generations: int = TRAIN_GENERATIONS,
                 games: int = TRAIN_GAMES,
                 seed: int = 0, out: str | Path | None = None, command: str = "",
                 report: Callable[[str], None] = print) -> Result:  # fmt: skip
    """``revachol train-expert``: the expert bot's weights trained by CMA-ES against
    planner for each of ``players`` (:func:`analysis.experiments.expert_training.train_count`;
    the other counts keep the shipped weights), written to ``out`` (default the
    package's own weights file) with ``command`` as the command that made them;
    ``report`` gets one line per generation.

    Raises
    ------
    ImportError
        Without the training extra (the cma package).
    """
    from analysis.experiments.expert_training import default_path, train_count, weights_files
    from analysis.report import document as doc
    from sim.bots.expert import shipped_weights
    from sim.deck_arrays import compile_deck

    deck = compile_deck(load_deck(cards))
    shipped = shipped_weights()
    blocks = {n: {k[: -len(f"_{n}p")]: v for k, v in shipped.items() if k.endswith(f"_{n}p")} for n in (2, 3, 4)}
    fit = {}
    for n in players:
        blocks[n], fit[n] = train_count(deck, n, generations, games, seed, report=report)
    path = Path(out or default_path())
    files = weights_files(path, blocks, dict.fromkeys(fit, command), fit)
    return deliver(Result(path, doc.Page("train-expert", (doc.plain(f"weights: {path}"),)), files, path.parent))


def skill(cards: str | Path, rungs: Sequence[str], players: Sequence[int], games: int, budgets: Sequence[int],
          trace_bot: str, trace_games: int, seed: int = 0, out: str | Path | None = None, jobs: int = -1,
          progress: bool | None = None, scheduler: str | None = None, dask_local: int | None = None,
          threshold_pp: float = DEFAULT_THRESHOLD_PP) -> Result:  # fmt: skip
    """``revachol skill``: the ladder at each of ``players`` and the skill trace over
    ``budgets`` (:mod:`analysis.experiments.ladder`), their runs and report under
    ``out`` (default ``runs/skill-…``). The report is written by
    :func:`analysis.report.page.build_report`; the result's value is it, and its brief
    the ladder's and the trace's tables."""
    from analysis.experiments.ladder import plan, play, skill_brief
    from analysis.report.page import build_report
    from sim.run.runner import run_name

    target = Path(out or RUNS / run_name(cards, load_deck(cards), games, seed, kind="skill"))
    matches = play(cards, plan(target, rungs, players, budgets, trace_bot), games, trace_games, seed, jobs,
                   progress=progress, scheduler=scheduler, dask_local=dask_local)  # fmt: skip
    ladder = [m.run for m in matches if m.kind == "ladder"]
    points = [(m.budget, m.run) for m in matches if m.kind == "trace"]
    report = build_report(ladder or [m.run for m in matches], target / "report", threshold_pp=threshold_pp,
                          skill_trace=points)  # fmt: skip
    return Result(report, skill_brief(report.tables, bool(ladder), threshold_pp, target, report.path), Files(), target)

