"""``toolview show``: every surface from the example thread, broken lines made visible."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toolview.cli import main, sources
from toolview.cli.jsonl import Skipped
from toolview.cli.sources import Source, SourceError, detect, load

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "examples" / "thread.jsonl"
TOOLVIEW = Path(sys.executable).parent / "toolview"
SGR = re.compile(r"\x1b\[[0-9;]*m")
TOOLS = ("bash", "read", "edit", "config", "query", "web_search", "screenshot", "notes", "lookup")


def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["show", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("surface", ["text", "terminal", "markdown"])
def test_the_example_renders_every_kind(surface: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = show(capsys, "--surface", surface, "--no-color", str(EXAMPLE))
    assert code == 0
    for tool in TOOLS:
        assert tool in out.replace("\\_", "_"), tool
    assert "no renderer for kind 'acme" in out
    assert "ValueError: tests failed" in out and "File" not in out.split("make test")[1][:200]
    assert "9,900 more lines (9,000 not in the result)" in out
    assert "Running" in out or "running" in out
    assert "Not found" in out and "E_MISSING" in out.replace("\\_", "_")
    assert "\x1b" not in out


def test_the_example_as_a_standalone_page(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = show(capsys, "--surface", "html", str(EXAMPLE))
    if code == 2 and "not available" in err:
        pytest.skip("the html surface is not installed")
    assert code == 0
    assert out.lstrip().lower().startswith("<!doctype html")
    assert "Content-Security-Policy" in out and "<script" not in out.lower()


def test_colour_on_writes_only_sgr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = show(capsys, "--surface", "terminal", "--color", "--width", "60", str(EXAMPLE))
    assert code == 0 and "\x1b[" in out
    assert "\x1b" not in SGR.sub("", out)


def test_broken_lines_become_visible_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        json.dumps({"kind": "tool-call", "toolCallId": "c1", "toolName": "bash", "args": {}}),
        "{not json",
        json.dumps({"kind": "tool-call", "toolCallId": "", "toolName": "x", "args": {}}),
        json.dumps(
            {
                "kind": "tool-result",
                "toolCallId": "c1",
                "toolName": "bash",
                "text": "the output",
                "complete": True,
                "isError": False,
                "descriptor": {
                    "kind": "shell",
                    "props": {},
                    "truncated": {"shown": "3", "total": 9, "unit": "lines"},
                },
            }
        ),
        json.dumps({"kind": "message", "role": "assistant", "text": "after"}),
    ]
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = show(capsys, "--surface", "text", str(path))
    assert code == 0
    assert "note: line 2 skipped: $: malformed JSON" in out
    assert "note: line 3 skipped: $.toolCallId:" in out
    assert "malformed descriptor ($.descriptor.truncated.shown:" in out
    assert "the output" in out and "Assistant: after" in out


def test_stdin_is_read_with_a_dash() -> None:
    completed = subprocess.run(
        [str(TOOLVIEW), "show", "--surface", "markdown", "-"],
        input=EXAMPLE.read_bytes(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert b"### \xe2\x9c\x93 bash" in completed.stdout


def test_a_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = show(capsys, "/nonexistent/thread.jsonl")
    assert code == 2 and out == "" and "cannot read /nonexistent/thread.jsonl" in err


def test_a_bad_width_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["show", "--width", "abc", str(EXAMPLE)])
    assert "not a number" in capsys.readouterr().err


@pytest.mark.parametrize("surface", ["text", "terminal", "markdown"])
def test_an_empty_input_says_so(
    surface: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty.jsonl").write_bytes(b"\n")
    code, out, _ = show(capsys, "--surface", surface, str(tmp_path / "empty.jsonl"))
    assert code == 0 and "the input held no observations" in out


def test_detection_prefers_observations_and_tolerates_absent_sources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def gone() -> Source:
        import toolview.nowhere  # noqa: F401 - a host this installation lacks

        raise AssertionError("the import above fails")

    monkeypatch.setitem(sources.SOURCES, "gone", gone)
    data = EXAMPLE.read_bytes()
    assert detect(data) == "toolview"
    assert detect(b"no source's format\n") is None  # every sniffer asked, "gone" too
    assert detect(b"\n \n") == "toolview"  # nothing on it: an empty thread, said so
    with pytest.raises(SourceError, match="not available"):
        load(data, "gone")
    with pytest.raises(SourceError, match="unknown source"):
        load(data, "nope")


def test_input_no_source_reads_is_an_error_not_a_page_of_notes() -> None:
    with pytest.raises(SourceError, match="cannot tell the input's format"):
        load(b"junk\n\n{}\n", "auto")


def test_unreadable_observations_still_load_as_skipped_lines() -> None:
    items = load(b"junk\n\n{}\n", "toolview")
    assert [type(item) for item in items] == [Skipped, Skipped]
    assert str(items[0]).startswith("line 1 skipped: $: malformed JSON")
    assert str(items[1]).startswith("line 3 skipped:")


def test_a_missing_html_surface_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "toolview.render.html", None)  # import now fails
    code, out, err = show(capsys, "--surface", "html", str(EXAMPLE))
    assert code == 2 and out == "" and "the html surface is not available" in err


def test_an_input_of_run_events_only_says_what_it_held(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "runs.jsonl").write_text(
        '{"kind":"run-started","runId":"r1"}\n'
        '{"kind":"run-ended","runId":"r1","outcome":"completed"}\n'
    )
    code, out, _ = show(capsys, "--surface", "text", str(tmp_path / "runs.jsonl"))
    assert code == 0
    assert "the input held 2 observations but no tool call or message to draw" in out


def agent_session(tmp_path: Path, calls: int) -> Path:
    """A JSON Lines thread: an Agent call whose sub-agent runs ``calls`` calls (``line N``)."""
    lines = [{"kind": "tool-call", "toolCallId": "agent", "toolName": "Agent", "args": {}}]
    for n in range(calls):
        mark = {"parentCallId": "agent"}
        lines.append({"kind": "tool-call", "toolCallId": f"s{n}", "toolName": "Bash",
                      "args": {"command": f"echo {n}"}} | mark)  # fmt: skip
        lines.append({"kind": "tool-result", "toolCallId": f"s{n}", "toolName": "Bash",
                      "text": f"line {n}", "complete": True, "isError": False})  # fmt: skip
    lines.append({"kind": "tool-result", "toolCallId": "agent", "toolName": "Agent",
                  "text": "done", "complete": True, "isError": False})  # fmt: skip
    path = tmp_path / "agent.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def drawn_lines(out: str) -> list[int]:
    return sorted({int(n) for n in re.findall(r"line (\d+)\b", out)})


@pytest.mark.parametrize("surface", ["html", "markdown", "text"])
def test_an_export_draws_every_entry_of_a_sub_agent_unless_cut(
    surface: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = str(agent_session(tmp_path, 80))
    code, out, _ = show(capsys, "--surface", surface, session)
    assert code == 0
    assert drawn_lines(out) == list(range(80)) and "more item" not in out
    code, out, _ = show(capsys, "--surface", surface, "--max-sub-entries", "5", session)
    assert code == 0
    assert drawn_lines(out) == list(range(5)) and "… 75 more items of the sub-agent" in out
    code, out, _ = show(capsys, "--surface", surface, "--depth", "0", session)
    assert code == 0
    assert drawn_lines(out) == [] and "sub-agent: 80 calls (cut at depth 0)" in out


def test_a_bad_sub_entries_count_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["show", "--max-sub-entries", "-1", str(EXAMPLE)])
    assert "must be at least 0" in capsys.readouterr().err


def long_outputs(tmp_path: Path, rows: int) -> Path:
    """A thread of a Bash and a Read call, each printing ``rows`` lines (``row TOOL N``)."""
    lines: list[dict[str, object]] = []
    for n, (tool, args) in enumerate([("Bash", {"command": "seq 50"}),
                                      ("Read", {"file_path": "/tmp/x.txt"})]):  # fmt: skip
        lines.append({"kind": "tool-call", "toolCallId": f"c{n}", "toolName": tool, "args": args})
        text = "".join(f"row {tool} {i}\n" for i in range(rows))
        lines.append({"kind": "tool-result", "toolCallId": f"c{n}", "toolName": tool,
                      "text": text, "complete": True, "isError": False})  # fmt: skip
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("surface", ["text", "terminal", "markdown"])
def test_max_lines_bounds_every_output(
    surface: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = str(long_outputs(tmp_path, 50))
    code, out, _ = show(capsys, "--surface", surface, "--no-color", "--max-lines", "5", session)
    assert code == 0
    for tool in ("Bash", "Read"):
        assert sorted(int(n) for n in re.findall(rf"row {tool} (\d+)", out)) == list(range(5))
    assert out.count("45 more lines") == 2
    code, out, _ = show(capsys, "--surface", surface, "--no-color", session)
    assert code == 0 and len(re.findall(r"row Bash \d+", out)) == 50


def test_a_bad_max_lines_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["show", "--max-lines", "0", str(EXAMPLE)])
    assert "must be at least 1" in capsys.readouterr().err
