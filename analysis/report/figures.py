"""Figures of the report tables (matplotlib): labelled axes with units, 95%
confidence intervals drawn as bars or bands, one series per run.

Each function takes the DataFrame of the table function it is named after and
returns a :class:`matplotlib.figure.Figure`; it never computes statistics itself.
Rates are drawn in percent. Text from the user (card names, run directory names,
bot specifications) passes through :func:`plain`, so a ``$`` in it is drawn as a
dollar sign and never read as matplotlib math text.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, NullFormatter

BAND_ALPHA = 0.25
FLAG_COLOUR = "tab:red"
MARKERS = "os^Dv<>p"  # one per run in the per-card figures
RUN_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan")
# one per run in the per-card figures: never red, which marks flagged cards


def _figure(width: float = 7.5, height: float = 4.2, ncols: int = 1) -> tuple[Figure, list]:
    # Figure() rather than pyplot: no global state, no GUI backend needed.
    figure = Figure(figsize=(width, height), dpi=110, layout="constrained")
    axes = figure.subplots(1, ncols, squeeze=False)[0]
    for ax in axes:
        ax.grid(alpha=0.3)
    return figure, list(axes)


def plain(text: str) -> str:
    """``text`` escaped for matplotlib: every ``$`` drawn literally, no math text."""
    return str(text).replace("$", r"\$")


def _series(table: pd.DataFrame):
    """(label, rows) per run, in the table's order; the label is :func:`plain`."""
    for run, rows in table.groupby("run", sort=False):
        first = rows.iloc[0]
        yield plain(f"{run}: {first['players']} players, {first['bots']}"), rows


def _errors(rows: pd.DataFrame, column: str) -> np.ndarray:
    """Asymmetric error-bar lengths (2, n), in percent, of ``column`` from its
    ``_low``/``_high`` bounds."""
    value = rows[column].to_numpy(float)
    lengths = np.vstack([value - rows[f"{column}_low"].to_numpy(float), rows[f"{column}_high"].to_numpy(float) - value])
    return 100 * np.clip(lengths, 0, None)  # rounding can put a bound a hair past its estimate


def _offsets(n_series: int, width: float = 0.6) -> np.ndarray:
    """Centred offsets that set ``n_series`` markers side by side around each position."""
    return (np.arange(n_series) - (n_series - 1) / 2) * (width / max(n_series, 1))


def plot_length_histogram(histogram: pd.DataFrame, measure: str = "turns") -> Figure:
    """Game length distribution (:func:`analysis.length.length_histogram`): share of
    games per length, with its Wilson band."""
    figure, (ax,) = _figure()
    for label, rows in _series(histogram):
        x = rows[measure].to_numpy()
        (line,) = ax.step(x, 100 * rows["share"], where="mid", label=label)
        ax.fill_between(x, 100 * rows["share_low"], 100 * rows["share_high"], step="mid", alpha=BAND_ALPHA,
                        color=line.get_color())  # fmt: skip
    ax.set(xlabel=f"game length ({measure})", ylabel="share of games (%)", title="How long games last")
    ax.legend(fontsize="small")
    return figure


