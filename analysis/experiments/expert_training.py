"""Training the ``expert`` bot's weights (:mod:`sim.bots.expert`): CMA-ES against ``planner``.

For each player count, CMA-ES (Hansen and Ostermeier 2001; the maintained ``cma``
package) searches the block of that count's weights (:data:`TUNED`, scaled onto
[0, 1] within :data:`RANGES`) to maximise one ``expert`` seat's win rate against
``planner`` in every other seat, seats shuffled. Every candidate of a generation plays
the same games (common random numbers: root seed ``seed * 1000 + generation`` of the
count), so candidates are compared on equal deals, and each generation plays fresh
ones, so the weights are not fitted to one set of games. The result is the
distribution's mean after the last generation (``cma``'s ``xfavorite``), less noisy
than the best single evaluation. Same seed and arguments, same weights: the games
depend only on their seeds (:mod:`sim.rng`) and ``cma`` is seeded.

Training plays no test: it is a command (``revachol train-expert``), and the shipped
file records the command that made it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analysis.report.writer import Files
from sim.bots import expert
from sim.bots.expert import EXTRA, NAMES, WEIGHTS
from sim.bots.planner import PARAMS as PLANNER_PARAMS
from sim.deck_arrays import DeckArrays
from sim.options import RuleOptions
from sim.play import run_games
from sim.record import PLAYER_FIELDS
from sim.state import new_state

RANGES = {
    "w_gift": (0.0, 3.0), "draw_below": (0.0, 6.0), "decay": (0.05, 0.95), "w_urgent": (0.0, 6.0),
    "cautious": (0.0, 1.0), "draw_below_1": (0.0, 6.0), "draw_below_2": (0.0, 6.0), "min_complete": (0.0, 6.0),
    "keep": (0.0, 2.0), "pen_hand": (0.0, 4.0), "pen_squad": (0.0, 10.0), "deny": (0.0, 1.0), "w_gain": (0.0, 2.0),
    "w_cards": (0.0, 2.0), "w_crowns": (0.0, 3.0),
}  # fmt: skip
"""The tuned weights and their ranges; ``w_points`` stays 1 (it sets the scale)."""
TUNED = tuple(RANGES)
WON, BOT = PLAYER_FIELDS.index("won"), PLAYER_FIELDS.index("bot")


def block_of(unit: np.ndarray) -> dict[str, float]:
    """The weights of one block from a point of the unit cube (float64, ``len(TUNED)``),
    clipped to it."""
    unit = np.clip(unit, 0.0, 1.0)
    block = {**PLANNER_PARAMS, **EXTRA}
    for name, u in zip(TUNED, unit):
        low, high = RANGES[name]
        block[name] = round(float(low + u * (high - low)), 4)
    return block


def unit_of(block: dict[str, float]) -> np.ndarray:
    """The point of the unit cube for ``block``'s :data:`TUNED` weights (float64)."""
    return np.array([(block[name] - RANGES[name][0]) / (RANGES[name][1] - RANGES[name][0]) for name in TUNED])


def bot_label(blocks: dict[int, dict[str, float]]) -> str:
    """The ``expert:…`` bot specification with these blocks' weights (:mod:`sim.bots.spec`)."""
    items = [f"{name}_{n}p={value:g}" for n, block in sorted(blocks.items()) for name, value in block.items()]
    return "expert:" + ",".join(items)


def win_rate(deck: DeckArrays, n_players: int, label: str, games: int, seed: int, state=None) -> float:
    """One ``label`` seat's win rate against ``planner`` in every other seat, seats
    shuffled, over games ``0 .. games - 1`` of root ``seed`` (fraction of games)."""
    record = run_games(deck, n_players, games, seed, [label] + ["planner"] * (n_players - 1),
                       RuleOptions(shuffle_seats=True), state=state)  # fmt: skip
    players = record.players[:, :n_players]
    return float(players[..., WON][players[..., BOT] == 0].mean())


def train_count(deck: DeckArrays, n_players: int, generations: int, games: int, seed: int,
                report: Callable[[str], None] = print) -> tuple[dict[str, float], float]:  # fmt: skip
    """CMA-ES on the block of ``n_players`` (module docstring), starting from
    ``planner``'s weights with step 0.2 of each range: (the block, the mean's win rate
    on the last generation's games).

    Raises
    ------
    ValueError
        For a deck that cannot seat ``n_players`` (:func:`sim.play.run_games`).
    """
    import cma  # the training extra: pip install 'revachol-balance[train]'

    state = new_state(deck, RuleOptions(shuffle_seats=True).to_array())
    start = unit_of({**PLANNER_PARAMS, **EXTRA})
    es = cma.CMAEvolutionStrategy(start, 0.2, {"bounds": [0.0, 1.0], "seed": seed + n_players, "verbose": -9})
    for generation in range(generations):
        games_seed = seed * 1000 + generation
        candidates = es.ask()
        rates = [win_rate(deck, n_players, bot_label({n_players: block_of(x)}), games, games_seed, state)
                 for x in candidates]  # fmt: skip
        es.tell(candidates, [-r for r in rates])
        mean = win_rate(deck, n_players, bot_label({n_players: block_of(es.result.xfavorite)}), games, games_seed,
                        state)  # fmt: skip
        report(f"{n_players} players, generation {generation + 1}/{generations}: best {max(rates):.1%}, "
               f"mean {mean:.1%} ({games:,} games)")  # fmt: skip
    return block_of(es.result.xfavorite), mean


def weights_files(path: Path, blocks: dict[int, dict[str, float]], made_by: dict[int, str],
                  fit: dict[int, float]) -> Files:  # fmt: skip
    """``blocks`` as the weights file of :mod:`sim.bots.expert` at ``path``, not yet
    written (a file named ``path.name``, to go in ``path.parent``), with each count's
    command that made it and its win rate on its last generation's games (fraction);
    counts missing from ``made_by`` and ``fit`` keep the file's own."""
    old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data = {"made_by": {**old.get("made_by", {}), **{str(n): text for n, text in made_by.items()}},
            "training_win_rate": {**old.get("training_win_rate", {}), **{str(n): round(r, 4) for n, r in fit.items()}},
            "weights": {str(n): {name: blocks[n][name] for name in NAMES} for n in sorted(blocks)}}  # fmt: skip
    return Files(texts={path.name: json.dumps(data, indent=1) + "\n"})


def default_path() -> Path:
    """The shipped weights file, in this checkout's package (beside :mod:`sim.bots.expert`)."""
    return Path(expert.__file__).with_name(WEIGHTS)

