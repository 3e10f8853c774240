"""Every call in every export: toolview before and after, side by side on the same sessions.

Run: ``.venv/bin/python bench/export_whole.py --before 'CMD' [--runs 3] [--inputs 5000,50mb]``
(``--before``: the toolview command to compare with, e.g. an older checkout's
``/work/wt/base/.venv/bin/toolview``; default: this one alone).

Why: a standalone page, a Markdown or a text file has no server behind it,
so what it does not draw cannot be seen at all. Before issue 23 (target 2) a
sub-agent's entries past its first 50 were only counted ("… 756 more items of
the sub-agent"); now every one is drawn unless the user cuts. This bench runs
``toolview show --from claude-code --surface html|markdown|text FILE`` on the
sessions ``bench/sessions.py`` builds (5,000 calls, ~50 MB: real Claude Code
sessions repeated), each row in a child process measured as that bench does
(CPU user + sys from ``os.wait4``, peak RSS, output bytes; median of the
runs), and reads in each output how many calls it drew (html: the
``<article>`` of each call, the thread's and the sub-agents') and how many
sub-agent entries it only counted. Targets: nothing only counted; peak RSS ≤
150 MiB on the ~50 MB session (streamed as before). Exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import statistics
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sessions import BIN, RSS_TARGET_MIB, TOOL_USE, Row, child_env, count_in, make_inputs, run_child

SURFACES = ("html", "markdown", "text")
ARTICLE = re.compile(rb'<article class="tv-call[^"]*" id="tv-(?:sub)?call-')
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TOOL_ID = re.compile(r"toolu_[A-Za-z0-9_]{4,}")
LEFT = re.compile(rb"\xe2\x80\xa6 ([0-9,]+) more items? of the sub-agent")  # "… N more items"


def rows(label: str, exe: list[str]) -> list[Row]:
    def row(surface: str) -> Row:
        flags = ["show", "--from", "claude-code", "--surface", surface]
        return Row(f"{label} {surface}", lambda s, o: [*exe, *flags, str(s)], True)

    return [row(surface) for surface in SURFACES]


def lengthen(session: Path, agents: int, calls: int) -> int:
    """Make the first ``agents`` sub-agents of ``session`` run ``calls`` calls each: a
    sub-agent's call and its result again and again, with fresh ids, chained in order.

    Why: the real sessions' sub-agents are short (one call); the long ones of real work
    (the issue's held-out sessions: 756 entries past the first 50) are what an export cut.
    Returns the calls added."""
    added = 0
    for path in sorted((session.parent / session.stem / "subagents").glob("*.jsonl"))[:agents]:
        lines = path.read_text().splitlines(keepends=True)
        pair = [i for i, line in enumerate(lines) if '"tool_use"' in line or "tool_result" in line]
        if len(pair) < 2:
            continue
        first, last = pair[0], pair[-1]
        body = "".join(lines[first : last + 1])
        ids = set(UUID.findall(body)) | set(TOOL_ID.findall(body))
        chain, previous = [], _uuid_of(lines[last])
        for n in range(calls - 1):
            piece = body
            for old in ids:
                piece = piece.replace(old, f"{old[:-6]}{n:06d}" if old.startswith("toolu") else
                                      str(uuid.uuid5(uuid.NAMESPACE_OID, f"{old}{n}")))  # fmt: skip
            piece = piece.replace(f'"parentUuid":"{_parent_of(lines[first])}"',
                                  f'"parentUuid":"{previous}"', 1)  # fmt: skip
            previous = str(uuid.uuid5(uuid.NAMESPACE_OID, f"{_uuid_of(lines[last])}{n}"))
            chain.append(piece)
            added += 1
        rest = "".join(lines[last + 1 :]).replace(_uuid_of(lines[last]), previous, 1)
        path.write_text("".join(lines[: last + 1]) + "".join(chain) + rest)
    return added


def _uuid_of(line: str) -> str:
    return str(json.loads(line)["uuid"])


def _parent_of(line: str) -> str:
    return str(json.loads(line)["parentUuid"])


def left_out(path: Path) -> int:
    """Sub-agent entries the output only counted: the sum of its "… N more items" lines."""
    total, tail = 0, b""
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            data = tail + chunk
            cut = max(0, len(data) - 100)  # a match is < 100 bytes: one starting later waits
            total += sum(int(m[1].replace(b",", b"")) for m in LEFT.finditer(data, 0, cut))
            tail = data[cut:]
    return total + sum(int(m[1].replace(b",", b"")) for m in LEFT.finditer(tail))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default=None, help="the toolview command to compare with")
    parser.add_argument("--runs", type=int, default=1, help="median of this many runs")
    parser.add_argument("--inputs", default="5000,50mb", help="N calls, N mb (as sessions.py)")
    parser.add_argument("--agents", type=int, default=5, help="sub-agents made long")
    parser.add_argument("--sub-calls", type=int, default=200, help="calls of each long one")
    args = parser.parse_args()
    table = rows("after", [str(BIN / "toolview")])
    if args.before:
        table = rows("before", shlex.split(args.before)) + table
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
        work = Path(tmp)
        inputs = make_inputs(args.inputs.split(","), None, work)
        for session in inputs.values():
            print(f"long sub-agents: +{lengthen(session, args.agents, args.sub_calls):,} calls")
        env = child_env(work)
        for label, session in inputs.items():
            calls = count_in(session, TOOL_USE)
            print(f"\n{label}: {session.stat().st_size / 1e6:,.1f} MB, {calls:,} tool calls")
            print("| row | CPU s | peak RSS | output | calls drawn (html) | entries only counted |")
            print("| --- | ---: | ---: | ---: | ---: | ---: |")
            for row in table:
                out = work / "out" / row.name.replace(" ", "-")
                used = [run_child(row, row.command(session, out), out, env)
                        for _ in range(args.runs)]  # fmt: skip
                cpu = statistics.median(u.cpu for u in used)
                rss = statistics.median(u.rss_mib for u in used)
                drawn = count_in(out / "stdout", ARTICLE) if row.name.endswith("html") else None
                left = left_out(out / "stdout")
                shown = "" if drawn is None else f"{drawn:,}"
                print(f"| {row.name} | {cpu:.2f} | {rss:,.0f} MiB | "
                      f"{used[0].out_bytes / 1e6:,.2f} MB | {shown} | {left:,} |")  # fmt: skip
                if row.name.startswith("after"):
                    ok &= left == 0
                    ok &= not label.endswith("MB") or rss <= RSS_TARGET_MIB
    print("\ntargets: no entry only counted; peak RSS ≤ 150 MiB on the ~50 MB session")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
