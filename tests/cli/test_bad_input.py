"""No command prints a traceback: every subcommand, fed bad input, says one line and exits
with its documented code (README, "Exit codes").

Each case runs the real ``python -m toolview`` (a traceback only shows in a real
process) and asserts the exit code, a line starting ``toolview`` that names the
problem, and no "Traceback". Unwritable places are a path under a regular *file*
and ``/proc``: tests may run as root, whom permissions do not stop.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BOM = b"\xef\xbb\xbf"
RUN_STARTED = b'{"kind":"run-started","runId":"r"}\n'
MESSAGE = b'{"kind":"message","role":"user","text":"hello there"}\n'


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """A folder of bad inputs: a directory, a binary file, a BOM, an empty file, a file."""
    (tmp_path / "adir").mkdir()
    (tmp_path / "binary.dat").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00junk\n")
    (tmp_path / "bom.jsonl").write_bytes(BOM + MESSAGE)
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "file.txt").write_text("a regular file\n")
    return tmp_path


def toolview(cwd: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolview", *words],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "TOOLVIEW_PI_BIN": "", "HOME": str(cwd)},
    )


SERVE_NOTES = ("toolview: no token:", "toolview: threads are kept in")

# (words, exit code, what the last stderr line — the message — says)
ERRORS = [
    (["schema", "--write", "file.txt/sub"], 2, "toolview: cannot write the schemas into"),
    (["schema", "--write", "/proc/toolview-test"], 2, "toolview: cannot write the schemas into"),
    (["check", "adir"], 2, "toolview: cannot read adir: Is a directory"),
    (["check", "missing.jsonl"], 2, "toolview: cannot read missing.jsonl: No such file"),
    (["check", "binary.dat"], 2, "toolview: binary.dat is binary (a NUL byte at offset 7)"),
    (["show", "adir"], 2, "toolview: adir holds no session"),  # a folder: its sessions
    (["show", "file.txt"], 2, "toolview: cannot tell the input's format"),
    (["show", "nosuchid"], 2, "toolview: cannot read nosuchid: no such file, nor a session id"),
    (["show", "--follow", "adir"], 2, "toolview: cannot follow adir: not a file"),
    (["sessions", "--claude", "file.txt"], 2, "toolview: cannot read file.txt: not a folder"),
    (["show", "missing.jsonl"], 2, "toolview: cannot read missing.jsonl"),
    (["show", "binary.dat"], 2, "toolview: binary.dat is binary"),
    (["run", "--record", "adir", "--", "true"], 2, "toolview run: cannot write adir"),
    (["run", "--record", "file.txt/sub", "--", "true"], 2, "toolview run: cannot write"),
    (["run", "--guard", "binary.dat", "--", "true"], 2, "toolview run: broken guard"),
    (["run", "--guard", "adir", "--", "true"], 2, "toolview run: broken guard"),
    (["run", "--guard", "bom.jsonl", "--", "true"], 2, "toolview run: broken guard"),
    (["run", "--to", "not-a-url", "--", "true"], 2, "toolview run: not a thread URL"),
    (["pi", "--prompt", "hi", "--to", "not-a-url"], 2, "toolview pi: not a thread URL"),
    (["mcp", "call", "x", "--args", "[1]", "--", "true"], 2, "toolview mcp: --args must be"),
    (["mcp", "call", "x", "--guard", "adir", "--", "true"], 2, "toolview mcp: broken guard"),
    (["mcp", "tools", "--", "/nonexistent/server"], 3, "toolview mcp: cannot start"),
    (["serve", "--port", "99999"], 2, "toolview serve: error: argument --port: 99999 is not"),
    (["serve", "--db", "no/such/x.db"], 2, "toolview: cannot open the log no/such/x.db: the"),
    (["serve", "--db", "adir"], 2, "toolview: cannot open the log SQLite adir: Is a dir"),
    (["serve", "--db", "binary.dat"], 2, "toolview: cannot open the log SQLite binary.dat"),
    (["serve", "--db", "x.db", "--load", "adir"], 2, "toolview: cannot read adir"),
    (["serve", "--db", "x.db", "--load", "binary.dat"], 2, "toolview: binary.dat: line 1"),
    (["serve", "--token-file", "missing"], 2, "toolview: cannot read the token file"),
    (["show", "--surfce", "text"], 2, "(did you mean --surface?)"),
]


@pytest.mark.parametrize(
    ("words", "code", "says"), ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_bad_input_is_one_line_and_a_documented_code(
    inputs: Path, words: list[str], code: int, says: str
) -> None:
    done = toolview(inputs, *words)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert done.returncode == code, done.stderr
    *before, message = done.stderr.strip().splitlines()
    assert message.startswith("toolview") and says in message, done.stderr
    for line in before:  # nothing else but argparse's usage or serve's start-up notes
        assert line.startswith(("usage:", " ", *SERVE_NOTES)), done.stderr


def test_pi_missing_says_how_to_install_it(inputs: Path) -> None:
    done = toolview(inputs, "pi", "--prompt", "hi")
    assert done.returncode == 127 and "Traceback" not in done.stderr
    assert done.stderr.startswith("toolview: pi is not installed")


def test_serve_creates_no_folder_for_its_db(inputs: Path) -> None:
    toolview(inputs, "serve", "--db", "no/such/x.db")
    assert not (inputs / "no").exists()


@pytest.mark.parametrize("surface", ["text", "markdown", "terminal", "html"])
def test_show_reads_past_a_byte_order_mark(inputs: Path, surface: str) -> None:
    done = toolview(inputs, "show", "--surface", surface, "bom.jsonl")
    assert done.returncode == 0 and done.stderr == ""
    assert "hello there" in done.stdout and "skipped" not in done.stdout


def test_show_of_an_empty_file_says_so(inputs: Path) -> None:
    done = toolview(inputs, "show", "--surface", "text", "empty.jsonl")
    assert (done.returncode, done.stdout) == (0, "note: the input held no observations\n")


def test_check_warns_of_a_byte_order_mark_and_strict_counts_it(inputs: Path) -> None:
    done = toolview(inputs, "check", "bom.jsonl")
    assert done.returncode == 0
    assert done.stdout.startswith("line 1: warning: $: a UTF-8 byte order mark starts")
    assert done.stderr == "1 observation checked, 0 violations, 1 warning\n"
    strict = toolview(inputs, "check", "--strict", "bom.jsonl")
    assert strict.returncode == 1 and strict.stdout.startswith("line 1: $: a UTF-8 byte")
    assert strict.stderr == "1 observation checked, 1 violation\n"


def test_check_of_an_empty_file_checks_nothing(inputs: Path) -> None:
    done = toolview(inputs, "check", "empty.jsonl")
    assert (done.returncode, done.stderr) == (0, "0 observations checked, 0 violations\n")


def test_check_reads_the_lines_show_reads(inputs: Path) -> None:
    (inputs / "two.jsonl").write_bytes(RUN_STARTED + BOM + MESSAGE)  # a BOM mid-file is data
    done = toolview(inputs, "check", "two.jsonl")
    assert done.returncode == 1 and done.stdout.startswith("line 2: $: malformed JSON")


@pytest.mark.parametrize(("command", "code"), [("./adir", 126), ("./no-such-command", 127)])
def test_run_of_what_cannot_run_exits_like_a_shell(inputs: Path, command: str, code: int) -> None:
    done = toolview(inputs, "run", "--", command)
    assert done.returncode == code and "Traceback" not in done.stderr
    assert f"cannot run '{command}'" in done.stdout
