"""The installed ``revachol`` command, run as a real subprocess (pyhf's style)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("revachol")


def revachol(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The command's result, run with the test's ``os.environ`` (monkeypatch applies):
    readline, once imported by the test process, exports COLUMNS=80 to C's environment
    only, which a child would otherwise inherit."""
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ))  # fmt: skip


def test_validate_prints_the_summary_of_the_default_deck():
    result = revachol("validate")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "valid deck — 40 allies, 25 tasks, 24 morale" in out
    assert "Symbol supply" in out and "crown (joker)" in out
    assert "A6 swap" in out and "Harry Du Bois" in out
    assert "Estimated values" in out and "allies.symbols" in out


def test_validate_a_broken_deck_gives_one_line_per_problem_and_no_traceback(tmp_path):
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "cards.yaml"
    broken.write_text(text.replace("penalty: squad_ally", "penalty: lose_a_turn", 1), encoding="utf-8")
    result = revachol("validate", str(broken))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "field 'penalty'" in result.stderr and "'lose_a_turn' is not valid" in result.stderr
    assert "'squad_ally', 'completed_task' or 'hand_ally'" in result.stderr


def test_validate_a_missing_file_is_a_clean_error(tmp_path):
    result = revachol("validate", str(tmp_path / "nope.yaml"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cannot read the deck file" in result.stderr


def test_replay_prints_a_full_game_with_events_and_scores():
    result = revachol("replay", "--seed", "3", "--players", "3")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Rule options: opt_double_any_symbol off, opt_one_special_crown_per_squad off, ")
    assert "plays first (R2.2)" in out
    for phrase in ("is dealt", "Turn 1: seat", "plays", "draws", "completes", "Symbols:", "MORALE-LOSS EVENT", "rolls",
                   "Game over after", "Final scores", "<- winner"):  # fmt: skip
        assert phrase in out, phrase
    # which squad completed, and singular units (seed 3: seat 1's first squad, Titus Hardie alone)
    assert "Seat 1's squad 1 (Titus Hardie) completes 'Visit the Dolorian Church' [purple, 1 point] for 1 point." in out
    assert "1 points" not in out and " 1 tasks" not in out


def test_replay_and_simulate_take_the_a4_and_a8_rule_options(tmp_path):
    result = revachol("replay", "--seed", "3", "--one-special-crown-per-squad", "--extra-play-existing-squad")
    assert result.returncode == 0, result.stderr
    assert "opt_one_special_crown_per_squad on, opt_extra_play_existing_squad on" in result.stdout.splitlines()[0]
    out = tmp_path / "run"
    result = revachol("simulate", "-n", "20", "--out", str(out), "--jobs", "1", "--quiet", "--one-special-crown-per-squad")
    assert result.returncode == 0, result.stderr
    options = json.loads((out / "manifest.json").read_text())["rule_options"]
    assert options["one_special_crown_per_squad"] is True and options["extra_play_existing_squad"] is False


def test_replay_with_a_bad_player_count_is_one_clear_error():
    result = revachol("replay", "--seed", "1", "--players", "5")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "players" in result.stderr.lower()


def test_help_starts_without_importing_the_engine():
    result = revachol("--help")
    assert result.returncode == 0 and "validate" in result.stdout and "replay" in result.stdout
    probe = subprocess.run(
        [sys.executable, "-c", "import sys, cli; print('numba' in sys.modules, 'polars' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert probe.stdout.split() == ["False", "False"], probe.stderr


@pytest.mark.slow
def test_run_plays_the_games_and_writes_the_report(tmp_path):
    result = revachol("run", "-n", "1500", "--players", "3", "--runs", str(tmp_path), "--quiet")
    assert result.returncode == 0, result.stderr
    (run_dir,) = tmp_path.iterdir()
    assert run_dir.name.startswith("cards-") and "-3p-greedy-1500g-seed0" in run_dir.name
    assert (run_dir / "report" / "report.html").exists()
    assert result.stdout == f"{run_dir / 'report' / 'report.html'}\n"  # --quiet: only the path
    # issue 35: the points-blind companion, played by default and used for the tasks' difficulty
    assert json.loads((run_dir / "manifest.json").read_text())["companions"]["points_blind"]["task_points"] == 3
    assert json.loads((run_dir / "points_blind" / "manifest.json").read_text())["n_games"] == 1500
    assert "points-blind" in (run_dir / "report" / "tables" / "task_calibration.csv").read_text()
    assert "the same games with every task paying 3 points" in (run_dir / "report" / "report.html").read_text()
    again = revachol("run", "-n", "1500", "--players", "3", "--runs", str(tmp_path), "--quiet")
    assert again.returncode == 0 and len(list(tmp_path.iterdir())) == 1  # the same run, continued


@pytest.mark.slow
def test_the_default_run_plays_no_skill_check_and_never_says_its_verdicts_hold_for_skilled_play(tmp_path):
    """Issue 64: the default run plays no expert companion (expert plays like planner,
    docs/BOTS.md) and, with no skill check, says the verdicts are the run's bots' and
    gives the command that checks them, with its games and minutes; the command then
    plays the run's first games with search and prints every measure's state."""
    args = ("-n", "600", "--players", "4", "--jobs", "1", "--runs", str(tmp_path))
    result = revachol("run", *args)
    assert result.returncode == 0, result.stderr
    (run_dir,) = tmp_path.iterdir()
    assert not (run_dir / "skilled").exists() and "skilled" not in json.loads((run_dir / "manifest.json").read_text())["companions"]
    assert "holds for skilled play" not in result.stdout and "expert" not in result.stdout
    line = next(text for text in result.stdout.splitlines() if text.startswith("Skill check — not played"))
    assert "for the run's bots (4 × greedy)" in line and f"revachol skill-check {run_dir}" in line
    assert "games of search in every seat, about" in line and "minutes on this machine" in line
    page = (run_dir / "report" / "report.html").read_text(encoding="utf-8")
    assert "Skill check — not played" in page and "holds for skilled play" not in page
    checked = revachol("skill-check", str(run_dir), "--games", "40", "--jobs", "1")
    assert checked.returncode == 0, checked.stderr
    assert json.loads((run_dir / "skilled" / "manifest.json").read_text())["n_games"] == 40
    assert "The skill check, measure by measure" in checked.stdout and "detectable" in checked.stdout
    sentence = next(text for text in checked.stdout.splitlines() if text.startswith("Skill check — With search"))
    assert "on the first 40 of the same games" in sentence and "cannot tell yet" in sentence
    assert "holds for skilled play" not in sentence  # 40 games cannot see an ally's 2 pp


@pytest.mark.slow
def test_run_with_several_player_counts_plays_each_and_reports_them_side_by_side(tmp_path):
    result = revachol("run", "-n", "600", "--players", "2,4", "--runs", str(tmp_path), "--quiet", "--jobs", "1",
                      "--no-points-blind")  # fmt: skip
    assert result.returncode == 0, result.stderr
    (base,) = tmp_path.iterdir()
    assert not (base / "2p" / "points_blind").exists()  # skipped: task difficulty falls back to completion as played
    assert "as played" in (base / "report" / "tables" / "task_calibration.csv").read_text()
    assert "-2,4p-greedy-600g-seed0" in base.name
    manifests = {n: json.loads((base / f"{n}p" / "manifest.json").read_text()) for n in (2, 4)}
    assert {n: (m["n_players"], m["root_seed"]) for n, m in manifests.items()} == {2: (2, 0), 4: (4, 0)}
    seats = (base / "report" / "tables" / "seat_win_rates.csv").read_text()
    assert "2p" in seats and "4p" in seats  # one report, both counts
    page = (base / "report" / "report.html").read_text(encoding="utf-8")
    assert page.count("This deck holds estimated values") == 1  # one deck: one banner, not one per count


@pytest.mark.slow
def test_run_and_report_print_the_top_findings_above_the_path_and_quiet_only_the_path(tmp_path, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    args = ("-n", "600", "--players", "2", "--no-points-blind", "--jobs", "1", "--runs", str(tmp_path))
    result = revachol("run", *args)
    assert result.returncode == 0, result.stderr
    (run_dir,) = tmp_path.iterdir()
    page = run_dir / "report" / "report.html"
    lines = result.stdout.splitlines()
    assert lines[0] == f"600 games in {run_dir}" and lines[1].startswith("Findings, most important first")
    findings, unchecked, path = lines[2:-2], lines[-2], lines[-1]
    assert 1 <= len(findings) <= 8 and path == f"report: {page}"
    assert unchecked.startswith("Skill check — not played: these verdicts are for the run's bots (2 × greedy).")
    for number, line in enumerate(findings, 1):
        assert line.startswith(f"{number:>2}. ") and "95% CI" in line and "n = " in line, line
    quiet = revachol("run", *args, "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == f"{page}\n"
    report = revachol("report", str(run_dir))
    assert report.returncode == 0 and report.stdout.splitlines() == [lines[1], *findings, unchecked, str(page)]
    assert revachol("report", str(run_dir), "--quiet").stdout == f"{page}\n"
    # issue 50: a section in the terminal, as the page shows it
    seats = revachol("report", str(run_dir), "--quiet", "--section", "seat advantage").stdout.splitlines()
    assert seats[0] == "Seat advantage" and seats[1].startswith("The first player wins") and seats[-1] == str(page)
    assert any(line.startswith("Win rate by turn-order position.") for line in seats)
    wrong = revachol("report", str(run_dir), "--section", "seats")
    assert wrong.returncode == 1 and wrong.stderr.startswith("error: --section 'seats': no such section; valid: Game")


def test_help_written_to_a_pipe_keeps_a_long_ally_id_whole(monkeypatch):
    """Issue 50: captured, --help was cut at 80 columns (e.g. evrart_claire.sy…)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("TERMINAL_WIDTH", raising=False)
    result = revachol("advise", "--help")
    assert result.returncode == 0 and "evrart_claire.symbols" in result.stdout and "…" not in result.stdout


def test_the_command_line_writes_no_file_itself():
    """cli.py parses, calls and prints; each file is written by the library function that computes it."""
    text = (ROOT / "cli.py").read_text(encoding="utf-8")
    assert re.findall(r"to_csv|savefig|write_text|write_bytes|read_csv|open\(.*[\"']w", text) == []


def test_run_refuses_a_player_count_outside_2_to_4_in_one_line(tmp_path):
    """R2.1: 2 to 4 players; a run that asks for 5 is refused before it plays."""
    result = revachol("run", "--players", "2,5", "--runs", str(tmp_path))
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "2 to 4" in result.stderr
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("command", ["simulate", "run", "replay"])
def test_help_lists_every_built_in_bot(command):
    from sim.bots.policy import POLICY_IDS

    text = " ".join(revachol(command, "--help").stdout.split())
    assert all(name in text for name in POLICY_IDS if name != "scripted"), text


def test_simulate_plays_greedy_by_default_like_run(tmp_path):
    result = revachol("simulate", "-n", "20", "--out", str(tmp_path / "r"), "--jobs", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["bots"] == ["greedy"] * 4


def test_bench_prints_games_per_second():
    result = revachol("bench", "-n", "2000")
    assert result.returncode == 0, result.stderr
    assert "games/s" in result.stdout and "no abilities" in result.stdout


def test_report_refuses_a_malformed_length_target_in_one_line(tmp_path):
    result = revachol("report", str(tmp_path), "--target-turns", "fifty")
    assert result.returncode == 1
    assert result.stderr.strip() == "error: --target-turns 'fifty': write LO..HI in turns, e.g. 50..60"


@pytest.mark.slow
def test_advise_with_only_edits_that_card_prints_its_stages_to_a_log_and_writes_no_nan(tmp_path):
    """advise --only kim_kitsuragi on the default deck, output captured (a log, not a
    terminal): every proposed edit is on Kim Kitsuragi (unrestricted, the search edits
    a dozen cards), standard error holds one line per stage, and neither advice.html
    nor advice.csv holds a literal nan (the tried column of cards no longer flagged)."""
    out = tmp_path / "advise"
    result = revachol("advise", "-n", "1500", "--holdout-games", "1500", "--only", "kim_kitsuragi", "--out", str(out),
                      "--jobs", "2", "--confirm-with", "greedy:w_points=1", "--restricted-play", "500")  # fmt: skip
    assert result.returncode == 0, result.stderr
    stages = [line for line in result.stderr.splitlines() if line.startswith("advise: ")]
    assert stages[0] == "advise: the original deck on 1,500 games (and as many points-blind) …"
    assert stages[1].startswith("advise: round 1: screening 2 edits of 1 card on 1,500 games per deck (best so far")
    assert stages[-4] == "advise: confirming on the hold-out: the original and the proposal on 1,500 fresh games each …"
    before, after = (path.read_text(encoding="utf-8") for path in (ROOT / "cards.yaml", out / "proposal.yaml"))
    assert [(b, a) for b, a in zip(before.splitlines(), after.splitlines()) if b != a] == [
        ("    symbols: [blue, orange]", "    symbols: [blue]")]  # Kim Kitsuragi's line, and nothing else
    assert "On 1,500 fresh games per deck:" in result.stdout
    assert re.search(r"^games played: [\d,]+$", result.stdout, re.MULTILINE)  # at fixed n: no count of decks played whole
    page = re.sub(r'src="data:image/png;base64,[^"]*"', "", (out / "advice.html").read_text(encoding="utf-8"))
    for text in (page, (out / "advice.csv").read_text(encoding="utf-8")):
        assert re.findall(r"\bnan\b", text, flags=re.IGNORECASE) == []
    assert "Evrart Claire still has a verdict, stronger" in page and "--only left it out" in page
    # issue 52: --confirm-with, here greedy under another label: the same games, so no change depends on skill
    assert stages[-3] == "advise: confirming with greedy:w_points=1 in every seat: the first 1,500 of the same fresh games …"
    # issue 48 item 2: the one edit alone (the proposal's own deck, reused); no shorter proposal than 1 edit
    assert stages[-2] == "advise: each edit alone (1 deck) on the same 1,500 fresh games …"
    # issue 48's causal check: Kim Kitsuragi valued by restricted play in both decks
    assert stages[-1] == "advise: restricted play: 1 edited ally in both decks on 500 fresh games per run …"
    assert "Restricted play (seat 0 may not play the ally; 500 games per run on the hold-out seed, against " \
        in result.stdout and "Restricted play" in page
    assert list(pd.read_csv(out / "restricted.csv")["ally"]) == ["Kim Kitsuragi"]
    assert "Each edit&#x27;s own effect" in page and not list(out.glob("proposal-*.yaml"))  # escaped once
    assert "no change differs from the run's by its practical threshold or more" in result.stdout
    assert "Does the change hold for skilled players?" in page
    # issue 48: every significant change on the hold-out, the page's list and side_effects.csv
    side = pd.read_csv(out / "side_effects.csv")
    assert len(side) >= 1 and "Every side effect on the hold-out" in page
    assert f"{len(side)} measure{'s' * (len(side) != 1)} moved significantly" in result.stdout
    assert "Kim Kitsuragi: holders' win rate" in set(side["what"])  # the edited ally's own change is among them
    assert (out / "holdout").is_dir() and len(list((out / "holdout").glob("*/skilled/manifest.json"))) == 2


def test_plan_prints_the_games_per_section_and_one_line_for_a_path_that_is_not_a_run(tmp_path, monkeypatch):
    """Issue 51: revachol plan RUN --effect 1pp; an effect below the 2 pp threshold is never flagged."""
    monkeypatch.delenv("COLUMNS", raising=False)  # the console's own width for a pipe (sim.console), not a caller's 80
    run_dir = tmp_path / "r"
    played = revachol("simulate", "-n", "600", "--players", "2", "--out", str(run_dir), "--jobs", "1", "--quiet")
    assert played.returncode == 0, played.stderr
    result = revachol("plan", str(run_dir), "--effect", "1pp", "--effect-points", "2")
    assert result.returncode == 0, result.stderr
    assert "Games needed to detect an effect with 80% power" in result.stdout
    for section in ("Card strength", "Task rewards", "Seat advantage", "Game length"):
        assert section in result.stdout
    assert "Card strength: an effect of 1 pp can never be flagged" in result.stdout
    refused = revachol("plan", str(tmp_path / "nothing"), "--effect", "1")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.count("\n") == 1 and refused.stderr.startswith("error: ")
    unit = revachol("plan", str(run_dir), "--effect", "1 point")
    assert unit.returncode == 1 and unit.stderr.strip() == "error: '1 point': write the effect in pp, e.g. 1pp or 1"


def test_jobs_beyond_the_machines_cores_are_capped_with_one_line(tmp_path):
    """Issue 66 item 6: --jobs 64 on a machine of fewer cores starts as many workers as
    it has cores (the manifest records them), saying so in one line; -1 is every core
    for the report too."""
    cores = len(os.sched_getaffinity(0))
    result = revachol("simulate", "-n", "200", "--jobs", "64", "--quiet", "--out", str(tmp_path / "run"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [f"--jobs 64 is more than this machine's {cores} cores: {cores} workers"]
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["timings"]["runs"][0]["n_jobs"] == cores
    report = revachol("report", str(tmp_path / "run"), "--jobs", "-1", "--quiet")
    assert report.returncode == 0 and report.stderr == "", report.stderr


def test_help_shows_the_training_extra_as_written():
    """Issue 68 item 7: rich markup took ``[train]`` for a tag and dropped it."""
    result = revachol("train-expert", "--help")
    assert result.returncode == 0 and "pip install 'revachol-balance[train]'" in " ".join(result.stdout.split())


def test_every_command_that_plays_or_reads_a_companion_states_the_one_rule_for_them():
    """Issue 68 item 7: when the points-blind and the skilled games play is said once
    (cli.COMPANIONS) and shown by every command that plays or reads them; advise's
    --skill-check defaults as compare's and run's (sim.run.skilled.by_default)."""
    import typer.main

    from cli import COMPANIONS, app

    group = typer.main.get_command(app)
    shown = {name for name, command in group.commands.items() if command.epilog == COMPANIONS}
    assert shown == {"run", "compare", "advise", "report", "skill-check"}
    assert "Companions, one rule in every command." in " ".join(revachol("advise", "--help").stdout.split())
    for name in ("run", "compare", "advise"):  # unasked, the rule decides (None), and --no-skill-check overrides it
        (check,) = [p for p in group.commands[name].params if p.name == "skill_check"]
        assert check.default is None and check.secondary_opts == ["--no-skill-check"], name


def test_every_commands_usage_names_its_arguments_by_their_written_metavar():
    """Issue 68 item 7: usage lines showed ``{a} {b}`` and ``{run_dir}``, the code's
    parameter names; every argument now has a metavar, which the usage line shows
    (typer marks a required one with braces, an optional one with brackets)."""
    import typer.main

    from cli import app

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        for argument in (p for p in command.params if p.param_type_name == "argument"):
            assert argument.metavar and argument.metavar.isupper(), (name, argument.name)
            usage = revachol(name, "--help").stdout.split("Usage:")[1].splitlines()[0]
            assert f"{{{argument.metavar}}}" in usage or f"[{argument.metavar}]" in usage, (name, usage)


def test_a_second_job_on_a_run_in_use_is_refused_in_one_line_from_its_games_to_its_report(tmp_path):
    """Issue 66 item 7: the job lock is held from a job's first game to its last file
    (here held by this process, as a first job would through its companions and
    report); a second revachol run or skill-check on the same run is refused in one line
    naming the holder, and runs once the first is done."""
    from sim.rundir.lock import job_locked

    args = ("run", "-n", "300", "--players", "2", "--jobs", "1", "--no-points-blind", "--runs", str(tmp_path),
            "--name", "same", "--quiet")  # fmt: skip
    with job_locked(tmp_path / "same"):
        refused = revachol(*args)
        assert not (tmp_path / "same" / "manifest.json").exists()  # not a game played beside the first job
    assert revachol(*args).returncode == 0 and (tmp_path / "same" / "report" / "report.html").exists()
    with job_locked(tmp_path / "same"):  # a first job rebuilding its report, say
        again = revachol(*args)
        checked = revachol("skill-check", str(tmp_path / "same"), "--games", "100")
    for result in (refused, again, checked):
        assert result.returncode == 1 and result.stdout == "", result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"error: {tmp_path / 'same'} is in use by another revachol job, process {os.getpid()}")
    assert not (tmp_path / "same" / "skilled").exists()


def test_simulate_and_report_run_no_code_from_the_working_directory(tmp_path):
    """Issue 66 item 8: the command, its loky workers and the compile helper never import
    a cli.py, sim/ or analysis/ of the folder they are run from."""
    hostile, marker = tmp_path / "hostile", tmp_path / "ran"
    for name in ("cli.py", "sim/__init__.py", "analysis/__init__.py"):
        (hostile / name).parent.mkdir(parents=True, exist_ok=True)
        (hostile / name).write_text(f"open({str(marker)!r}, 'a').write({name!r})\nraise SystemExit(3)\n")
    out = tmp_path / "run"
    played = revachol("simulate", "--cards", str(ROOT / "cards.yaml"), "-n", "400", "--chunk-size", "100", "--jobs", "2",
                      "--quiet", "--out", str(out), cwd=hostile)  # fmt: skip
    read = revachol("report", str(out), "--jobs", "2", "--quiet", cwd=hostile)
    assert played.returncode == 0 and read.returncode == 0, played.stderr + read.stderr
    assert not marker.exists(), marker.read_text()


def test_every_commands_help_shows_each_options_default_as_written():
    """Issue 68 item 7: each option's default, as a user would type it (a number, a
    bot's name, a list joined by commas, a flag's name), is in its command's --help; an
    empty list shows none. Wide, so that no default is wrapped."""
    import typer.main

    from cli import app

    for name, command in typer.main.get_command(app).commands.items():
        text = subprocess.run([sys.executable, "-c", "import cli; cli.app()", name, "--help"], capture_output=True,
                              text=True, cwd=ROOT, env={**os.environ, "TERMINAL_WIDTH": "400"}).stdout  # fmt: skip
        for option in (p for p in command.params if p.param_type_name == "option" and p.name != "help"):
            default = option.default
            if default is None or default == [] or (isinstance(default, bool) and not option.secondary_opts):
                continue  # nothing to show: no default, an empty list, or a flag that is off unless given
            if isinstance(default, bool):
                shown = (option.opts if default else option.secondary_opts)[0].lstrip("-")
            else:
                shown = ", ".join(map(str, default)) if isinstance(default, list) else str(default)
            assert f"[default: {shown}]" in text, (name, option.name, shown)
