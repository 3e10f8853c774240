"""``safety.redact`` before/after: this tree against a git ref, side by side.

The ``grep --color`` cases are the log as ``grep --color=always -n`` prints
it (a real grep, run once per child: five escape sequences per matching line,
the issue-21 case of a colour-split secret), the rest have no escape at all.

Run: ``.venv/bin/python bench/redaction_compare.py [REF]`` (default ``0b2290d``:
main before issue 13's prefilter; ``d5a7cc6`` is the tree before issue 10's).
The ref's ``src`` is extracted with ``git archive`` to a temporary folder;
each measurement runs in a child process per tree, alternating old/new twice,
best of 5 repetitions each, and the ratio new/old is printed. Not a test:
the machine's load moves the absolute figures, the ratio measured side by
side moves much less.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, random, subprocess, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from toolview.safety import redact, redact_json
R = random.Random(7)
A = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
def al(n): return "".join(R.choice(A) for _ in range(n))
def hx(n): return "".join(R.choice("0123456789abcdef") for _ in range(n))
words = ("GET POST /api/v1/users 200 404 ms request user session cache key password "
         "token the quick brown fox data build step ok").split()
lines, i = [], 0
while sum(map(len, lines)) < 1_000_000:
    k = i % 7
    if k == 0: lines.append("2024-06-01T12:00:00Z INFO " + " ".join(R.choices(words, k=12)))
    elif k == 1: lines.append(f"commit {hx(40)} sha256:{hx(64)}")
    elif k == 2: lines.append(f"request {hx(8)}-{hx(4)}-{hx(4)}-{hx(4)}-{hx(12)} done in 12 ms")
    elif k == 3: lines.append('  File "/usr/lib/python3/site.py", line 12, in main')
    elif k == 4 and i % 70 == 4: lines.append("export GITHUB_TOKEN=ghp_" + al(36))
    elif k == 4: lines.append("cache hit " + hx(6))
    elif k == 5: lines.append("https://example.com/path?q=1&page=2 -> 200 OK")
    else: lines.append(" ".join(R.choices(words, k=8)) + " " + al(20))
    i += 1
items = [{"id": f"item-{i:04d}", "name": f"module_{i}.py", "path": f"/srv/app/src/module_{i}.py",
          "size": 1000 + i, "ok": i % 3 != 0,
          "note": "cache hit" if i % 2 else "request queued for the worker"} for i in range(30)]
result = {"items": items, "total": 30, "cursor": None}
with tempfile.NamedTemporaryFile("w", suffix=".log") as log:
    log.write("\n".join(lines))
    log.flush()
    grep = ["grep", "--color=always", "-n", "-e", "token", "-e", "user", "-e", "ghp_", log.name]
    coloured = subprocess.run(grep, capture_output=True, text=True, check=True).stdout
redact("warm up: password=x " * 100)
cases = {
    "1 MB mixed log": ("\n".join(lines), 1),
    "64 KiB of the log": ("\n".join(lines)[:65_536], 20),
    "grep --color 1 MB": (coloured[:1_000_000], 1),
    "grep --color 64 KiB": (coloured[:65_536], 20),
    "2-char string": ("ok", 20_000),
    "40-char id line": ("call-0a1b2c3d4e5f shell completed in 12 ms", 5_000),
    "300-char log line": (" ".join(lines[7:12])[:300], 2_000),
    "40-char, not ASCII": ("call-0a1b2c3d4e5f shell \u2713 completed in 12 ms", 5_000),
}
out = {}
for name, (text, n) in cases.items():
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            redact(text)
        times.append((time.perf_counter() - start) / n)
    out[name] = min(times)
times = []
for _ in range(5):
    start = time.perf_counter()
    for _ in range(100):
        redact_json(result)
    times.append((time.perf_counter() - start) / 100)
out["30-item JSON"] = min(times)
print(json.dumps(out))
"""


def measure(src: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(src)], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def main() -> None:
    ref = sys.argv[1] if len(sys.argv) > 1 else "0b2290d"
    new_src = Path(__file__).resolve().parent.parent / "src"
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", ref, "src"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        old_src = Path(folder) / "src"
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(2):
            runs["old"].append(measure(old_src))
            runs["new"].append(measure(new_src))
    for case in runs["old"][0]:
        old = min(r[case] for r in runs["old"])
        new = min(r[case] for r in runs["new"])
        figures = f"old {old * 1e6:10.2f} us  new {new * 1e6:10.2f} us"
        print(f"{case:18} {figures}  new/old {new / old:.2f}")


if __name__ == "__main__":
    main()
