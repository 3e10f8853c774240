"""Agent sessions: toolview and the two session viewers, side by side on the same Claude Code files.

Run: ``.venv/bin/python bench/sessions.py [--quick] [--inputs real,5000,50mb] [--only ROWS]
[--before 'env PYTHONPATH=/old/src python -m toolview']``
(the peers come with ``pip install -e '.[bench]'``; a peer not installed is left out).

Three Claude Code sessions: a real one (``--real FILE``, default the largest
main session under ``tests/hosts/claude_code/real``, written by the real CLI
2.1.197; repeated to ~1 MB when smaller), and two built by
``bench/session_repeat.py`` from every real session there, repeated with
fresh ids and moving timestamps: 5,000 tool calls, and ~50 MB. Each row runs
in a child process as a user runs it — ``toolview show --from claude-code
--surface html|text FILE`` with stdout read through a pipe;
``claude-code-log FILE -o out.html|out.md --no-cache`` (serial:
``CLAUDE_CODE_LOG_RENDER_JOBS=1``); ``claude-code-transcripts json FILE -o
DIR`` — and, when it exits, its CPU (user + sys from ``os.wait4``: waiting for
a busy core does not count), peak RSS (``ru_maxrss``), output bytes (what
toolview wrote to stdout; the files a peer wrote) and the fake credentials
planted in the real session that its output shows (AWS key ids, ``ghp_``
tokens) are read; for toolview also the time from the start to its first
byte on stdout. Bytecode is cached for every child as for an installed
package; one warm-up round, then the rows take turns; each figure is the
median of 3 runs (``--quick``: 1).

Targets (issue 23, after issue 14's "no more than"): toolview html uses at
most half the CPU of the faster peer on each session, text and markdown a
third; toolview's peak RSS ≤ 150 MiB on the ~50 MB session (it grows with the
largest call, not the session); ``show`` writes its first byte within a
second on every session. Exits 1 when one is missed (``--before`` rows are
printed, never checked). Not the same work: toolview redacts secrets,
neutralizes terminal controls and
markup, and highlights code; the peers redact and neutralize nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from session_repeat import REAL, main_sessions, write_repeated  # a sibling script

BIN = Path(sys.executable).parent
RSS_TARGET_MIB = 150
FIRST_BYTE_TARGET_S = 1.0
CPU_SHARE = {"html": 1 / 2, "text": 1 / 3, "markdown": 1 / 3}  # of the faster peer's (issue 23)
# the shapes of the fake credentials planted in the real session (an AWS key id, a GitHub token)
SECRETS = re.compile(rb"AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}")
TOOL_USE = re.compile(rb'"type":\s*"tool_use"')
SHOW_FLAGS = ["show", "--from", "claude-code", "--surface"]  # + html|text FILE

Argv = Callable[[Path, Path], list[str]]  # (session, out dir) -> argv


@dataclass(frozen=True)
class Row:
    """One thing to measure: its name, its command, whether its stdout is its output."""

    name: str
    command: Argv
    toolview: bool = False


def toolview_rows(exe: list[str], name: str = "toolview") -> list[Row]:
    """``toolview show`` on html, text and markdown, reading the Claude Code file itself
    (``name``: the rows' name, e.g. ``toolview before`` for another tree in the same run)."""

    def row(surface: str) -> Row:
        return Row(f"{name} {surface}", lambda s, o: [*exe, *SHOW_FLAGS, surface, str(s)], True)

    return [row("html"), row("text"), row("markdown")]


def peer_rows() -> list[Row]:
    """The peers that are installed."""
    rows = []
    ccl, cct = BIN / "claude-code-log", BIN / "claude-code-transcripts"
    if ccl.exists():
        for fmt in ("html", "md"):
            argv = _ccl(str(ccl), fmt)
            rows.append(Row(f"claude-code-log {fmt}", argv))
    if cct.exists():
        rows.append(Row("claude-code-transcripts html", _cct(str(cct))))
    return rows


def _ccl(exe: str, fmt: str) -> Argv:
    return lambda s, o: [exe, str(s), "-o", str(o / f"ccl.{fmt}"), "--no-cache"]


def _cct(exe: str) -> Argv:
    return lambda s, o: [exe, "json", str(s), "-o", str(o / "cct")]


@dataclass(frozen=True)
class Usage:
    """What one child used and wrote."""

    cpu: float  # seconds, user + sys
    rss_mib: float
    out_bytes: int
    first_s: float  # seconds to the first stdout byte (nan for a peer)
    secrets: int  # credentials in the output (fake ones, planted in the real session)


def child_env(work: Path) -> dict[str, str]:
    """The children's environment: bytecode cached (under ``work``) as for an installed
    package, whatever ``PYTHONDONTWRITEBYTECODE`` says — an editable checkout is not charged
    for compiling its sources on every run — and claude-code-log serial."""
    env = dict(os.environ, HOME=str(work / "home"), PYTHONPYCACHEPREFIX=str(work / "pyc"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env | {"CLAUDE_CODE_LOG_RENDER_JOBS": "1", "NO_COLOR": "1"}


def run_child(row: Row, argv: list[str], out: Path, env: dict[str, str]) -> Usage:
    """Run ``argv``, stdout read through a pipe into a file; its own rusage from ``os.wait4``."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    first, seen = float("nan"), 0
    with (out / "stdout").open("wb") as sink, (out / "stderr").open("wb") as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, env=env)
        assert child.stdout is not None
        while chunk := child.stdout.read1(1 << 16):
            if not seen:
                first = time.perf_counter() - start
            seen += len(chunk)
            sink.write(chunk)
        _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        tail = (out / "stderr").read_text(errors="replace")[-2000:]
        raise SystemExit(f"{row.name} exited {os.waitstatus_to_exitcode(status)}: {tail}")
    files = [out / "stdout"] if row.toolview else _written(out)
    written = sum(p.stat().st_size for p in files)
    secrets = sum(count_in(p, SECRETS) for p in files)
    cpu = usage.ru_utime + usage.ru_stime
    first = first if row.toolview else float("nan")
    return Usage(cpu, usage.ru_maxrss / 1024, written, first, secrets)


def count_in(path: Path, pattern: re.Pattern[bytes]) -> int:
    """Matches of ``pattern`` in the file, read 1 MiB at a time (a match is < 200 bytes).

    Why not ``read_bytes``: this process's own peak RSS is where every child's
    starts (Linux counts the parent's pages a child had before ``exec`` in its
    ``ru_maxrss``), so the bench never holds a whole output or session.
    """
    found, tail = 0, b""
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            data = tail + chunk
            limit = len(data) - 200  # a match starting before this is whole in ``data``
            ends = [m.end() for m in pattern.finditer(data) if m.start() < limit]
            found += len(ends)
            tail = data[max(0, limit, *ends) :]
    return found + len(pattern.findall(tail))


def _written(out: Path) -> list[Path]:
    """The files a peer wrote (not the captured stdout and stderr)."""
    skip = {out / "stdout", out / "stderr"}
    return [p for p in out.rglob("*") if p.is_file() and p not in skip]


def make_inputs(names: list[str], real: Path | None, work: Path) -> dict[str, Path]:
    """The sessions to measure, by label: real, repeated to 5,000 calls, ~50 MB."""
    sources = main_sessions(REAL)
    if not sources and real is None:
        raise SystemExit(f"no real Claude Code session under {REAL} (give --real FILE)")
    sources = sources or [real]
    inputs: dict[str, Path] = {}
    for name in names:
        folder = work / "in" / name / "projects" / "-bench-sessions"
        if name == "real":
            chosen = real or max(sources, key=lambda p: p.stat().st_size)
            if chosen.stat().st_size >= 500_000:
                inputs["real"] = chosen
            else:
                inputs["real ×n (1 MB)"] = write_repeated([chosen], folder, mb=1)
        elif name.endswith("mb"):
            inputs[f"{name[:-2]} MB"] = write_repeated(sources, folder, mb=float(name[:-2]))
        else:
            inputs[f"{int(name):,} calls"] = write_repeated(sources, folder, calls=int(name))
    return inputs


Results = dict[tuple[str, str], Usage]


def measure(rows: list[Row], inputs: dict[str, Path], runs: int, work: Path) -> Results:
    """Median usage of every row on every input; rows take turns within a run, after one
    warm-up round on the first input (bytecode written, files in the page cache)."""
    env = child_env(work)
    first = next(iter(inputs.values()))
    for row in rows:
        out = work / "out" / row.name.replace(" ", "-")
        run_child(row, row.command(first, out), out, env)
    samples: dict[tuple[str, str], list[Usage]] = {}
    for _ in range(runs):
        for label, session in inputs.items():
            for row in rows:
                out = work / "out" / row.name.replace(" ", "-")
                got = run_child(row, row.command(session, out), out, env)
                samples.setdefault((row.name, label), []).append(got)
                print(f"  {row.name} on {label}: {got.cpu:.2f} s, {got.rss_mib:,.0f} MiB",
                      file=sys.stderr)  # fmt: skip
    return {key: _median(values) for key, values in samples.items()}


def _median(values: list[Usage]) -> Usage:
    def mid(field: Callable[[Usage], float]) -> float:
        return statistics.median(field(v) for v in values)

    return Usage(mid(lambda u: u.cpu), mid(lambda u: u.rss_mib), int(mid(lambda u: u.out_bytes)),
                 mid(lambda u: u.first_s), values[0].secrets)  # fmt: skip


def report(rows: list[Row], inputs: dict[str, Path], got: Results) -> bool:
    """Print a table per session and the ratios; whether every toolview target is met."""
    ok = True
    peers = [row for row in rows if not row.toolview]
    for label, session in inputs.items():
        calls = count_in(session, TOOL_USE)
        print(f"\n{label}: {session.stat().st_size / 1e6:,.1f} MB, {calls:,} tool calls")
        print(f"| {'row':<30} | {'CPU s':>7} | {'peak RSS':>9} | {'output':>9} | first byte "
              "| secrets shown |")  # fmt: skip
        print(f"| {'-' * 30} | {'-' * 7} | {'-' * 9} | {'-' * 9} | {'-' * 10} | {'-' * 13} |")
        for row in rows:
            u = got[row.name, label]
            first = f"{u.first_s:.2f} s" if row.toolview else ""
            print(f"| {row.name:<30} | {u.cpu:>7.2f} | {u.rss_mib:>5,.0f} MiB "
                  f"| {u.out_bytes / 1e6:>6.2f} MB | {first:>10} | {u.secrets:>13,} |")  # fmt: skip
        ok &= _ratios(rows, peers, label, got)
    return ok


def _ratios(rows: list[Row], peers: list[Row], label: str, got: Results) -> bool:
    """Print toolview's CPU and RSS over the faster peer's; whether the targets hold."""
    ok = True
    fast = min(peers, key=lambda r: got[r.name, label].cpu) if peers else None
    for row in (r for r in rows if r.toolview):
        u = got[row.name, label]
        checks = [u.first_s <= FIRST_BYTE_TARGET_S]
        line = f"{row.name}: first byte {u.first_s:.2f} s (≤ {FIRST_BYTE_TARGET_S:g} s)"
        if fast is not None:
            peer = got[fast.name, label]
            share = CPU_SHARE[row.name.rsplit(" ", 1)[-1]]
            checks.append(u.cpu <= peer.cpu * share)
            line += f", CPU ×{u.cpu / peer.cpu:.2f} and RSS ×{u.rss_mib / peer.rss_mib:.2f}"
            line += f" of {fast.name} (the faster peer here; target CPU ×≤ {share:.2g})"
        if label.endswith("MB") and not label.startswith("real"):
            checks.append(u.rss_mib <= RSS_TARGET_MIB)
            line += f"; peak RSS {u.rss_mib:,.0f} MiB (≤ {RSS_TARGET_MIB})"
        print(line + ("" if all(checks) else "  MISSED"))
        ok &= all(checks) or row.name.startswith("toolview before")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run instead of the median of 3")
    parser.add_argument("--inputs", default="real,5000,50mb", help="real, N calls, N mb")
    parser.add_argument("--real", type=Path, default=None, help="the real session to use")
    parser.add_argument("--only", default=None, help="comma-separated row names' starts")
    parser.add_argument(
        "--toolview",
        default=str(BIN / "toolview"),
        help="the toolview command (e.g. 'env PYTHONPATH=/tmp/old/src python -m toolview')",
    )
    parser.add_argument(
        "--before",
        default=None,
        help="another toolview command measured in the same run, as 'toolview before' rows",
    )
    args = parser.parse_args()
    rows = toolview_rows(shlex.split(args.toolview))
    if args.before:
        rows += toolview_rows(shlex.split(args.before), "toolview before")
    rows += peer_rows()
    if args.only:
        rows = [r for r in rows if r.name.startswith(tuple(args.only.split(",")))]
    with tempfile.TemporaryDirectory(prefix="bench-sessions-") as tmp:
        inputs = make_inputs(args.inputs.split(","), args.real, Path(tmp))
        got = measure(rows, inputs, 1 if args.quick else 3, Path(tmp))
        ok = report(rows, inputs, got)
    floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n(this process peaked at {floor:,.0f} MiB: no child's peak RSS can read lower.)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
