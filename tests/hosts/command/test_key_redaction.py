"""A private key in a long output: the window must never show or store its body.

Real subprocesses: the runner on ``sh -c 'cat FILE'`` and ``toolview run
--record``. The key sits where the head/tail window drops its BEGIN line (or
its END line); no body line may reach an observation, the record file, the
spill file or any surface.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from toolview.contract import Observation, ToolResult, decode_observation, encode_observation
from toolview.contract.thread import Thread
from toolview.hosts.command import CommandRunner
from toolview.hosts.command.redacting import StreamRedactor
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.html import render_thread_html

_R = random.Random(2026)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
RUN_ONLY = (
    "import argparse, sys; from toolview.cli import run_cmd; "
    "parser = argparse.ArgumentParser(); run_cmd.register(parser.add_subparsers()); "
    "args = parser.parse_args(sys.argv[1:]); sys.exit(args.handler(args))"
)


def fake_key(lines: int = 25) -> tuple[list[str], list[str]]:
    """A PEM block (fake, random body) and its body lines."""
    rows = ["".join(_R.choice(_B64) for _ in range(64)) for _ in range(lines - 1)]
    rows.append("".join(_R.choice(_B64) for _ in range(20)) + "==")
    block = ["-----BEGIN RSA PRIVATE KEY-----", *rows, "-----END RSA PRIVATE KEY-----"]
    return block, rows


def output_with_key(at: int) -> tuple[str, list[str]]:
    block, rows = fake_key()
    lines = [f"build step {n:05d}: ok" for n in range(10_000)]
    lines[at : at + len(block)] = block
    return "\n".join(lines) + "\n", rows


def leaked(out: str, rows: list[str]) -> list[str]:
    """Body lines of which a 16-character piece is still in ``out``."""
    return [r for r in rows if any(r[i : i + 16] in out for i in range(0, len(r) - 15, 4))]


def surfaces(observations: list[Observation]) -> dict[str, str]:
    thread = Thread.from_observations(observations)
    return {
        "text": text_surface.render_thread(thread),
        "markdown": markdown_surface.render_thread(thread),
        "terminal": terminal_surface.render_thread(thread, width=100, color=True),
        "html": render_thread_html(thread),
    }


# BEGIN at line 9,790: the tail keeps the last 200 lines, body and END but no BEGIN.
# BEGIN at line 190: the head keeps BEGIN and ten body lines, not END.
@pytest.mark.parametrize(("at", "dropped"), [(9_790, "BEGIN"), (190, "END")])
def test_the_runner_never_shows_or_stores_a_key_the_window_cuts(
    at: int, dropped: str, tmp_path: Path
) -> None:
    text, rows = output_with_key(at)
    source = tmp_path / "out.txt"
    source.write_text(text)
    seen: list[Observation] = []
    runner = CommandRunner(
        ["sh", "-c", f"cat '{source}'"], on_observation=seen.append, spill_dir=tmp_path
    )
    summary = runner.run()
    final = summary.result
    assert final is not None and final.descriptor is not None
    assert final.descriptor.truncated is not None  # the window did cut the output
    record = b"\n".join(encode_observation(o) for o in seen).decode()
    assert leaked(record, rows) == [], dropped
    for result in (o for o in seen if isinstance(o, ToolResult)):
        assert leaked(result.text, rows) == []
    assert summary.spill_path is not None
    assert leaked(summary.spill_path.read_text(), rows) == []
    for surface, out in surfaces(seen).items():
        assert leaked(out, rows) == [], surface
        assert "build step 09999: ok" in out, surface  # the output after the key is kept
    assert "build step 00000: ok" in final.text and "lines omitted" in final.text


def test_toolview_run_record_file_holds_no_key_line(tmp_path: Path) -> None:
    text, rows = output_with_key(9_790)
    (tmp_path / "out.txt").write_text(text)
    record = tmp_path / "run.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            RUN_ONLY,
            "run",
            "--record",
            str(record),
            "--",
            "sh",
            "-c",
            "cat out.txt",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert leaked(done.stdout, rows) == [] and "build step 09999: ok" in done.stdout
    stored = record.read_text()
    assert leaked(stored, rows) == []
    observations = [decode_observation(line) for line in record.read_bytes().splitlines()]
    assert any(isinstance(o, ToolResult) and o.complete for o in observations)


def test_a_lone_begin_keeps_the_output_after_its_key_lines(tmp_path: Path) -> None:
    block, rows = fake_key()
    script = "\n".join([*block[:6], "Build finished: 3 passed.", "exit status 0"]) + "\n"
    source = tmp_path / "out.txt"
    source.write_text(script)
    seen: list[Observation] = []
    summary = CommandRunner(["cat", str(source)], on_observation=seen.append).run()
    assert summary.result is not None
    out = summary.result.text
    assert leaked(out, rows) == []
    assert out.endswith("Build finished: 3 passed.\nexit status 0\n")
    for surface, rendered in surfaces(seen).items():
        assert "Build finished: 3 passed." in rendered, surface


@pytest.mark.parametrize("size", [1, 7, 64, 65, 4096])
def test_a_key_split_across_reads_at_any_point_is_hidden(size: int) -> None:
    block, _rows = fake_key()
    raw = ("before\n" + "\n".join(block) + "\nafter: done\n").encode()
    redactor = StreamRedactor()
    out = b"".join(redactor.feed(raw[i : i + size]) for i in range(0, len(raw), size))
    out += redactor.close()
    assert out == b"before\n[redacted: private-key]\nafter: done\n"


def test_held_back_bytes_stay_bounded_without_newlines() -> None:
    redactor = StreamRedactor(hold_limit=1024)
    out = b"".join(redactor.feed(b"word " * 100) for _ in range(200))
    assert redactor.held_bytes <= 1024 + 500
    assert out + redactor.close() == b"word " * 20_000


def test_invalid_utf8_passes_byte_for_byte() -> None:
    redactor = StreamRedactor()
    raw = b"\xff\xfe caf\xc3\xa9 \xc3\nnext\n\xc3"
    assert redactor.feed(raw) + redactor.close() == raw


def test_every_observation_is_redacted_before_it_leaves_the_runner(tmp_path: Path) -> None:
    """Keys are hidden in the stream; every other credential in the shown windows."""
    token = "ghp_" + "".join(_R.choice(_B64[:62]) for _ in range(36))
    source = tmp_path / "out.txt"
    source.write_text(f"export GITHUB_TOKEN={token}\n" + "x\n" * 5_000 + f"again {token}\n")
    seen: list[Observation] = []
    CommandRunner(["cat", str(source)], on_observation=seen.append, spill_dir=tmp_path).run()
    record = b"\n".join(encode_observation(o) for o in seen).decode()
    assert token not in record
    assert record.count("[redacted: github-token]") >= 2


def test_a_progress_bar_redrawn_with_carriage_returns_is_not_held() -> None:
    redactor = StreamRedactor()
    assert redactor.feed(b"10%\r20%\r30%") == b"10%\r20%\r"
    assert redactor.feed(b"\r40%\n") == b"30%\r40%\n"
    assert redactor.held_bytes == 0
