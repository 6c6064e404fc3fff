"""The section "Seat advantage": win rates and scores by turn-order position, and
by bot (:mod:`analysis.seats`)."""

from __future__ import annotations

from analysis import seats
from analysis.data.runs import Run
from analysis.report.figures import plot_scores, plot_seat_win_rates
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of


def seats_section(runs: list[Run], include_unfinished: bool, threshold_pp: float) -> Section:
    """Per run, the first player's win rate against fair and the edge over it
    flagged with 80% power, counting from ``threshold_pp`` (answer kind ``seats``);
    tables ``seat_win_rates``, ``seat_balance``, ``seat_differences``,
    ``score_summary``, ``bot_win_rates``, ``score_histogram``."""
    win_rates = seats.seat_win_rates(runs, include_unfinished)
    summary = seats.seat_balance(runs, include_unfinished, threshold_pp)
    scores, histogram = seats.score_summary(runs, include_unfinished), seats.score_histogram(runs, include_unfinished)
    bots, gaps = seats.bot_win_rates(runs, include_unfinished), seats.seat_differences(runs, include_unfinished)
    answers = []
    for run in runs:
        row = rows_of(summary, run).iloc[0]
        answers.append(answer("seats", runs, run, row, "advantage_p1", row["games"], "share", row=row,
                              baseline=run.baseline, by_bot=rows_of(bots, run)))  # fmt: skip
    return Section(
        "Seat advantage",
        answers,
        [Note("seats")],
        [FigureSpec("seat_win_rates", plot_seat_win_rates, (win_rates,)),
         FigureSpec("scores", plot_scores, (histogram,))],
        [Table("seat_win_rates", win_rates), Table("seat_balance", summary), Table("seat_differences", gaps),
         Table("score_summary", scores), Table("bot_win_rates", bots),
         Table("score_histogram", histogram, shown=False)],
    )  # fmt: skip
