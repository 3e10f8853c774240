"""``toolview.safety.redact``: bulk throughput, scans per byte, short strings.

Run: ``.venv/bin/python bench/redaction.py [size_mb]`` (default 50). Prints,
measured side by side in one run (best of 3 each):

- the redaction throughput in MB/s on ~``size_mb`` MB of log-like text, beside
  the unfiltered path (``safety.secrets.scan``: every pattern over the whole
  text, what redact did before its prefilter) and one plain ``re.search`` of
  the same text; the ratio to that search is the cost in "regex scans" (a
  timing: the search is a memchr-speed literal scan);
- the counted cost (``redaction_cost``, not a timing): whole-text scans by a
  matching engine, whole-text copies, regex attempts at a start per kB;
- µs per call for short strings and a 30-item JSON result (``redact_json``).

Targets (issue 13): short string <= 2 µs, bulk >= 50 MB/s, <= 5 scans per byte.
Not a test: timings vary by machine; the counted figures do not.
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable

from toolview.safety import redact, redact_json
from toolview.safety.secrets import redaction_cost, scan

_RNG = random.Random(20240601)
_WORDS = (
    "GET",
    "POST",
    "/api/v1/users",
    "200",
    "404",
    "ms",
    "request",
    "user",
    "session",
    "cache",
    "miss",
    "hit",
    "token_count",
    "password",
    "reset",
    "queued",
    "worker",
    "started",
    "finished",
    "retry",
    "backoff",
    "the",
    "quick",
    "brown",
    "fox",
)


_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"


def _hex(n: int) -> str:
    return "".join(_RNG.choice("0123456789abcdef") for _ in range(n))


def _alnum(n: int) -> str:
    return "".join(
        _RNG.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") for _ in range(n)
    )


def _fake_secret() -> str:
    """Fake credentials (random bodies, never real keys) in a few formats."""
    return _RNG.choice(
        (
            "export GITHUB_TOKEN=ghp_" + _alnum(36),
            "AWS key AKIA" + _alnum(16).upper(),
            'config {"password": "' + _alnum(14) + '"}',
            "db url postgres://app:" + _alnum(12) + "@db.internal:5432/app",
            "Authorization: Bearer " + _alnum(40),
            "sk-proj-" + _alnum(48),
        )
    )


def _line(i: int) -> str:
    kind = i % 5
    if kind == 0:
        return f"2024-06-01T12:{i % 60:02d}:00Z INFO " + " ".join(_RNG.choices(_WORDS, k=10))
    if kind == 1:
        return f"commit {_hex(40)} sha256:{_hex(64)}"
    if kind == 2:
        return f'{{"id": "{_hex(8)}-{_hex(4)}-{_hex(4)}-{_hex(4)}-{_hex(12)}", "ok": true}}'
    if kind == 3:
        return "data:image/png;base64," + _alnum(76)
    return f'  File "/srv/app/module_{i}.py", line {i}, in handler'


def make_corpus(size_mb: float) -> str:
    """~``size_mb`` MB of log lines, one fake secret every ~500 lines."""
    pool = [_line(i) for i in range(4000)] + [_fake_secret() for _ in range(8)]
    weights = [1.0] * 4000 + [1.0] * 8
    lines: list[str] = []
    total = 0
    target = int(size_mb * 1_000_000)
    while total < target:
        chunk = _RNG.choices(pool, weights=weights, k=10_000)
        lines.extend(chunk)
        total += sum(len(line) + 1 for line in chunk)
    return "\n".join(lines)


def _timed(fn: Callable[[str], object], text: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - start)
    return best


def _per_call(fn: Callable[[], object], number: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def json_result(items: int = 30) -> dict[str, object]:
    """A tool's JSON result: ``items`` records of ids, names, paths, sizes, flags."""
    return {
        "items": [
            {
                "id": f"item-{i:04d}",
                "name": f"module_{i}.py",
                "path": f"/srv/app/src/module_{i}.py",
                "size": 1000 + i,
                "ok": i % 3 != 0,
                "note": "cache hit" if i % 2 else "request queued for the worker",
            }
            for i in range(items)
        ],
        "total": items,
        "cursor": None,
    }


def redaction_throughput_mb_s(size_mb: float) -> float:
    """Redaction throughput in MB/s on ``size_mb`` MB of generated log text."""
    text = make_corpus(size_mb)
    seconds = _timed(redact, text)
    return len(text) / 1_000_000 / seconds


SHORT = {
    "2-char string": "ok",
    "40-char id line": "call-0a1b2c3d4e5f shell completed in 12 ms",
    "40-char, not ASCII": "call-0a1b2c3d4e5f shell ✓ completed in 12 ms",
    "300-char log line": " ".join(_line(i) for i in range(5))[:300],
}


def main() -> None:
    size_mb = float(sys.argv[1]) if len(sys.argv) > 1 else 50.0
    text = make_corpus(size_mb)
    megabytes = len(text) / 1_000_000
    redact("warm up: password=x " * 100)  # the first call loads the scanner
    reference = re.compile(r"zq\d{3}qz")
    search = _timed(reference.search, text)
    seconds = _timed(redact, text)
    unfiltered = _timed(scan, text, runs=1)
    cost = redaction_cost(text)
    print(f"text:       {megabytes:.1f} MB")
    print(f"redact:     {seconds:.3f} s  = {megabytes / seconds:7.1f} MB/s")
    print(f"unfiltered: {unfiltered:.3f} s  = {megabytes / unfiltered:7.1f} MB/s  (scan())")
    print(f"re search:  {search:.4f} s = {megabytes / search:7.1f} MB/s")
    print(f"ratio:      {seconds / search:.1f} regex scans (unfiltered {unfiltered / search:.1f})")
    attempts = cost.attempts / (len(text) / 1000)
    print(f"counted:    {cost.scans} scans, {cost.copies} copies, {attempts:.2f} attempts/kB")
    for name, short in SHORT.items():
        print(f"{name:20s} {_per_call(lambda s=short: redact(s), 20_000) * 1e6:8.2f} us")
    result = json_result()
    print(f"{'30-item JSON':20s} {_per_call(lambda: redact_json(result), 500) * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