def plot_margins(histogram: pd.DataFrame) -> Figure:
    """The winner's margin over the runner-up (:func:`analysis.closeness.margin_histogram`):
    share of games per margin in points, with Wilson intervals, one series per run."""
    series = list(_series(histogram))
    figure, (ax,) = _figure()
    for offset, (label, rows) in zip(_offsets(len(series), 0.8), series):
        x = rows["margin"].to_numpy(float) + offset
        (line,) = ax.plot(x, 100 * rows["share"], "o", ms=4, label=label)
        ax.errorbar(x, 100 * rows["share"], yerr=_errors(rows, "share"), fmt="none", ecolor=line.get_color(), lw=1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(xlabel="winner's margin over the runner-up (points; 0: decided by R9.3's tie-breaks)",
           ylabel="share of games (%)", title="How close games end")  # fmt: skip
    if series:  # a run where no game has a winner has no margin
        ax.legend(fontsize="small")
    return figure


def plot_survival(length: pd.DataFrame, first_event: pd.DataFrame) -> Figure:
    """Game length as a Kaplan–Meier curve, the share of games still running after
    each turn (:func:`analysis.length.length_survival`), and the cumulative
    incidence of the first morale-loss event with the end of the game as a competing
    risk (:func:`analysis.length.first_event_incidence`); pointwise 95% bands."""
    figure, axes = _figure(11, 4.2, ncols=2)
    panels = ((length, "survival", 100.0, "games still running (%)", "Game length (Kaplan–Meier)"),
              (first_event, "incidence", 0.0, "games that have had a morale-loss event (%)",
               "First morale-loss event (Aalen–Johansen)"))  # fmt: skip
    for ax, (table, column, start, ylabel, title) in zip(axes, panels):
        for label, rows in _series(table):
            turn = np.concatenate([[0], rows["turn"]])
            curve = [np.concatenate([[start], 100 * rows[c]]) for c in (column, f"{column}_low", f"{column}_high")]
            (line,) = ax.step(turn, curve[0], where="post", label=label)
            ax.fill_between(turn, curve[1], curve[2], step="post", alpha=BAND_ALPHA, color=line.get_color())
        ax.set(xlabel="turn (turns)", ylabel=ylabel, title=title, ylim=(-2, 102))
    if axes[0].get_legend_handles_labels()[0]:  # a run where no game ended has no curve
        axes[0].legend(fontsize="small")
    return figure


def plot_morale_events(distribution: pd.DataFrame) -> Figure:
    """Morale-loss events per game (:func:`analysis.morale.morale_event_distribution`),
    with Wilson intervals."""
    figure, (ax,) = _figure()
    series = list(_series(distribution))
    for offset, (label, rows) in zip(_offsets(len(series)), series):
        x = rows["morale_events"].to_numpy() + offset
        ax.bar(x, 100 * rows["share"], width=0.8 / len(series), label=label, alpha=0.8)
        ax.errorbar(x, 100 * rows["share"], yerr=_errors(rows, "share"), fmt="none", ecolor="black", capsize=2, lw=1)
    ax.set(xlabel="morale-loss events in a game (events)", ylabel="share of games (%)",
           title="Morale-loss events per game")  # fmt: skip
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize="small")
    return figure


def _card_rows(table: pd.DataFrame, order_by: str | None = None):
    """The cards' display order (by the first run's ``order_by``, else the deck's) and
    per-run rows reindexed to it."""
    first = table[table["run"] == table["run"].iloc[0]]
    ordered = first.sort_values(order_by) if order_by else first
    names = list(ordered["name"])
    return names, [(label, rows.set_index("name").reindex(names)) for label, rows in _series(table)]


def _card_intervals(table: pd.DataFrame, column: str, flag: str | None = None, order_by: str | None = None):
    """A dot per card (one colour and marker shape per run) with its interval as a
    horizontal bar, red where ``flag`` is set; returns the figure, its axes and the y
    positions."""
    names, series = _card_rows(table, order_by)
    figure, (ax,) = _figure(7.5, 0.26 * len(names) + 1.6)
    y = np.arange(len(names))
    for offset, marker, colour, (label, rows) in zip(_offsets(len(series)), MARKERS, RUN_COLOURS, series):
        flagged = rows[flag].astype(bool).to_numpy() if flag else np.zeros(len(rows), bool)
        if len(series) == 1:  # one run: flagged cards in red
            colours = np.where(flagged, FLAG_COLOUR, colour)
            edges = colours
        else:  # several runs: each run its colour and marker, a flagged card ringed in red
            colours = np.full(len(rows), colour)
            edges = np.where(flagged, FLAG_COLOUR, colour)
        ax.errorbar(100 * rows[column], y + offset, xerr=_errors(rows, column), fmt="none", ecolor=colours, lw=1.2)
        ax.scatter(100 * rows[column], y + offset, c=colours, edgecolors=edges, linewidths=1.2, marker=marker, s=16,
                   zorder=3, label=label)  # fmt: skip
    ax.set_yticks(y, [plain(name) for name in names], fontsize="small")
    return figure, ax, y


def plot_morale_saves(cards: pd.DataFrame) -> Figure:
    """Each morale card's observed save rate with its Wilson interval against the
    exact probability of its requirement (:func:`analysis.morale.morale_cards`);
    cards whose test disagrees after BH correction are drawn in red."""
    figure, ax, y = _card_intervals(cards, "save_rate", flag="disagrees")
    exact = cards[cards["run"] == cards["run"].iloc[0]]["probability"].to_numpy(float)
    ax.scatter(100 * exact, y, marker="|", s=160, color="black", zorder=4, label="exact probability of the requirement")
    ax.invert_yaxis()
    ax.set(xlabel="save rate per roll (%)",
           title="Morale cards: observed save rate\n(red: disagrees after BH correction)")  # fmt: skip
    figure.legend(*ax.get_legend_handles_labels(), fontsize="small", loc="outside lower center")
    return figure


