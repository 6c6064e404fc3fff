"""The HTML report, opened in a real browser (headless Chromium): every figure loads.

Skipped, with the reason, when no Chromium is installed; .ci/run installs Debian's
``chromium`` so that CI always runs it.
"""

import re
import shutil
import subprocess

import pytest

from analysis.report import build_report
from sim.runner import simulate
from tests.conftest import DEFAULT_CARDS

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--virtual-time-budget=15000", "--dump-dom",
]  # fmt: skip
PROBE = """<script>
window.addEventListener("load", () => {
  const images = Array.from(document.images);
  const broken = images.filter((img) => !(img.complete && img.naturalWidth > 0));
  document.body.setAttribute("data-images", images.length);
  document.body.setAttribute("data-broken", broken.length);
});
</script>"""


@pytest.mark.skipif(BROWSER is None, reason="no Chromium on this machine (apt-get install chromium); .ci/run installs it")
def test_the_report_renders_in_chromium_with_every_figure_loaded(tmp_path):
    run = simulate(DEFAULT_CARDS, 2000, tmp_path / "run", players=4, seed=1, n_jobs=1, progress=False)
    report = build_report(run)
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    result = subprocess.run(
        [BROWSER, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", probe.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    dom = result.stdout
    assert "<body" in dom, result.stderr[-2000:]
    images = int(re.search(r'data-images="(\d+)"', dom).group(1))
    broken = int(re.search(r'data-broken="(\d+)"', dom).group(1))
    assert images >= 8 and broken == 0, (images, broken)
    for section in ("Game length", "Morale loss", "Card strength", "Seat advantage"):
        assert section in dom
