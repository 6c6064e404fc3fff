"""The import graphs of sim/ and analysis/: no circle in either; in sim/, no module of
the game's layers (its rules, state and loop) that imports a bot (the port,
sim.bots.port); in analysis/, imports that run one way, down its layers (data, then
statistics, then the questions, then the report and the experiments)."""

import ast
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIM = ROOT / "sim"
ANALYSIS = ROOT / "analysis"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports, anywhere in it: import
    statements (in functions too) and ``importlib.import_module("...")`` calls."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):  # fmt: skip
            found.add(node.args[0].value)
    return found & modules


def import_graph(package: Path = SIM) -> dict[str, set[str]]:
    """``{module: modules of the package it imports}`` for every module of ``package``
    (a folder: sim/ or analysis/)."""
    paths = {module_name(path): path for path in package.rglob("*.py")}
    return {name: imported(path, set(paths)) - {name} for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` as a list of modules, first repeated last; []
    when there is none (depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return []


def test_the_cycle_finder_finds_a_planted_circle_and_none_in_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_sim_has_no_import_circle():
    assert find_cycle(import_graph()) == []


# The game's side of the port (sim.port): the rules, the state and the game loop.
GAME_SIDE = [*sorted((SIM / "rules").glob("*.py")), SIM / "state.py", SIM / "engine.py"]


def bot_names() -> set[str]:
    """Every policy's name and id constant (sim.bots.table, sim.bots.ids)."""
    from sim.bots import ids
    from sim.bots.table import POLICIES

    return {p.name for p in POLICIES if p.name} | {"scripted", "user"} | {
        name for name, value in vars(ids).items() if name.isupper() and isinstance(value, int)
    }


def code_words(path: Path) -> set[str]:
    """The names, attributes and string constants of ``path``'s code (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}  # fmt: skip
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.alias):
            words.add(node.asname or node.name.split(".")[-1])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.update(node.value.split())
    return words


def test_the_rules_state_and_game_loop_import_no_bot_module():
    modules = set(import_graph())
    found = {path.relative_to(ROOT).as_posix(): sorted(m for m in imported(path, modules) if m.startswith("sim.bots"))
             for path in GAME_SIDE}  # fmt: skip
    assert {path: bots for path, bots in found.items() if bots} == {}


def test_the_rules_and_game_loop_name_no_bot():
    names = bot_names()
    found = {path.relative_to(ROOT).as_posix(): sorted(code_words(path) & names)
             for path in GAME_SIDE if path.name != "state.py"}  # fmt: skip
    assert {path: words for path, words in found.items() if words} == {}


def test_the_game_loop_passes_no_bot_an_argument_of_its_own():
    """The game loop's kernels take the state's handle, the deck and the run's numbers:
    the search bot reaches its playout state through the handle (sim.state.kernel_state)."""
    from sim.engine import play_batch, play_game

    assert list(inspect.signature(play_game.py_func).parameters) == ["st", "deck", "n_players", "keys", "game_index"]
    assert list(inspect.signature(play_batch.py_func).parameters)[:3] == ["st", "deck", "n_players"]


def test_the_name_check_sees_a_bot_named_in_code(tmp_path):
    planted = tmp_path / "turn.py"
    planted.write_text('"""greedy in a docstring is fine."""\nif policy == SEARCH:\n    x = "greedy"\n')
    assert code_words(planted) & bot_names() == {"SEARCH", "greedy"}


def test_analysis_has_no_import_circle():
    assert find_cycle(import_graph(ANALYSIS)) == []


# analysis/'s layers, lowest first: a module imports its own layer's and lower layers' modules only. The
# questions' layer holds their shared practical threshold and the commands' default games too; the library API of every command (workflows,
# issue 67 item 3) is the top, the one module that hands a command's result to the writer.
QUESTIONS = ["length", "morale", "cards", "seats", "closeness", "skill", "skill_check", "task_calibration", "thresholds",
             "defaults", "plan", "settled"]
LAYERS = [["analysis.data"], ["analysis.stats"], [f"analysis.{name}" for name in QUESTIONS],
          ["analysis.report", "analysis.experiments"], ["analysis.workflows"]]  # fmt: skip


def layer(module: str) -> int | None:
    """The index in :data:`LAYERS` of ``module``'s layer (a layer's package, or a
    module in it); None for the ``analysis`` package itself."""
    found = [i for i, names in enumerate(LAYERS) for name in names if module == name or module.startswith(f"{name}.")]
    return found[0] if found else None


def upward_imports(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """``{module: the modules of a higher layer it imports}``, for the modules that do."""
    found = {module: sorted(m for m in imports if layer(m) is not None and layer(m) > layer(module))
             for module, imports in graph.items() if layer(module) is not None}  # fmt: skip
    return {module: higher for module, higher in found.items() if higher}


def test_every_analysis_module_has_a_layer():
    assert [module for module in import_graph(ANALYSIS) if layer(module) is None] == ["analysis"]


def test_the_layer_check_sees_an_import_running_back_up():
    graph = {"analysis.data.runs": {"analysis.stats.inference"}, "analysis.cards": {"analysis.data.runs"},
             "analysis.stats.paired": {"analysis.report.html"}, "analysis.report.page": {"analysis.cards"}}  # fmt: skip
    assert upward_imports(graph) == {"analysis.data.runs": ["analysis.stats.inference"],
                                     "analysis.stats.paired": ["analysis.report.html"]}  # fmt: skip


def test_analysis_imports_run_down_its_layers_only():
    assert upward_imports(import_graph(ANALYSIS)) == {}


def _sources_holding(pattern: str) -> set[str]:
    """The modules of analysis/, commands/ and cli.py whose text matches ``pattern``."""
    found = re.compile(pattern)
    sources = [*ANALYSIS.rglob("*.py"), *(ROOT / "commands").rglob("*.py"), ROOT / "cli.py"]
    return {path.relative_to(ROOT).as_posix() for path in sources if found.search(path.read_text(encoding="utf-8"))}


def test_one_module_hands_every_commands_result_to_the_writer():
    """Issue 67 item 1: the experiments return their files (analysis.report.result.Result)
    and write none; analysis.workflows.deliver alone hands them to the writer, and only
    the writer and the modules that render to memory (CSV text, PNG bytes) touch files."""
    assert _sources_holding(r"write_files\(") == {"analysis/report/writer.py", "analysis/workflows.py"}
    assert _sources_holding(r"to_csv\(|write_text\(|savefig\(") == {
        "analysis/report/writer.py", "analysis/report/csv_cells.py", "analysis/report/html.py"}


def test_only_the_renderers_hold_html():
    """Issue 67 item 1: every page is data (analysis.report.document, analysis.report.model)
    until a renderer draws it."""
    assert _sources_holding(r"<table|<div|<h[1-6]") == {"analysis/report/render.py", "analysis/report/render_page.py"}
