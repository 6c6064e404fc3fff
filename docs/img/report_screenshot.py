"""Make the README's screenshot, ``docs/img/report-first-screen.png``: the first 1400 × 900
screen of the balance report of the quick start's run (100,000 four-player ``greedy``
games of the default ``cards.yaml``, seed 0, with its points-blind companion, as
``revachol run`` plays it), in headless Chromium (Debian's ``chromium``).

Run it from the repository root with the change that alters the report's first screen,
and commit the picture with that change::

    python docs/img/report_screenshot.py

It plays the run in ``runs/`` (kept there: a second call reuses it) and prints the
picture's path. Raises ``SystemExit`` with one line when no Chromium is installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "img" / "report-first-screen.png"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--window-size=1400,900", "--virtual-time-budget=15000")  # fmt: skip


def main() -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("no Chromium on this machine: apt-get install chromium")
    sys.path.insert(0, str(ROOT))
    from analysis.report import build_report
    from sim.cards import load_deck
    from sim.run.points_blind import play_points_blind
    from sim.run.runner import run_name, simulate

    cards = ROOT / "cards.yaml"
    run = ROOT / "runs" / run_name(cards, load_deck(cards), 100_000, 0, players=4, bots="greedy")  # as revachol run names it
    simulate(cards, 100_000, run, players=4, bots="greedy", seed=0, resume=(run / "manifest.json").exists(),
             progress=False)  # fmt: skip
    play_points_blind(run, -1, progress=False)
    page = build_report([run]).path
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={PICTURE}", page.as_uri()],
                       check=True, capture_output=True, timeout=300)  # fmt: skip
    print(PICTURE)


if __name__ == "__main__":
    main()
