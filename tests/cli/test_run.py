"""``toolview run`` end to end, as a real subprocess: exit codes, guards, Ctrl-C."""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from toolview.contract import RunEnded, ToolCall, ToolRefused, ToolResult, decode_observation

MAIN = "import sys; from toolview.cli import main; sys.exit(main())"
# Only the run command, so each subprocess does not import every other command's runtime.
RUN_ONLY = (
    "import argparse, sys; from toolview.cli import run_cmd; "
    "parser = argparse.ArgumentParser(); run_cmd.register(parser.add_subparsers()); "
    "args = parser.parse_args(sys.argv[1:]); sys.exit(args.handler(args))"
)
RULES = """\
[[rule]]
action = "deny"
tool = "shell"
command = "rm -rf *"
reason = "destructive"

[[rule]]
action = "deny"
tool = "shell"
command = "touch *"
reason = "no new files \\u001b]0;pwned\\u0007 please"
"""


def toolview(*args: str, cwd: Path, entry: str = RUN_ONLY) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", entry, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TMPDIR": str(cwd)},
    )


def records(path: Path) -> list[object]:
    return [decode_observation(line) for line in path.read_bytes().splitlines() if line]


def test_exits_with_the_commands_exit_code(tmp_path: Path) -> None:
    done = toolview("run", "--", "bash", "-c", "echo hello-run; exit 3", cwd=tmp_path, entry=MAIN)
    assert done.returncode == 3
    assert "hello-run" in done.stdout
    assert "\x1b" not in done.stdout  # not a terminal: the final render only, no live frames


def test_a_failed_command_is_drawn_whole_live_and_from_its_record(tmp_path: Path) -> None:
    """Exit code, stdout, stderr apart and labelled, the duration: the command said once."""
    script = "echo out; echo err >&2; exit 3"
    record = tmp_path / "run.jsonl"
    done = toolview("run", "--record", str(record), "--", "sh", "-c", script, cwd=tmp_path)
    assert done.returncode == 3
    body = [f"  $ sh -c '{script}'", "  out", "  stderr:", "  err", "  exit code 3"]
    header, *rest = done.stdout.splitlines()
    assert re.fullmatch(r"✗ Error  shell · \d+(\.\d)? m?s", header), header  # not "shell · shell"
    assert rest == body  # no args line repeating the command
    for surface in ("text", "terminal"):
        shown = toolview("show", "--surface", surface, str(record), cwd=tmp_path, entry=MAIN)
        assert shown.stdout.splitlines()[1:] == body, surface


def test_success_without_double_dash(tmp_path: Path) -> None:
    done = toolview("run", "echo", "-n", "plain", cwd=tmp_path)
    assert done.returncode == 0 and "plain" in done.stdout


def test_a_missing_command_exits_127(tmp_path: Path) -> None:
    done = toolview("run", "--", "toolview-no-such-command-xyz", cwd=tmp_path)
    assert done.returncode == 127 and "toolview-no-such-command-xyz" in done.stdout


def test_no_command_is_a_usage_error(tmp_path: Path) -> None:
    done = toolview("run", cwd=tmp_path)
    assert done.returncode == 2 and "no command" in done.stderr


def test_big_output_names_the_spill_file(tmp_path: Path) -> None:
    done = toolview("run", "--record", "rec.jsonl", "--", "seq", "1", "100000", cwd=tmp_path)
    assert done.returncode == 0
    assert "100000" in done.stdout and len(done.stdout) < 50_000
    final = [o for o in records(tmp_path / "rec.jsonl") if isinstance(o, ToolResult) and o.complete]
    spill = Path(final[0].descriptor.props["spillPath"])  # type: ignore[union-attr]
    assert str(spill) in done.stderr
    assert spill.read_bytes() == b"".join(b"%d\n" % n for n in range(1, 100_001))


def test_a_guard_refuses_and_nothing_runs(tmp_path: Path) -> None:
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    (tmp_path / "build").mkdir()
    done = toolview(
        "run",
        "--guard",
        "rules.toml",
        "--record",
        "rec.jsonl",
        "--",
        "rm",
        "-rf",
        "build",
        cwd=tmp_path,
    )
    assert done.returncode == 126
    assert (tmp_path / "build").is_dir()
    assert "shell" in done.stdout and "refused" in done.stdout.lower()
    assert "rules.toml" in done.stdout and "destructive" in done.stdout
    kinds = [type(o) for o in records(tmp_path / "rec.jsonl")]
    assert ToolCall in kinds and ToolRefused in kinds and ToolResult not in kinds


def test_a_receipt_reason_is_cleaned(tmp_path: Path) -> None:
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    done = toolview("run", "--guard", "rules.toml", "--", "touch", "made", cwd=tmp_path)
    assert done.returncode == 126 and not (tmp_path / "made").exists()
    assert "no new files" in done.stdout
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout


def test_an_allowed_command_runs_under_a_guard(tmp_path: Path) -> None:
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    done = toolview("run", "--guard", "rules.toml", "--", "echo", "allowed", cwd=tmp_path)
    assert done.returncode == 0 and "allowed" in done.stdout


