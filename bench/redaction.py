"""Throughput of ``toolview.safety.redact`` on ~50 MB of log-like text.

Run: ``.venv/bin/python bench/redaction.py [size_mb]``. Prints the redaction
throughput in MB/s beside one plain ``re.search`` scan of the same text, and
their ratio: the cost in "regex scans". Not a test: timings vary by machine.
"""

from __future__ import annotations

import random
import re
import sys
import time

from toolview.safety import redact

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


def _timed(fn: object, text: str) -> float:
    assert callable(fn)
    start = time.perf_counter()
    fn(text)
    return time.perf_counter() - start


def redaction_throughput_mb_s(size_mb: float) -> float:
    """Redaction throughput in MB/s on ``size_mb`` MB of generated log text."""
    text = make_corpus(size_mb)
    seconds = _timed(redact, text)
    return len(text) / 1_000_000 / seconds


def main() -> None:
    size_mb = float(sys.argv[1]) if len(sys.argv) > 1 else 50.0
    text = make_corpus(size_mb)
    megabytes = len(text) / 1_000_000
    reference = re.compile(r"zq\d{3}qz")
    scan = _timed(reference.search, text)
    seconds = _timed(redact, text)
    print(f"text:    {megabytes:.1f} MB")
    print(f"redact:  {seconds:.2f} s  = {megabytes / seconds:.1f} MB/s")
    print(f"re scan: {scan:.3f} s  = {megabytes / scan:.1f} MB/s")
    print(f"ratio:   {seconds / scan:.1f} regex scans")


if __name__ == "__main__":
    main()
