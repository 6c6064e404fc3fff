"""Report figures: what a reader tells apart (analysis.report.figures)."""

import numpy as np
import pandas as pd
from matplotlib.colors import to_hex

from analysis.report.figures import FLAG_COLOUR, plot_task_outcomes


def _tasks(run: str, rates: list[float]) -> pd.DataFrame:
    rates = np.array(rates)
    return pd.DataFrame({"run": run, "players": 4, "bots": "4 × greedy", "name": ["a", "b"], "completion_rate": rates,
                         "completion_rate_low": rates - 0.05, "completion_rate_high": rates + 0.05})  # fmt: skip


def _face_colours(figure) -> list[set[str]]:
    (ax,) = figure.axes
    return [{to_hex(c) for c in collection.get_facecolors()} for collection in ax.collections if collection.get_offsets().size
            and hasattr(collection, "get_sizes") and len(collection.get_sizes())]  # fmt: skip


def test_runs_in_one_per_card_figure_differ_by_colour_not_only_by_marker():
    figure = plot_task_outcomes(pd.concat([_tasks("2p", [0.5, 0.9]), _tasks("4p", [0.4, 0.8])]))
    colours = [c for c in _face_colours(figure) if c]
    assert len(colours) == 2 and colours[0] != colours[1]
    assert to_hex(FLAG_COLOUR) not in set.union(*colours)
