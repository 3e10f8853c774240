"""``toolview share`` beside ``toolview show`` on the same Claude Code session: what the
per-observation redaction and its review cost, and that ``show`` pays nothing for them.

Run: ``.venv/bin/python bench/share.py [--inputs 5000] [--runs 3]
[--before /work/wt/base/.venv/bin/toolview]``

The session is built by ``bench/session_repeat.py`` from the real ones (as
``bench/sessions.py`` does); each row is a child process whose CPU (user + sys,
``os.wait4``), peak RSS and output are read by ``bench/sessions.py``'s
``run_child``; one warm-up round, then rows take turns, median of ``--runs``.
Rows: ``show --surface html`` (and ``--before``'s, another tree, to see that
noting what redaction hides costs ``show`` nothing), ``share`` to html and to
Markdown, on stdout (held until whole) and with ``-o FILE`` (written as drawn). The fake credentials
planted in the real session are counted in each output (must be 0).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from sessions import SHOW_FLAGS, Argv, Row, make_inputs, measure  # a sibling script

BIN = Path(sys.executable).parent


def rows(before: str | None) -> list[Row]:
    """The rows to measure; ``before``: another tree's ``toolview`` for ``show``."""
    exe = [str(BIN / "toolview")]
    listed = [Row("show html", lambda s, o: [*exe, *SHOW_FLAGS, "html", str(s)], True)]
    if before:
        old = [before]
        before_html = Row(
            "show html before", lambda s, o: [*old, *SHOW_FLAGS, "html", str(s)], True
        )
        listed.append(before_html)
    for fmt in ("html", "md"):
        listed.append(Row(f"share {fmt}", _share(exe, fmt), True))
        listed.append(Row(f"share -o FILE.{fmt}", _share(exe, fmt, to_file=True)))
    return listed


def _share(exe: list[str], fmt: str, *, to_file: bool = False) -> Argv:
    """``share`` to stdout (held until whole) or, ``to_file``, to a file as it is drawn (the
    row then counts the file it wrote, as the peers' rows do)."""
    if to_file:
        return lambda s, o: [*exe, "share", str(s), "-o", str(o / f"share.{fmt}")]
    return lambda s, o: [*exe, "share", "--format", fmt, str(s)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", default="5000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        inputs = make_inputs(args.inputs.split(","), None, work)
        listed = rows(args.before)
        got = measure(listed, inputs, args.runs, work)
        for label in inputs:
            print(f"\n{label}")
            print("| row | CPU s | peak RSS MiB | output MB | secrets shown |")
            print("|---|---:|---:|---:|---:|")
            for row in listed:
                use = got[(row.name, label)]
                print(f"| {row.name} | {use.cpu:.2f} | {use.rss_mib:,.0f} | "
                      f"{use.out_bytes / 1e6:,.1f} | {use.secrets} |")  # fmt: skip


if __name__ == "__main__":
    main()
