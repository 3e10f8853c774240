"""``capture(record=, report=)``: the command line's private-file rules, the server's redaction.

A hostile local user plants a link (or a FIFO) where an agent will record; a
hostile tool or model puts a secret in a call id, a tool name, a kind or a
model name. The record and the reports must be 0600 whatever the umask,
never written through a link, never into anything but a regular file, and
carry no secret in any field — the ids made opaque as the server makes them,
so a call still pairs with its result.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import toolview
from toolview.contract import Descriptor, ToolCall, ToolResult, Usage, decode_observation
from toolview.safety.opaque import opaque_id

SECRET = "ghp_" + "Zq7Rw2" * 6
AWS = "AKIA" + "J7Q2" * 4


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.fixture
def no_umask() -> Iterator[None]:
    old = os.umask(0)  # a plain open() would then make 0666 files
    yield
    os.umask(old)


def _capture(record: Path, reports: list[Path]) -> None:
    with toolview.capture(live=False, record=record, report=reports) as rec:
        rec.call("c1", "read", {"path": "a.txt"})
        rec.result("c1", "unredacted-looking output")


def test_record_and_reports_are_0600_with_umask_0(no_umask: None, tmp_path: Path) -> None:
    record, reports = tmp_path / "run.jsonl", [tmp_path / "run.html", tmp_path / "run.md"]
    _capture(record, reports)
    assert record.read_bytes() and all(report.read_bytes() for report in reports)
    assert [_mode(path) for path in (record, *reports)] == [0o600] * 3


def test_links_planted_at_the_record_and_report_paths_are_not_followed(tmp_path: Path) -> None:
    targets = [tmp_path / f"someone-elses-{n}" for n in range(3)]
    paths = [tmp_path / "run.jsonl", tmp_path / "run.html", tmp_path / "run.txt"]
    for target, path in zip(targets, paths, strict=True):
        target.write_bytes(b"theirs\n")
        target.chmod(0o644)
        path.symlink_to(target)
    _capture(paths[0], paths[1:])
    for target, path in zip(targets, paths, strict=True):
        assert target.read_bytes() == b"theirs\n" and _mode(target) == 0o644
        assert not path.is_symlink() and _mode(path) == 0o600 and b"read" in path.read_bytes()


_PROBE = """
import sys, toolview
record, report = sys.argv[1] or None, [sys.argv[2]] if sys.argv[2] else []
try:
    with toolview.capture(live=False, record=record, report=report) as rec:
        rec.call("c1", "read", {})
        rec.result("c1", "done")
except OSError as exc:
    print(f"refused: {exc}", file=sys.stderr)
    sys.exit(3)
"""


def _probe(record: Path | str, report: Path | str) -> subprocess.CompletedProcess[str]:
    """A real process capturing to ``record`` / ``report``; a hang is a failure, not a wait."""
    argv = [sys.executable, "-c", _PROBE, str(record), str(report)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def test_a_fifo_at_the_record_path_is_refused_promptly(tmp_path: Path) -> None:
    fifo = tmp_path / "run.jsonl"
    os.mkfifo(fifo)
    done = _probe(fifo, "")  # before: open() waited for a reader for ever
    assert done.returncode == 3, done.stderr
    assert "is a FIFO" in done.stderr and "regular file" in done.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_folder_or_a_device_at_the_record_path_is_refused(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    for path, what in ((tmp_path / "folder", "a folder"), (Path("/dev/null"), "a device")):
        done = _probe(path, "")
        assert done.returncode == 3 and f"is {what}" in done.stderr, done.stderr


def test_a_fifo_at_a_report_path_is_said_and_nothing_waits(tmp_path: Path) -> None:
    fifo = tmp_path / "run.md"
    os.mkfifo(fifo)
    done = _probe("", fifo)  # a report that cannot be written is said, never raised
    assert done.returncode == 0, done.stderr
    assert f"cannot write the report {fifo}" in done.stderr and "is a FIFO" in done.stderr


def test_secrets_in_ids_names_kinds_and_models_never_reach_the_record(tmp_path: Path) -> None:
    record, report = tmp_path / "run.jsonl", tmp_path / "run.md"
    call_id, other_id = f"call-{SECRET}", f"call-{AWS}"
    with toolview.capture(live=False, record=record, report=[report]) as rec:
        rec.call(call_id, f"deploy {SECRET}", {})
        rec.result(call_id, "ok", descriptor=Descriptor(f"x.{AWS}", {}))
        rec.call(other_id, "t", {})
        rec.result(other_id, "ok")
        rec.usage(model=f"model-{SECRET}", input_tokens=1, output_tokens=1)
    written = record.read_text() + report.read_text()
    assert SECRET not in written and AWS not in written
    seen = [decode_observation(line) for line in record.read_bytes().splitlines()]
    calls = [o for o in seen if isinstance(o, ToolCall)]
    results = [o for o in seen if isinstance(o, ToolResult)]
    assert [c.tool_call_id for c in calls] == [opaque_id(call_id), opaque_id(other_id)]
    assert [r.tool_call_id for r in results] == [c.tool_call_id for c in calls]  # still paired
    assert "[redacted" in calls[0].tool_name and isinstance(results[0].descriptor, Descriptor)
    assert "[redacted" in results[0].descriptor.kind
    assert [u.model for u in seen if isinstance(u, Usage)] == ["model-[redacted: github-token]"]
    assert all(rec.thread.state(call) == "done" for call in rec.thread.calls())
    found = rec.call_entry(call_id)  # an adapter finds the call by the id it gave
    assert found is not None and found.tool_call_id == opaque_id(call_id)
