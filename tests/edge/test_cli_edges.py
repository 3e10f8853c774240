"""Defined outcomes for ``toolview check`` and ``toolview show``, run as real processes.

Never a traceback: a line that breaks the contract is a numbered violation
(``check``, exit 1) or a visible note while the rest renders (``show``, exit 0).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from edge import inputs

GOOD = inputs.CALL

# name → (second line, check exit code, text show must print)
CASES = {
    "invalid-utf8": (inputs.INVALID_UTF8, 1, "line 2 skipped"),
    "surrogate-escape": (inputs.LONE_SURROGATE, 1, "line 2 skipped"),
    "nul-raw": (inputs.NUL_RAW, 1, "line 2 skipped"),
    "nul-escaped": (inputs.NUL_ESCAPED, 0, "nul ␀ here"),
    "10mb": (inputs.HUGE_LINE, 0, "yyyy"),
    "deep": (inputs.DEEP, 1, "line 2 skipped"),
    "bigint": (inputs.BIG_INT, 0, f"{inputs.BIG}"),
    "hugeint": (inputs.HUGE_INT, 1, "line 2 skipped"),
    "duplicate-keys": (inputs.DUPLICATE_KEYS, 0, "second"),
}
PARAMS = [pytest.param(name, id=name) for name in CASES]


def toolview(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolview", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("edge")
    made = {}
    for name, (line, _, _) in CASES.items():
        made[name] = folder / f"{name}.jsonl"
        made[name].write_bytes(GOOD + b"\n" + line + b"\n")
    return made


@pytest.mark.parametrize("name", PARAMS)
def test_check(name: str, files: dict[str, Path]) -> None:
    done = toolview("check", str(files[name]))
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == CASES[name][1], (done.stdout[-500:], done.stderr[-500:])
    assert "2 observations checked" in done.stderr
    if done.returncode:
        assert done.stdout.startswith("line 2: $"), done.stdout[:300]


@pytest.mark.parametrize("name", PARAMS)
def test_show(name: str, files: dict[str, Path]) -> None:
    done = toolview("show", "--surface", "text", str(files[name]))
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stderr[-500:]
    assert "Tedge" in done.stdout and CASES[name][2] in done.stdout, done.stdout[:1000]
    assert len(done.stdout) < 300_000