def test_a_broken_guard_runs_nothing_and_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    (tmp_path / "bad.toml").write_text('[[rule]]\naction = "deny"\ntool = "*"\nacton = "x"\n')
    done = toolview(
        "run",
        "--guard",
        "rules.toml",
        "--guard",
        "bad.toml",
        "--",
        "touch",
        "made",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and not (tmp_path / "made").exists()
    assert "bad.toml:1" in done.stderr and "unknown key `acton`" in done.stderr
    syntax = tmp_path / "syntax.toml"
    syntax.write_text('[[rule]]\naction = "deny"\ntool = "*\n')
    done = toolview("run", "--guard", "syntax.toml", "--", "touch", "made", cwd=tmp_path)
    assert done.returncode == 2 and "syntax.toml:3" in done.stderr
    assert not (tmp_path / "made").exists()


def group_alive(pgid: int) -> bool:
    """Is any non-zombie process still in the group?"""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


def test_ctrl_c_aborts_the_run_and_kills_the_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            RUN_ONLY,
            "run",
            "--record",
            "rec.jsonl",
            "--",
            "bash",
            "-c",
            f"echo started; echo $$ > {pid_file}; sleep 30 & sleep 30; wait",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            pid_file.exists() and pid_file.read_text().strip()
        ):
            time.sleep(0.05)
        pgid = int(pid_file.read_text())
        assert group_alive(pgid)
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    deadline = time.monotonic() + 10
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_alive(pgid)
    observed = records(tmp_path / "rec.jsonl")
    run_id, at = observed[0].run_id, observed[-1].at  # type: ignore[attr-defined]
    assert observed[-1] == RunEnded(run_id, "aborted", "interrupted by SIGINT", at=at)
    (final,) = [o for o in observed if isinstance(o, ToolResult) and o.complete]
    assert final.is_error and final.text.endswith("interrupted by SIGINT\n")
    assert "started" in stdout and "interrupted by SIGINT" in stdout


TICKS = ["sh", "-c", "echo tick1; echo tick2; sleep 30"]


def wait_for_record(path: Path, text: str, proc: subprocess.Popen[str]) -> None:
    """Until ``text`` is in a recorded observation (the run's own events, not a sleep)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and any(
            isinstance(o, ToolResult) and text in o.text for o in records(path)
        ):
            return
        time.sleep(0.02)
    raise AssertionError(f"{text!r} never recorded")


def test_an_interrupted_command_is_recorded_with_its_output_and_shown_everywhere(
    tmp_path: Path,
) -> None:
    record = tmp_path / "f.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", MAIN, "run", "--record", str(record), "--", *TICKS],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_record(record, "tick2", proc)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    final = [o for o in records(record) if isinstance(o, ToolResult) and o.complete]
    assert [(r.is_error, r.descriptor.props["exitCode"]) for r in final] == [(True, 130)]  # type: ignore[union-attr]
    for surface in ("text", "terminal", "markdown", "html"):
        shown = toolview("show", "--surface", surface, str(record), cwd=tmp_path, entry=MAIN)
        assert shown.returncode == 0, shown.stderr
        out = shown.stdout
        assert out.index("tick1") < out.index("tick2") < out.index("interrupted by SIGINT")
        assert "Run ended (aborted): interrupted by SIGINT" in out, surface


def test_ctrl_c_as_soon_as_the_call_is_announced_still_records_its_end(tmp_path: Path) -> None:
    """However early the signal lands, the call gets a final result and the run a reason."""
    record = tmp_path / "f.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN_ONLY, "run", "--record", str(record), "--", *TICKS],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (record.exists() and '"kind":"tool-call"' in record.read_text()):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.001)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    *_, final, ended = records(record)
    assert isinstance(final, ToolResult) and final.complete
    assert final.text.endswith("interrupted by SIGINT\n")
    assert isinstance(ended, RunEnded) and ended.reason == "interrupted by SIGINT"


def test_sigterm_records_the_output_so_far_and_exits_143(tmp_path: Path) -> None:
    record = tmp_path / "f.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN_ONLY, "run", "--record", str(record), "--", *TICKS],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_record(record, "tick2", proc)
        proc.send_signal(signal.SIGTERM)
        stdout, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143
    *_, final, ended = records(record)
    assert isinstance(final, ToolResult) and final.text == "tick1\ntick2\ninterrupted by SIGTERM\n"
    assert final.descriptor.props["exitCode"] == 143  # type: ignore[union-attr]
    assert isinstance(ended, RunEnded) and ended.reason == "interrupted by SIGTERM"
    assert "Run ended (aborted): interrupted by SIGTERM" in stdout


def test_on_a_terminal_the_run_is_shown_live(tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            RUN_ONLY,
            "run",
            "--",
            "bash",
            "-c",
            "for i in 1 2 3 4 5; do echo live-$i; sleep 0.2; done; exit 5",
        ],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"},
    )
    os.close(terminal)
    output = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed: every writer is gone
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    assert proc.wait(timeout=60) == 5
    text = output.decode("utf-8", errors="replace")
    assert "Running" in text  # the live indicator, drawn before the final render
    assert text.count("live-5") >= 1 and "live-1" in text


def test_an_unwritable_record_file_runs_nothing(tmp_path: Path) -> None:
    done = toolview(
        "run",
        "--record",
        str(tmp_path / "missing" / "rec.jsonl"),
        "--",
        "touch",
        "made",
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "cannot write" in done.stderr
    assert not (tmp_path / "made").exists()


def test_output_that_looks_like_rich_markup_is_shown_as_is(tmp_path: Path) -> None:
    done = toolview("run", "--", "echo", "[/] [bold]not bold[/bold]", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "[/] [bold]not bold[/bold]" in done.stdout
