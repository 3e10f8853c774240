"""``toolview check``: the conformance checker tool authors run in their CI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolview.cli import main

REPO = Path(__file__).parents[2]
GOOD = {"kind": "run-started", "runId": "r1"}
BAD_SHOWN = {
    "kind": "tool-result",
    "toolCallId": "c",
    "toolName": "t",
    "text": "",
    "complete": True,
    "isError": False,
    "descriptor": {
        "kind": "x",
        "props": {},
        "truncated": {"shown": "3", "total": 4, "unit": "lines"},
    },
}


def write_lines(path: Path, *documents: object) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in documents) + "\n", encoding="utf-8")
    return path


def test_conforming_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_lines(
        tmp_path / "ok.jsonl", GOOD, {"kind": "message", "role": "user", "text": "hi"}
    )
    assert main(["check", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "2 observations checked, 0 violations" in captured.err


def test_a_run_ended_reason_must_be_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ended = {"kind": "run-ended", "runId": "r1", "outcome": "aborted"}
    path = write_lines(
        tmp_path / "reasons.jsonl",
        {**ended, "reason": "interrupted by SIGINT"},
        {**ended, "reason": ["not", "text"]},
    )
    assert main(["check", str(path)]) == 1
    (violation,) = capsys.readouterr().out.splitlines()
    assert violation.startswith("line 2: $.reason: Expected `str`")


def test_every_violation_is_reported_with_line_path_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps(GOOD) + "\n" + json.dumps(BAD_SHOWN) + "\n{oops\n" + json.dumps(GOOD) + "\n",
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2
    assert out[0].startswith("line 2: $.descriptor.truncated.shown: Expected `int`, got `str`")
    assert out[1].startswith("line 3: $: malformed JSON")


def test_a_descriptor_without_props_is_a_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    no_props = {**BAD_SHOWN, "descriptor": {"kind": "shell"}}
    path = write_lines(tmp_path / "no-props.jsonl", GOOD, no_props)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["line 2: $.descriptor: Object missing required field `props`"]


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_reads_standard_input_through_the_installed_command() -> None:
    lines = json.dumps(GOOD) + "\n" + json.dumps({"kind": "run-ended", "runId": "r1"}) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "check", "-"],
        input=lines.encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    assert b"line 2: $: Object missing required field `outcome`" in done.stdout


def test_bundled_example_conforms() -> None:
    assert main(["check", str(REPO / "examples" / "thread.jsonl")]) == 0


def test_counts_are_worded_for_one_and_for_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_lines(tmp_path / "one.jsonl", BAD_SHOWN)
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().err.strip() == "1 observation checked, 1 violation"


def test_check_and_show_name_a_broken_line_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b'{"kind":"message","role":"user","text":"cut off\n')
    main(["check", str(path)])
    reason = capsys.readouterr().out.strip().removeprefix("line 1: ")
    main(["show", "--surface", "text", str(path)])
    assert f"line 1 skipped: {reason}" in capsys.readouterr().out


def shell_result(props: dict[str, object], kind: str = "shell") -> dict[str, object]:
    return {**BAD_SHOWN, "descriptor": {"kind": kind, "props": props}}


BAD_PROPS = shell_result({"command": "make", "exitCode": "2", "stdout": "", "stderr": ""})


def test_a_built_in_kind_s_invalid_props_are_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_lines(tmp_path / "props.jsonl", GOOD, BAD_PROPS)
    assert main(["check", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == (
        "line 2: warning: $.descriptor.props.exitCode: shell props: "
        "Expected `int | null`, got `str`\n"
    )
    assert captured.err == "2 observations checked, 0 violations, 1 warning\n"


def test_strict_makes_a_warning_a_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_lines(tmp_path / "props.jsonl", GOOD, BAD_PROPS)
    assert main(["check", "--strict", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("line 2: $.descriptor.props.exitCode: shell props:")
    assert captured.err == "2 observations checked, 1 violation\n"


def test_valid_built_in_props_and_unknown_kinds_are_not_warned_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = shell_result({"command": "make", "exitCode": 2, "stdout": "", "stderr": "x"})
    own = shell_result({"anything": ["goes"]}, kind="acme.widget")
    missing = shell_result({"command": "make"})  # a required field absent
    path = write_lines(tmp_path / "kinds.jsonl", good, own, missing)
    assert main(["check", "--strict", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "line 3: $.descriptor.props: shell props: Object missing required field `exitCode`"
    ]


def test_a_bad_at_is_named_with_its_path_and_a_reason_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed time, one in another zone and one that does not exist: each a violation."""
    message = {"kind": "message", "role": "user", "text": "hi"}
    path = write_lines(
        tmp_path / "at.jsonl",
        {**message, "at": "2026-12-01T23:44:20.5Z"},
        {**message, "at": "2026-12-01 23:44:20"},
        {**message, "at": "2026-12-01T23:44:20+01:00"},
        {**message, "at": "2026-02-31T00:00:00Z"},
        {**message, "at": 1733096660},
    )
    assert main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0:2] for line in lines] == [
        [f"line {n}", "$.at"] for n in (2, 3, 4, 5)
    ]
    assert "not an RFC 3339 time in UTC" in lines[0] and "regex" not in lines[0]
    assert lines[1] == lines[0].replace("line 2", "line 3")
    assert lines[2] == "line 4: $.at: no such date or time (an RFC 3339 time in UTC that exists)"
    assert lines[3] == "line 5: $.at: Expected `str`, got `int`"


def test_usage_observations_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usage = {"kind": "usage", "model": "m", "inputTokens": 1, "outputTokens": 2}
    marked = {**usage, "cacheReadTokens": 5, "at": "2026-12-01T23:44:20Z", "parentCallId": "t1"}
    path = write_lines(tmp_path / "usage.jsonl", GOOD, usage, marked)
    assert main(["check", str(path)]) == 0
    assert "3 observations checked (2 usage), 0 violations" in capsys.readouterr().err
