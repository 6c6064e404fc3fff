"""The report at scale: wall time, peak RSS and rows/s of ``revachol report`` on
runs of 1,000,000 and 10,000,000 games (played first unless reused). A
measurement, not a test; the same as ``revachol bench --report``.

    python benchmarks/report_scale.py [RUNS_DIR] [GAMES ...]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.report.bench import DEFAULT_RUNS, DEFAULT_SIZES, format_timings, report_scale  # noqa: E402

if __name__ == "__main__":
    runs = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_RUNS
    sizes = [int(n) for n in sys.argv[2:]] or list(DEFAULT_SIZES)
    print(format_timings(report_scale(sizes, runs)))
