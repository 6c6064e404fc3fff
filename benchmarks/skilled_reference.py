"""The reference of skilled play, and how close any bot comes to it (issues 52, 64).

A benchmark, not a test. Two steps.

**Write a reference.** ``search`` in every seat on the default deck, played (or
resumed) in chunks of 100 games, and the summary of its run written as a small CSV
under ``benchmarks/reference/``: each ally's effect against the average ally (pp),
each task's completion (pp), the first player's edge (pp), mean turns and
morale-loss events per game, each with its 95% CI and n (the skill check's measures,
:func:`analysis.skill_check.measures`), and the core-seconds per game of the run::

    python benchmarks/skilled_reference.py write --players 4 --games 4000 --seed 52
    python benchmarks/skilled_reference.py write --players 2 --games 4000 --seed 52
    python benchmarks/skilled_reference.py write --players 4 --games 2000 --seed 77
    python benchmarks/skilled_reference.py write --players 2 --games 2000 --seed 77

Seed 52 is the reference the docs quote (docs/BOTS.md); seed 77 is the fresh seed that
candidates are judged on, which no bot was fitted on. ``search`` costs about 0.35 to
0.45 s of one core per game.

**Judge bots against a reference.** Each bot plays the reference's seed and player
count (``--fast-games`` games for a fast bot, ``--games`` for one whose name starts with
``search``), and the table gives per bot:

* the share of the ``greedy`` → ``search`` gap it closes, ``1 − D(bot) / D(greedy)``
  with ``D(b) = Σ[(x_b − x_search)² − (se_b² + se_search²)]``: over the allies' effects
  (one family), and apart for morale-loss events and for mean turns (the subtracted
  variances remove what sampling noise alone adds to the squared distance, so a bot
  that plays as ``search`` does scores about 100% at any number of games);
* the allies outside ``search``'s 95% CI and the Spearman rank correlation of the
  allies' effects with ``search``'s;
* its core-seconds per game, from its run's manifest (the seconds its workers spent
  playing, over its games), measured in the same invocation::

    python benchmarks/skilled_reference.py agree benchmarks/reference/search-4p-seed77-2000g.csv \\
        --bot greedy --bot planner --bot expert --bot search:iterations=48 --games 1000
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pandas as pd
from scipy.stats import spearmanr

from analysis.skill_check import measures, tables
from analysis.stats.power import standard_error
from analysis.data.runs import Run
from sim.run.runner import simulate

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference"


def play(out: Path, players: int, games: int, seed: int, bot: str, chunk: int, jobs: int) -> Path:
    """The run of ``bot`` in every seat, played or resumed in ``out / NAME``."""
    run = out / f"{bot.replace(':', '_').replace(',', '_')}-{players}p-seed{seed}-{games}g"
    simulate(HERE.parent / "cards.yaml", games, run, players, [bot] * players, seed, jobs, chunk_size=chunk,
             resume=(run / "manifest.json").exists(), progress=False)  # fmt: skip
    return run


def summary(run: Path) -> pd.DataFrame:
    """The skill check's measures of ``run`` (:func:`analysis.skill_check.measures`)
    with its core-seconds per game (``core_seconds_per_game``, the same in every row:
    the seconds its workers spent over the games of the chunks they timed)."""
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    timings = manifest.get("timings", {})
    timed = min(sum(r.get("chunks", 0) for r in timings.get("runs", [])) * manifest["chunk_size"], manifest["n_games"])
    seconds = timings.get("chunk_seconds", math.nan) / timed if timed else math.nan  # chunks a killed session played are not timed
    table = measures(tables([Run.open(run)])).drop(columns=["run"])
    return table.assign(core_seconds_per_game=round(seconds, 5))


def distance(bot: pd.DataFrame, reference: pd.DataFrame, noise: bool = False) -> float:
    """``D(b) = Σ[(x_b − x_search)² − (se_b² + se_search²)]`` over the rows both hold,
    matched by kind and subject; ``se`` from each 95% CI. With ``noise``, the
    subtracted ``Σ(se_b² + se_search²)`` instead: what sampling alone adds, the scale
    against which a gap is told from none."""
    both = bot.merge(reference, on=["kind", "subject"], suffixes=("_b", "_s"))
    se_b, se_s = (standard_error(both[f"low_{k}"], both[f"high_{k}"]) for k in ("b", "s"))
    if noise:
        return float((se_b**2 + se_s**2).sum())
    return float(((both["value_b"] - both["value_s"]) ** 2 - (se_b**2 + se_s**2)).sum())


def agreement(bots: dict[str, pd.DataFrame], reference: pd.DataFrame) -> pd.DataFrame:
    """One row per bot: the share of greedy's gap closed on allies, morale and turns,
    the allies outside search's CI, Spearman with search, and the core-seconds per game."""
    families = {"allies": "ally", "morale": "morale", "turns": "length"}
    gaps = {name: distance(bots["greedy"][bots["greedy"]["kind"] == kind], reference[reference["kind"] == kind])
            for name, kind in families.items()}  # fmt: skip
    rows = []
    ref_allies = reference[reference["kind"] == "ally"].set_index("subject")
    for bot, table in bots.items():
        row = {"bot": bot, "games": int(table["n"].iloc[0]), "core s/game": table["core_seconds_per_game"].iloc[0]}
        for name, kind in families.items():
            row[f"{name} gap closed"] = 1 - distance(table[table["kind"] == kind], reference[reference["kind"] == kind]) / gaps[name]
        allies = table[table["kind"] == "ally"].set_index("subject").reindex(ref_allies.index)
        row["allies outside search's CI"] = int(((allies["value"] < ref_allies["low"]) | (allies["value"] > ref_allies["high"])).sum())
        row["Spearman with search"] = spearmanr(allies["value"], ref_allies["value"]).statistic
        for name, kind in (("morale events", "morale"), ("turns", "length")):
            m = table[table["kind"] == kind].iloc[0]
            row[name] = f"{m['value']:.2f} ({m['low']:.2f}-{m['high']:.2f})"
        rows.append(row)
    out = pd.DataFrame(rows)
    for column in out.columns:
        if column.endswith("gap closed"):
            out[column] = out[column].map(lambda v: f"{100 * v:.0f}%")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    steps = parser.add_subparsers(dest="step", required=True)
    write = steps.add_parser("write", help="play search and write its reference CSV")
    write.add_argument("--players", type=int, default=4)
    write.add_argument("--games", type=int, default=4000)
    write.add_argument("--seed", type=int, default=52)
    agree = steps.add_parser("agree", help="judge bots against a reference CSV")
    agree.add_argument("reference", type=Path)
    agree.add_argument("--bot", action="append", default=[], help="a bot specification; greedy is always played")
    agree.add_argument("--games", type=int, default=1000, help="games of a search bot")
    agree.add_argument("--fast-games", type=int, default=100_000, help="games of every other bot")
    for step in (write, agree):
        step.add_argument("--jobs", type=int, default=-1)
        step.add_argument("--out", type=Path, default=Path("runs") / "skilled-reference")
    args = parser.parse_args()
    if args.step == "write":
        run = play(args.out, args.players, args.games, args.seed, "search", 100, args.jobs)
        REFERENCE.mkdir(exist_ok=True)
        path = REFERENCE / f"search-{args.players}p-seed{args.seed}-{args.games}g.csv"
        summary(run).to_csv(path, index=False, float_format="%.6g")
        print(path)
        return
    reference = pd.read_csv(args.reference)
    players, seed = _of(args.reference)
    bots = {}
    for bot in dict.fromkeys(["greedy", *args.bot]):
        slow = bot.split(":", 1)[0] == "search"
        run = play(args.out, players, args.games if slow else args.fast_games, seed, bot, 100 if slow else 25_000, args.jobs)
        bots[bot] = summary(run)
    pd.set_option("display.width", 250)
    print(f"against {args.reference.name} ({int(reference['n'].iloc[0]):,} search games, "
          f"{reference['core_seconds_per_game'].iloc[0]:.3f} core s/game):")
    print(agreement(bots, reference).to_string(index=False))
    for name, kind in (("allies", "ally"), ("morale", "morale"), ("turns", "length")):  # is greedy's gap beyond noise?
        greedy, ref = bots["greedy"][bots["greedy"]["kind"] == kind], reference[reference["kind"] == kind]
        print(f"{name}: greedy's gap D = {distance(greedy, ref):.4g}, sampling's share Σ(se²) = "
              f"{distance(greedy, ref, noise=True):.4g}: a share closed is readable only where D is several times it")


def _of(path: Path) -> tuple[int, int]:
    """Players and seed from a reference's name, ``search-4p-seed77-2000g.csv``."""
    parts = path.stem.split("-")
    return int(parts[1].rstrip("p")), int(parts[2].removeprefix("seed"))


if __name__ == "__main__":
    main()
