"""Print how many cases each fuzz target ran (and write them as JSON if asked)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fuzz.budget import COUNTS, EXAMPLES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not COUNTS:
        return
    terminalreporter.section(f"fuzz cases run (budget {EXAMPLES} per target)")
    for target, count in sorted(COUNTS.items()):
        terminalreporter.write_line(f"{target:<44} {count:>9,}")
    report = os.environ.get("TOOLVIEW_FUZZ_REPORT")
    if report:
        payload = {"budget": EXAMPLES, "cases": dict(sorted(COUNTS.items()))}
        Path(report).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
