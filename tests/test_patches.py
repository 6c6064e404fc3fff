"""The one gate for numba's internals (sim._patches): the switch, the version gate,
the pin in pyproject.toml, and no numba internal used outside the patch modules."""

import ast
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sim._patches import PATCHES, SWITCH, TESTED, active, numba_minor

ROOT = Path(__file__).resolve().parents[1]
# The modules that may reach numba's internals, each behind the gate.
PATCH_MODULES = {"sim/_patches.py", "sim/_inline.py", "sim/split_compile.py",
                 "sim/_numba.py"}  # fmt: skip
# numba's public extension API (numba docs: "Extending", "Event API") outside numba.extending.
PUBLIC = {"numba", "numba.extending", "numba.experimental", "numba.core.event", "numba.core.errors",
          "numba.core.types"}  # fmt: skip


def test_the_switch_turns_every_patch_on_off_or_the_listed_ones():
    assert active("1") == set(PATCHES) == active("")
    assert active("0") == set()
    assert active(" inline , split ") == {"inline", "split"}


def test_the_switch_refuses_an_unknown_patch_by_name():
    with pytest.raises(ValueError, match=f"{SWITCH}='inline,turbo' is not a valid value; valid: unset or 1"):
        active("inline,turbo")


def test_a_numba_outside_the_tested_versions_gets_no_patch():
    assert active("1", version="0.69.0") == set()
    assert active("1", version="0.60.2") == set()
    assert active("1", version=f"{TESTED[-1]}.3") == set(PATCHES)


def test_pyproject_pins_numba_and_llvmlite_to_the_tested_minor_versions():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    spec = {d.split(">")[0].split("<")[0].strip(): d for d in deps}
    low, high = TESTED[0], TESTED[-1]
    assert spec["numba"] == f"numba>={low},<0.{int(high.split('.')[1]) + 1}"
    assert spec["llvmlite"].startswith("llvmlite>=") and ",<" in spec["llvmlite"]


def test_this_numba_is_a_tested_one():
    assert numba_minor() in TESTED


_PROBE = """
import json
from numba.core import config
from numba.core.inline_closurecall import InlineWorker
import sim.play  # noqa: F401
from sim import _inline
print(json.dumps({
    "inline": InlineWorker.inline_function is _inline._inline_function,
    "cache_dir": config.CACHE_DIR,
}))
"""


def test_with_the_switch_off_numba_is_left_as_it_is_and_the_cache_keyed_by_the_sources(tmp_path):
    env = {**os.environ, SWITCH: "0", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    probe = json.loads(out.stdout)
    assert not probe["inline"]
    assert Path(probe["cache_dir"]).parent == tmp_path and Path(probe["cache_dir"]).name.startswith("revachol-")


def _numba_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("numba"):
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.startswith("numba")}
    return names


def test_no_module_but_the_patch_modules_imports_a_numba_internal():
    outside = {
        path.relative_to(ROOT).as_posix(): sorted(_numba_imports(path) - PUBLIC)
        for path in sorted((ROOT / "sim").rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in PATCH_MODULES
    }
    assert {path: names for path, names in outside.items() if names} == {}