def plot_ally_strength(allies: pd.DataFrame) -> Figure:
    """Each ally's effect on win rate against the average ally (percentage points,
    95% interval; :func:`analysis.cards.ally_strength`), the practical threshold as
    dashed lines; allies with a verdict in red."""
    effect = allies.assign(effect=allies["effect_pp"] / 100, effect_low=allies["effect_low_pp"] / 100,
                           effect_high=allies["effect_high_pp"] / 100, flagged=allies["verdict"] != "")  # fmt: skip
    figure, ax, _ = _card_intervals(effect, "effect", flag="flagged", order_by="effect")
    ax.axvline(0, color="black", lw=0.8)
    for side in (-1, 1):
        ax.axvline(side * allies["threshold_pp"].iloc[0], color="grey", lw=0.8, ls="dashed")
    ax.set(xlabel="effect on win rate against the average ally (percentage points)",
           title="Allies against the average ally\n(red: verdict; dashed: practical threshold)")  # fmt: skip
    if allies["run"].nunique() > 1:
        ax.legend(fontsize="small")
    return figure


def plot_task_outcomes(tasks: pd.DataFrame) -> Figure:
    """Completion rate per task with Wilson intervals (:func:`analysis.cards.task_outcomes`)."""
    figure, ax, _ = _card_intervals(tasks, "completion_rate", order_by="completion_rate")
    ax.set(xlabel="completion rate (% of games)", title="Tasks: how often they are completed", xlim=(0, 100))
    if tasks["run"].nunique() > 1:
        ax.legend(fontsize="small")
    return figure


def plot_seat_win_rates(seats: pd.DataFrame) -> Figure:
    """Win rate per turn-order position with Wilson intervals and the fair baseline
    (:func:`analysis.seats.seat_win_rates`)."""
    figure, (ax,) = _figure(6.5, 4)
    series = list(_series(seats))
    for offset, (label, rows) in zip(_offsets(len(series), 0.4), series):
        x = rows["position"].to_numpy() + offset
        (line,) = ax.plot(x, 100 * rows["win_rate"], "o", label=label)
        colour = line.get_color()
        ax.errorbar(x, 100 * rows["win_rate"], yerr=_errors(rows, "win_rate"), fmt="none", ecolor=colour, capsize=3)
        ax.hlines(100 * rows["baseline"], x.min() - 0.3, x.max() + 0.3, colors=colour, linestyles="dashed", lw=1)
    ax.set_xticks(sorted(seats["position"].unique()))
    ax.set(xlabel="turn-order position (1 = first player)", ylabel="win rate (%)",
           title="Win rate by turn order (dashed: fair share, 1/players)")  # fmt: skip
    ax.legend(fontsize="small")
    return figure


def plot_scores(histogram: pd.DataFrame) -> Figure:
    """Final score distribution per turn-order position, one panel per run
    (:func:`analysis.seats.score_histogram`), with Wilson bands."""
    series = list(_series(histogram))
    figure, axes = _figure(6.5 * max(len(series), 1), 4, ncols=max(len(series), 1))
    if not series:  # every game left out (stalled or truncated)
        axes[0].text(0.5, 0.5, "no games to show", ha="center", transform=axes[0].transAxes)
    for ax, (label, rows) in zip(axes, series):
        for position, group in rows.groupby("position"):
            (line,) = ax.step(group["score"], 100 * group["share"], where="mid", label=f"position {position}")
            ax.fill_between(group["score"], 100 * group["share_low"], 100 * group["share_high"], step="mid",
                            alpha=BAND_ALPHA, color=line.get_color())  # fmt: skip
        ax.set(xlabel="final score (points)", ylabel="share of players (%)",
               title=f"Final scores by turn order\n{label}")  # fmt: skip
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize="small")
    return figure


def _number_points(ax, x: np.ndarray, y: np.ndarray, names) -> None:
    """Number each point in red, staggered so that neighbours stay apart, and list
    the numbers with the names beside the axes (long names do not fit among the
    points)."""
    key = []
    for j, order in enumerate(np.argsort(x, kind="stable")):
        ax.annotate(str(j + 1), (x[order], y[order]), xytext=(4, 3 + 9 * (j % 3)), textcoords="offset points",
                    fontsize="x-small", color=FLAG_COLOUR, fontweight="bold")  # fmt: skip
        key.append(f"{j + 1}  {names[order]}")
    if key:
        ax.text(1.02, 1.0, "\n".join(key), transform=ax.transAxes, va="top", fontsize="x-small", color=FLAG_COLOUR)


