"""``toolview mcp`` and ``toolview show --from mcp``, run as a person would."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from toolview.contract import Descriptor, ToolCall, ToolResult, decode_observation

STORED = Path(__file__).parent / "data" / "stored.jsonl"


def toolview(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolview", *args],
        capture_output=True,
        text=True,
        timeout=180,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"},
    )


def test_call_renders_the_result_and_exits_0(time_server: list[str]) -> None:
    done = toolview(
        "mcp", "call", "get_current_time", "--args", '{"timezone": "UTC"}', "--", *time_server
    )
    assert done.returncode == 0, done.stderr
    assert "get_current_time" in done.stdout and '"timezone": "UTC"' in done.stdout
    assert "\x1b" not in done.stdout


def test_call_exits_1_when_the_result_is_an_error(time_server: list[str]) -> None:
    done = toolview(
        "mcp", "call", "get_current_time", "--args", '{"timezone": "Mars/Base"}', "--", *time_server
    )
    assert done.returncode == 1
    assert "Mars/Base" in done.stdout


def test_call_json_prints_observation_json_lines(everything_server: list[str]) -> None:
    done = toolview(
        "mcp",
        "call",
        "trigger-long-running-operation",
        "--json",
        "--args",
        '{"duration": 1, "steps": 2}',
        "--",
        *everything_server,
    )
    assert done.returncode == 0, done.stderr
    observations = [decode_observation(line) for line in done.stdout.splitlines()]
    assert isinstance(observations[0], ToolCall)
    results = [o for o in observations if isinstance(o, ToolResult)]
    assert [r.complete for r in results] == [False, False, True]


def test_server_options_after_the_double_dash_go_to_the_server(git_server: list[str]) -> None:
    done = toolview("mcp", "tools", "--", *git_server, "--verbose")
    assert done.returncode == 0, done.stderr
    assert "git_diff_unstaged" in done.stdout


def test_tools_json_is_a_table_result(time_server: list[str]) -> None:
    done = toolview("mcp", "tools", "--json", "--", *time_server)
    _call, result = (decode_observation(line) for line in done.stdout.splitlines())
    assert isinstance(result, ToolResult) and isinstance(result.descriptor, Descriptor)
    assert result.descriptor.kind == "table"
    assert "get_current_time" in result.text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mcp", "call", "x", "--args", "[1]", "--", "server"], "--args must be a JSON object"),
        (["mcp", "call", "x", "--args", "{oops", "--", "server"], "--args must be a JSON object"),
        (["mcp", "call", "x"], "usage"),
        (["mcp"], "usage"),
    ],
)
def test_bad_usage_exits_2_with_a_message(args: list[str], message: str) -> None:
    done = toolview(*args)
    assert done.returncode == 2 and message in done.stderr


def test_a_server_that_cannot_start_exits_3(tmp_path: Path) -> None:
    done = toolview("mcp", "tools", "--", str(tmp_path / "nope"))
    assert done.returncode == 3 and "cannot start the MCP server" in done.stderr


def test_show_reads_stored_results_by_sniffing_and_by_name() -> None:
    for args in ([str(STORED)], ["--from", "mcp", str(STORED)]):
        done = toolview("show", "--surface", "text", *args)
        assert done.returncode == 0, done.stderr
        for expected in (
            "get-weather",
            "a.txt",
            "[image/png 69 B]",
            "hologram",
            "1 block for the assistant only",
            "copied 3 files",
            "input required",
            "not a boolean",
            "interactive UI ui://tickets/board",
            "MCP error -32602",
        ):
            assert expected in done.stdout, expected
        assert "pwned\x07" not in done.stdout


def test_ctrl_c_ends_the_call_in_flight_with_its_output_so_far(
    everything_server: list[str],
) -> None:
    tool = ["trigger-long-running-operation", "--json", "--args", '{"duration": 60, "steps": 60}']
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolview", "mcp", "call", *tool, "--", *everything_server],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "TERM": "dumb"},
    )
    assert proc.stdout is not None
    try:
        lines = []
        for line in proc.stdout:  # until the first partial result: the call is in flight
            lines.append(line)
            observation = decode_observation(line)
            if isinstance(observation, ToolResult) and not observation.complete:
                proc.send_signal(signal.SIGINT)
                break
        rest, errors = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, errors
    partial = decode_observation(lines[-1])
    final = decode_observation(rest.splitlines()[-1])
    assert isinstance(partial, ToolResult) and isinstance(final, ToolResult)
    assert final.complete and final.is_error
    assert final.text == f"{partial.text.rstrip(chr(10))}\ninterrupted by SIGINT\n"
    assert "Traceback" not in errors
