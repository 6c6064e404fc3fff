"""The experiments' commands: ``compare``, ``advise``, ``sweep``, ``card-value``,
``tune``, ``skill`` and ``train-expert``. Each declares its options, calls its function
of :mod:`analysis.workflows` and prints the result's brief; ``cli.py`` registers them
on the ``revachol`` app beside the run's and the report's commands."""

from __future__ import annotations

from pathlib import Path

import typer

from analysis.defaults import (ADVISE_GAMES, ADVISE_HOLDOUT_GAMES, COMPARE_GAMES, COMPARE_ROUND, EXPERIMENT_GAMES,
                               TRAIN_GAMES, TRAIN_GENERATIONS, TUNE_EVALUATIONS)  # fmt: skip
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from commands.common import (BORDERLINE, DEFAULT_BOTS, DEFAULT_CARDS, Bots, Cards, DaskLocal, Jobs, Out, Players, Quiet,
                             Scheduler, Seed, Threshold, command_line, errors, fail, load, parsed, player_counts, seats,
                             settled, show)  # fmt: skip
from sim.bots.rungs import RUNG_NAMES
from sim.run.workers import start_workers


def compare(
    a: Path = typer.Argument(..., metavar="A", help="The reference card file (A)."),
    b: Path = typer.Argument(..., metavar="B", help="The changed card file (B); a card is paired with A's card of the same id."),
    games: int = typer.Option(COMPARE_GAMES, "--games", "-n", min=2, help="Games played under each card file."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    out: Out = None,
    jobs: Jobs = -1,
    quiet: Quiet = False,
    skill_check: bool | None = typer.Option(None, "--skill-check/--no-skill-check", help="Also play both decks' first games with search, the reference of skilled play, in every seat (as many as 3 minutes of this machine's cores play, shared by the two decks) and say which changes depend on skill. Default: on only when it costs no more than the comparison, which search never does beside greedy or planner."),
    until_settled: bool = typer.Option(False, "--until-settled", help="Play both decks in rounds of --round-games games on the same seeds and stop when every change B − A is settled: its anytime-valid 95% confidence sequence lies wholly beyond or wholly within its practical threshold (2 pp for a rate, 5 turns, 0.5 morale-loss events); or at --max-games. Needs --max-games; replaces --games. The same command with --max-games raised continues the comparison."),
    max_games: int | None = typer.Option(None, min=1, help="With --until-settled: the most games per deck."),
    round_games: int = typer.Option(COMPARE_ROUND, min=1, help="With --until-settled: games per round and deck (whole chunks of 25,000, or one smaller chunk); the changes are checked after each."),
    borderline: float = BORDERLINE,
) -> None:
    """What did my change do? Plays the same games (same seeds, same bots) under card files A and B and reports the paired differences B − A in game length, morale loss, task completion, seat win rates and each card's strength, each with a 95% CI and a flag when significant after Benjamini–Hochberg correction (one family per quantity). Prints the largest significant changes (pp, 95% CIs) and the path of compare.html."""
    from analysis.workflows import compare as play

    settled(until_settled, max_games, "comparisons; a fixed one")
    load(a)
    load(b)
    with errors():
        show(play(a, b, games, players, seats(bot), seed, out, jobs, None if not quiet else False, skill_check,
                  max_games, round_games, borderline))  # fmt: skip


def card_value(
    cards: Cards = DEFAULT_CARDS,
    ally: list[str] = typer.Option([], help="Ally id to value (repeat for several); default: every ally."),
    against: str | None = typer.Option(None, help="Id of the reference ally the value is measured against; default: the plain ally (no ability) nearest the average ally on --cards (and --reference-deck)."),
    reference_deck: Path | None = typer.Option(None, help="Another card file whose baseline joins --cards' in choosing the default reference: the plain ally nearest the average in both. Value a card file with its proposal here, and the proposal with the card file, so that both are valued against one ally."),
    games: int = typer.Option(EXPERIMENT_GAMES, "--games", "-n", min=2, help="Games per ally (and for the baseline and the reference)."),
    players: Players = 4,
    bot: list[str] = typer.Option(DEFAULT_BOTS, help="The bot of seat 0, the one restricted; give it twice, e.g. --bot search --bot planner, for a different bot in every other seat (card strength for a skilled player among weaker ones)."),
    seed: Seed = 0,
    out: Path | None = typer.Option(None, help="Where to write the runs and card_value.csv; default runs/card-value-..."),
    jobs: Jobs = -1,
) -> None:
    """Causal card value by restricted play (Jaffe et al. 2012): for each ally, seat 0's bot may not play it, on the same deals as a run where it may not play a plain reference ally; the value is seat 0's win rate without the reference minus without the ally (positive: worth more than a plain ally), in pp with paired 95% CIs, exact McNemar tests and Benjamini–Hochberg flags, beside the value against no restriction, the value per game in which seat 0 held the ally, and the report's correlational IWD. Writes card_value.csv and prints the table."""
    from analysis.workflows import card_value as play

    load(cards)
    if reference_deck is not None:
        load(reference_deck)
    with errors():
        show(play(cards, ally, against, reference_deck, games, players, bot, seed, out, jobs))


def sweep(
    card: str = typer.Option(..., help="Id of the card to vary (see cards.yaml)."),
    field: str = typer.Option(..., help="Its field to vary, e.g. points, requires, symbols, save."),
    value: list[str] = typer.Option(..., help="A value, written as in cards.yaml (repeat): --value 1 --value 2, --value '[red, blue]'."),
    metric: list[str] = typer.Option([], help="Metric to plot (repeat); default: the card kind's, plus turns. See analysis/experiments/sweep.py."),
    cards: Cards = DEFAULT_CARDS,
    games: int = typer.Option(EXPERIMENT_GAMES, "--games", "-n", min=2, help="Games per value."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    out: Out = None,
    jobs: Jobs = -1,
) -> None:
    """Vary one field of one card over a list of values, play the same games for each, and show how the chosen metrics respond: each point with its n and 95% CI, and the paired difference between neighbouring values with its 95% CI (common random numbers). Writes sweep.csv, sweep_differences.csv and sweep.png."""
    import yaml

    from analysis.workflows import sweep as play

    load(cards)
    try:
        values = [yaml.safe_load(v) for v in value]
    except yaml.YAMLError as exc:
        fail(f"--value: not a value as written in cards.yaml ({str(exc).splitlines()[0]}); e.g. 3 or '[red, blue]'")
    with errors():
        show(play(cards, card, field, values, games, metric or None, players, seats(bot), seed, out, jobs))


def tune(
    field: list[str] = typer.Option(..., help="An integer field to search, CARD.FIELD=LO..HI (repeat), e.g. find_your_badge.points=1..6."),
    target: list[str] = typer.Option(..., help="A target (repeat): turns=LO..HI, advantage_p1=X, completion:TASK=LO..HI."),
    cards: Cards = DEFAULT_CARDS,
    games: int = typer.Option(EXPERIMENT_GAMES, "--games", "-n", min=2, help="Games per candidate deck."),
    evaluations: int = typer.Option(TUNE_EVALUATIONS, min=1, help="Roughly how many candidate decks to play."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: Seed = 0,
    out: Out = None,
    jobs: Jobs = -1,
) -> None:
    """Search card fields towards your targets (SciPy's differential evolution over integer fields; each candidate plays the same games on the search seed). Prints the proposal as a diff of the card file and writes proposal.yaml; then plays the original and the proposal again on a fresh hold-out seed and reports that comparison (compare.html, and the targets' values reached), since the in-sample figures of the winner flatter it."""
    from analysis.workflows import tune as play

    load(cards)
    with errors():
        show(play(cards, field, target, games, evaluations, players, seats(bot), seed, out, jobs))


def advise(
    cards: Path = typer.Option(DEFAULT_CARDS, help="The card file; the proposal edits a copy of its text, comments kept."),
    games: int = typer.Option(ADVISE_GAMES, "--games", "-n", min=100, help="Games per candidate deck on the search seed (and as many with every task paying alike); fewer make the search chase noise (docs/EXPERIMENTS.md)."),
    players: Players = 4,
    bot: Bots = DEFAULT_BOTS,
    seed: int = typer.Option(0, help="The search seed: every candidate plays the same games (common random numbers); the result is measured on a hold-out seed the search never uses."),
    threshold: Threshold = DEFAULT_THRESHOLD_PP,
    out: Out = None,
    jobs: Jobs = -1,
    lock: list[str] = typer.Option([], help="A field never to edit, CARD.FIELD (repeat), e.g. evrart_claire.symbols; a card's own locked: list counts too."),
    only_estimated: bool = typer.Option(False, help="Edit only the fields a card lists under estimated: (never a printed value)."),
    target_turns: str | None = typer.Option(None, help="Mean turns per game to keep within, LO..HI (e.g. 50..60), instead of within 5% of the original's; the same as --target turns=LO..HI."),
    target: list[str] = typer.Option([], help="A range the search moves towards (repeat): edge=LO..HI, the first player's edge over a fair seat in pp (e.g. edge=-1..1), or turns=LO..HI, mean turns per game (e.g. turns=50..60); the page says whether the proposal reached it on the hold-out."),
    abilities: bool = typer.Option(False, help="Also edit the allies' abilities (A1-A9): a stronger ally's removed, moved to a weaker ally that has none or swapped with one's; a weaker ally takes a stronger one's. --lock CARD.ability keeps one."),
    holdout_games: int = typer.Option(ADVISE_HOLDOUT_GAMES, min=100, help="Fresh games per deck on the hold-out seed, where the proposal is measured."),
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
    start_workers(jobs, "sim.run.runner")  # while the imports below run
    from analysis.experiments.advise_search import parse_targets
    from analysis.workflows import advise as play

    load(cards)
    with errors():
        ranges = parse_targets(target)
    if target_turns is not None:  # an alias of --target turns=LO..HI
        if "turns" in ranges:
            fail(f"--target-turns {target_turns!r}: give it or --target turns=LO..HI, not both")
        ranges |= parsed(lambda: parse_targets([f"turns={target_turns}"]),
                         f"--target-turns {target_turns!r}: write LO..HI in turns, e.g. 50..60")  # fmt: skip
    sizes = parsed(lambda: [int(k) for k in short_list.split(",") if k.strip()],
                   f"--short-list {short_list!r}: write edit counts separated by commas, e.g. 3,6")  # fmt: skip
    if round_games is not None and not until_settled:
        fail("--round-games is for --until-settled")
    with errors():
        show(play(cards, games, players, seats(bot), seed, threshold, out, jobs, skill_check, confirm_with,
                  confirm_games, round_games, until_settled, command_line(), locks=lock, only_estimated=only_estimated,
                  target_turns=ranges.get("turns"), holdout_games=holdout_games, progress=not quiet, only=only,
                  max_edits=max_edits, own_effects=own_effects, short_list=sizes, abilities=abilities,
                  target_edge=ranges.get("edge"), restricted_play=restricted_play, borderline_pp=borderline))  # fmt: skip


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
    scheduler: Scheduler = None,
    dask_local: DaskLocal = None,
    threshold: float = typer.Option(DEFAULT_THRESHOLD_PP, min=0.0, help="Smallest gain over fair, in percentage points, that counts as beating the rung below (and as a budget that pays)."),
) -> None:
    """How much does skill decide? Climbs the bot ladder at each player count: each rung plays one seat against the rung below in every other seat, seats shuffled, and its win rate (Wilson 95% CI, n games) is set against the fair 1/players. Then the skill trace (Ludii): the search bot at budget b against itself at b/2 as b doubles, and the budget where the gain flattens. Runs are kept under OUT and reused or resumed; prints both tables and writes a report with the skill-versus-luck section."""
    from analysis.workflows import skill as play

    counts = player_counts(players)
    load(cards)
    with errors():
        show(play(cards, rung, counts, games, [b for b in trace_budget if b != 0], trace_bot, trace_games, seed, out,
                  jobs, None if not quiet else False, scheduler, dask_local, threshold))  # fmt: skip


def train_expert(
    players: str = typer.Option("2,3,4", help="The player counts whose weights are trained, e.g. 2 or 2,3,4; the others keep the shipped weights."),
    generations: int = typer.Option(TRAIN_GENERATIONS, min=1, help="CMA-ES generations per player count."),
    games: int = typer.Option(TRAIN_GAMES, min=100, help="Games per candidate: one expert seat against planner in every other seat, seats shuffled."),
    seed: Seed = 0,
    cards: Path = typer.Option(DEFAULT_CARDS, help="The card file the weights are trained on."),
    out: Path | None = typer.Option(None, help="The weights file to write (default: the package's own, sim/bots/expert_weights.json)."),
) -> None:
    """Train the expert bot's weights by CMA-ES against planner (docs/BOTS.md). Needs the training extra: pip install 'revachol-balance\\[train]'. Prints one line per generation."""
    from analysis.workflows import train_expert as train

    load(cards)
    try:
        show(train(cards, player_counts(players), generations, games, seed, out, command_line(), report=typer.echo))
    except ImportError:
        fail("training needs the cma package: pip install 'revachol-balance[train]'")