def plot_task_calibration(calibration: pd.DataFrame) -> Figure:
    """Each task's printed points against its difficulty (its points-blind completion
    rate when the run has a companion, else as played; logit axis, Wilson interval),
    with the monotone fit over every task as a step line and its 95% bootstrap band
    (:func:`analysis.task_calibration.task_calibration`). Tasks with a verdict in
    red, joined to the par they are judged against (its 95% interval in grey),
    numbered and named beside the axes. One panel per run."""
    series = list(_series(calibration))
    figure, axes = _figure(10 * max(len(series), 1), 4.6, ncols=max(len(series), 1))
    for ax, (label, rows) in zip(axes, series):
        blind = (rows["difficulty"] == "points-blind").all()
        column = "points_blind_rate" if blind else "completion_rate"
        rows = rows.sort_values(column, kind="stable")
        rate = rows[column].to_numpy(float).clip(1e-4, 1 - 1e-4)
        flagged = (rows["verdict"] != "").to_numpy()
        ax.set_xscale("logit")
        ax.step(rate, rows["fit_points"], where="mid", color="grey", lw=1.2,
                label="monotone par: what tasks as hard pay")  # fmt: skip
        ax.fill_between(rate, rows["fit_points_low"], rows["fit_points_high"], step="mid", color="grey",
                        alpha=BAND_ALPHA, label="its 95% band (game-clustered bootstrap)")  # fmt: skip
        points, par = rows["points"].to_numpy(float), rows["par_points"].to_numpy(float)
        ax.errorbar(rate[flagged], par[flagged], fmt="_", color="grey", ms=10, lw=1,
                    yerr=np.abs(np.vstack([par - rows["par_points_low"], rows["par_points_high"] - par]))[:, flagged])
        ax.vlines(rate[flagged], par[flagged], points[flagged], colors=FLAG_COLOUR, lw=0.8, alpha=0.6)
        errors = np.abs(np.vstack([rate - rows[f"{column}_low"], rows[f"{column}_high"] - rate]))
        ax.errorbar(rate, points, xerr=errors, fmt="none", ecolor=np.where(flagged, FLAG_COLOUR, "tab:blue"), lw=1)
        ax.scatter(rate[~flagged], points[~flagged], c="tab:blue", s=22, zorder=3, label="printed points")
        ax.scatter(rate[flagged], points[flagged], c=FLAG_COLOUR, s=22, zorder=3, label="printed points, out of order")
        _number_points(ax, rate[flagged], points[flagged], list(rows["name"][flagged]))
        ax.xaxis.set_major_formatter(lambda value, _: f"{100 * value:g}%")
        ax.xaxis.set_minor_formatter(NullFormatter())
        when = "when every task pays alike" if blind else "as played (no points-blind run)"
        ax.set(xlabel=f"completion rate {when} (% of games, logit axis: harder to the left)", ylabel="points",
               title=f"Task rewards against difficulty (red: out of order)\n{label}")  # fmt: skip
        ax.legend(fontsize="small")
    if not series:
        axes[0].text(0.5, 0.5, "no tasks to show", ha="center", transform=axes[0].transAxes)
    return figure


def plot_skill(summary: pd.DataFrame, trace: pd.DataFrame) -> Figure:
    """Left: the stronger bot's win rate in each run that mixes bots, by player count
    (:func:`analysis.skill.skill_summary`), with Wilson intervals and its fair share
    (dashes). Right, when there is one: the skill trace (:func:`analysis.skill.skill_trace`),
    the win rate at each budget against half of it, and fair."""
    panels = [p for p in (summary, trace) if len(p)]
    figure, axes = _figure(6.5 * len(panels), 4.4, ncols=len(panels))
    if len(summary):
        ax = axes[0]
        labels = [plain(f"{s} vs {w}") for s, w in zip(summary["strong"], summary["weak"])]
        y = np.arange(len(summary))
        ax.errorbar(100 * summary["win_rate"], y, xerr=_errors(summary, "win_rate"), fmt="o", capsize=3,
                    label="stronger bot's win rate")  # fmt: skip
        ax.plot(100 * summary["fair_rate"], y, "|", color="black", markersize=14, label="fair share")
        ax.set_yticks(y, [f"{p}p: {label}" for p, label in zip(summary["players"], labels)], fontsize="small")
        ax.invert_yaxis()
        ax.set(xlabel="games won (%)", title="One seat of the stronger bot against the rest")
        ax.legend(fontsize="small")
    if len(trace):
        ax = axes[-1]
        ax.errorbar(trace["budget"], 100 * trace["win_rate"], yerr=_errors(trace, "win_rate"), fmt="o-", capsize=3,
                    label="budget b against b/2")  # fmt: skip
        ax.plot(trace["budget"], 100 * trace["fair_rate"], "--", color="black", lw=1, label="fair share")
        ax.set_xscale("log", base=2)
        ax.set_xticks(trace["budget"], [str(b) for b in trace["budget"]])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set(xlabel="budget b of the stronger seat", ylabel="games won (%)", title="Skill trace: does more thinking pay?")
        ax.legend(fontsize="small")
    return figure
