"""Causal card value by restricted play (``revachol card-value``).

Following Jaffe et al. (AIIDE 2012), an ally's value is what a player loses when it
may not play that ally: seat 0's bot gets the restriction ``never=<ally>``
(:mod:`sim.bots.restrict`), every other seat and every deal stays the same (same
seed: common random numbers), and seat 0's results are compared game by game.

Against a plain ally. Forbidding *any* ally costs seat 0 win rate, a plain one
too (a card it may not play is a dead card in hand). The value is therefore
measured against a reference run in which seat 0 may not play a plain ally (no
ability): ``value = WR(never reference) − WR(never ally)``. Positive: losing this
ally hurts more than losing a plain one, i.e. it is worth more than a plain ally.
The value against the unrestricted baseline, ``WR(baseline) − WR(never ally)``, is
reported beside it.

One yardstick for two decks. The reference is by default the plain ally nearest the
average ally (:func:`nearest_plain_ally`: the smallest absolute effect against the
average ally, :func:`analysis.cards.ally_strength`, in the unrestricted baseline;
ties by id), or the ally the user names (``against``). Values of two decks (a card
file and its proposal) are comparable only against one reference, and only when that
reference is an average ally in both: with another deck (``reference_deck``, its
baseline played on the same games and bots), the rule takes the plain ally whose
larger absolute effect over the two baselines is smallest, so each deck, valued with
the other as ``reference_deck``, gets the same ally. A before/after check once mixed
Cunoesse, chosen on ``cards.yaml``, with Steban, chosen on an ``advise`` proposal; then
valued the proposal against René Arnoux, chosen on ``cards.yaml`` alone, who sat at
−1.5 pp (95% CI −2.1 to −1.0) against the proposal's average ally, so that every value
in it read about half a point high (issue 48, docs/EXPERIMENTS.md).

Per held game. The restriction changes a game only if seat 0 holds the ally, so
the value per game in which seat 0 held it (in the restricted run) is
``Σ_g (won_base − won_never)_g / Σ_g held_g``, a ratio of per-game totals with the
game-clustered t interval of :mod:`analysis.stats.clustered`.

Tests: win rates are paired 0/1 outcomes (exact McNemar test, interval of the paired
differences), scores the paired t-test (:func:`analysis.stats.paired.paired_columns`); the
allies form one Benjamini–Hochberg family.

Why it differs from the report's correlational measures (:mod:`analysis.cards`):
the held win rate and IWD say how often holders of an ally win, which mixes the
card's effect with everything that comes with holding it (more draws, longer games,
the bot's style). Restricted play changes one thing, whether the card may be played,
on the same deals, so the difference is the card's own effect for that bot. It is
also bot-dependent: a card that pays off only with planning is worth little to a
bot that does not plan.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.cards import ally_strength
from analysis.data.runs import Run
from analysis.data.stream import Batch, Columns, add_totals, batches, in_step
from analysis.report import document as doc
from analysis.report.words.experiments import card_value_note, card_value_reference, card_value_title
from analysis.report.writer import Files
from analysis.stats.clustered import GameMoments, ratio_columns
from analysis.stats.paired import PairedMoments, paired_columns
from analysis.stats.inference import bh_flags
from sim.bots.speed import MAIN_JOB_BOT
from sim.cards import Deck, load_deck, unknown_id
from sim.run.runner import simulate


SEAT0 = Columns(players=("seat", "won", "score", "held"))
CARD_VALUE_FILE = "card_value.csv"


def _seat0(run_dir: Path) -> Iterator[Batch]:
    """The run's batches reduced to seat 0: ``players`` holds its ``won`` and
    ``score`` float64 (games,) and ``held`` bool (games, allies), in game order."""
    for batch in batches(Run.open(run_dir), SEAT0):
        first = batch.players["seat"] == 0  # one seat 0 per game, at any turn order
        players = {c: batch.players[c][first] for c in ("won", "score", "held")}
        players["won"], players["score"] = players["won"].astype(np.float64), players["score"].astype(np.float64)
        yield Batch(batch.game, {}, players, {}, batch.unfinished)


def _values(base_dir: Path, reference_dir: Path, restricted: dict[int, Path]) -> dict[int, dict[str, object]]:
    """Per ally index, the moments of its values (module docstring), in one pass over
    the baseline, the reference and every restricted run in step: ``win`` and
    ``points`` (:class:`PairedMoments` of the ally-restricted against the
    reference-restricted seat 0), ``versus_base`` (against the baseline) and
    ``per_held`` (:class:`GameMoments` of ``(won_base − won, held)`` per game)."""
    total: dict[int, dict[str, object]] = {}
    for base, ref, *others in in_step(_seat0(base_dir), _seat0(reference_dir), *map(_seat0, restricted.values())):
        for ally, run in zip(restricted, others):
            won, score, held = run.players["won"], run.players["score"], run.players["held"][:, ally].astype(np.float64)
            part = {"win": PairedMoments.of(won, ref.players["won"]),
                    "points": PairedMoments.of(score, ref.players["score"]),
                    "versus_base": PairedMoments.of(won, base.players["won"]),
                    "per_held": GameMoments.of(np.stack([base.players["won"] - won, held], axis=-1))}  # fmt: skip
            total[ally] = add_totals(total.get(ally), part)
    return total


def nearest_plain_ally(decks: Sequence[Deck], baselines: Sequence[pd.DataFrame]) -> str:
    """The id of the plain ally nearest the average ally in every deck: among the
    allies plain (no ability) in each of ``decks``, the one whose largest absolute
    ``effect_pp`` (pp of win rate against the average ally,
    :func:`analysis.cards.ally_strength`) over ``baselines`` (one per deck, in order) is
    smallest; ties (and an effect not measured) broken by id, in order. With one
    deck, the plain ally whose effect is nearest zero. The rule is symmetric: two decks
    choose the same ally in either order.

    Raises
    ------
    ValueError
        When no ally is plain in every deck.
    """
    plain = sorted(set.intersection(*({a.id for a in deck.allies if not a.ability} for deck in decks)))
    if not plain:
        which = "the deck has no plain ally" if len(decks) == 1 else "the decks have no ally plain in both"
        raise ValueError(f"{which} (one without an ability) to measure against; name one with --against")
    effect = pd.concat([b.set_index("ally").loc[plain, "effect_pp"].abs().fillna(float("inf")) for b in baselines],
                       axis=1).max(axis=1)  # fmt: skip
    return str(effect.sort_values(kind="stable").index[0])


def card_values(
    cards: str | Path | Deck,
    n_games: int,
    out: str | Path,
    allies: Sequence[str] | None = None,
    bot: str = MAIN_JOB_BOT,
    players: int = 4,
    seed: int = 0,
    n_jobs: int = -1,
    progress: bool | None = None,
    against: str | None = None,
    opponents: str | None = None,
    reference_deck: str | Path | Deck | None = None,
) -> pd.DataFrame:
    """Each ally's value to seat 0's ``bot`` against a plain ally (module docstring).

    Runs go to ``out/baseline`` and ``out/never-<ally id>`` (and
    ``out/reference-baseline-<hash>`` for another ``reference_deck``); complete runs are
    reused.

    Parameters
    ----------
    cards : path or Deck
        The card file, or a validated deck (an edited deck not written to a file).
    against : str, optional
        Id of the reference ally; default the plain ally nearest the average
        (:func:`nearest_plain_ally`) on ``cards`` and ``reference_deck``.
    reference_deck : path or Deck, optional
        Another card file (or validated deck) whose baseline (``n_games`` games, the same seed and bots)
        joins ``cards``' in choosing the default reference. Value a card file with its
        proposal as ``reference_deck``, and the proposal with the card file, so that both
        are valued against one ally, average in both.
    opponents : str, optional
        The bot of every other seat; default ``bot``. A strong ``bot`` against weaker
        ``opponents`` values each card for a skilled player in a weaker field.

    Returns
    -------
    pandas.DataFrame
        One row per ally, largest value first: ``ally`` (name), ``reference``
        (name) and ``reference_id``, ``n`` (games), ``win_rate_value`` (WR of seat 0
        without the reference minus without the ally, a fraction; with
        ``_low``/``_high``), ``p_value`` (exact McNemar), ``q_value`` and
        ``significant`` (BH at 5% across the allies), ``score_value`` (points, same
        sign, with ``_low``/``_high``), ``value_vs_baseline`` (WR with every ally
        allowed minus without this one, with bounds), ``held_games`` (games in which
        seat 0 held the ally) and ``value_per_held_game`` (``value_vs_baseline`` per
        such game, with game-clustered bounds), and the baseline's correlational
        ``iwd`` of the ally.

    Raises
    ------
    ValueError
        For an ally id that is not in the deck, or no ally plain in both ``cards`` and
        ``reference_deck``.
    """
    deck = cards if isinstance(cards, Deck) else load_deck(cards)
    ids = [a.id for a in deck.allies]
    chosen = list(allies) if allies else ids
    unknown = [a for a in [*chosen, *([against] if against else [])] if a not in ids]
    if unknown:
        raise ValueError(unknown_id("ally", unknown[0], ids, "the deck" if isinstance(cards, Deck) else str(cards)))
    out = Path(out)

    def play(name: str, first: str, card_file: str | Path | Deck = cards) -> Path:
        run_dir = out / name
        simulate(card_file, n_games, run_dir, players, [first] + [opponents or bot] * (players - 1), seed, n_jobs,
                 resume=(run_dir / "manifest.json").exists(), progress=progress)  # fmt: skip
        return run_dir

    base_dir = play("baseline", bot)
    strength = ally_strength(base_dir).set_index("ally")
    reference = against
    if reference is None:
        decks, baselines = [deck], [strength.reset_index()]
        other = deck if reference_deck is None else (reference_deck if isinstance(reference_deck, Deck)
                                                     else load_deck(reference_deck))  # fmt: skip
        if other.content_hash != deck.content_hash:
            decks.append(other)
            baselines.append(ally_strength(play(f"reference-baseline-{other.content_hash[:12]}", bot, reference_deck)))
        reference = nearest_plain_ally(decks, baselines)
    reference_dir = play(f"never-{reference}", f"{bot}:never={reference}")
    restricted = {ids.index(a): play(f"never-{a}", f"{bot}:never={a}") for a in chosen}
    values = _values(base_dir, reference_dir, restricted)
    rows = []
    for ally_id in chosen:
        moments = values[ids.index(ally_id)]
        win = paired_columns("win rate", moments["win"], "share")  # reference-restricted - ally-restricted
        points = paired_columns("score", moments["points"], "points")
        versus_base = paired_columns("win rate", moments["versus_base"], "share")
        per_held = ratio_columns("value_per_held_game", moments["per_held"], rate=False)
        rows.append({
            "ally": deck.allies[ids.index(ally_id)].name, "reference": deck.allies[ids.index(reference)].name,
            "reference_id": reference, "n": win["n"],
            "win_rate_value": win["difference"], "win_rate_value_low": win["difference_low"],
            "win_rate_value_high": win["difference_high"], "p_value": win["p_value"],
            "score_value": points["difference"], "score_value_low": points["difference_low"],
            "score_value_high": points["difference_high"],
            "value_vs_baseline": versus_base["difference"], "value_vs_baseline_low": versus_base["difference_low"],
            "value_vs_baseline_high": versus_base["difference_high"],
            "held_games": int(moments["per_held"].total[1]), **{k: float(v) for k, v in per_held.items()},
            "iwd": strength.loc[ally_id, "iwd"],
        })  # fmt: skip
    table = pd.DataFrame(rows)
    table["significant"], table["q_value"] = bh_flags(table["p_value"].to_numpy())
    return table.sort_values("win_rate_value", ascending=False, ignore_index=True)


def card_value_files(table: pd.DataFrame) -> Files:
    """:func:`card_values`' table as the file ``card_value.csv`` (no index), not yet written."""
    return Files({CARD_VALUE_FILE: table})


def card_value_brief(table: pd.DataFrame, bots: Sequence[str], cards: str, named: bool, reference_deck: str | None,
                     written: Path) -> doc.Page:  # fmt: skip
    """What ``revachol card-value`` prints (:func:`analysis.report.terminal.print_page`),
    data only: the reference ally and why (``named``: chosen with ``--against``), the
    values of :func:`card_values` (pp, paired 95% CIs) for seat 0's bot (``bots[0]``,
    among ``bots[-1]``), what each value means, and the file written."""
    reference = table["reference"].iloc[0]
    return doc.Page("card-value", (
        doc.plain(card_value_reference(reference, table["reference_id"].iloc[0], named, cards, reference_deck)),
        doc.plain(card_value_title(bots[0], bots[-1], reference)),
        doc.Table(table, hide=("reference", "reference_id", "q_value")),
        doc.note(card_value_note(reference, written)),
    ))  # fmt: skip
