"""``toolview.capture`` costs no framework, no server and no MCP SDK to import."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = (
    "toolview.server",
    "toolview.cli",
    "toolview.adapters",
    "starlette",
    "uvicorn",
    "mcp",
    "httpx",
    "rich",
    "pydantic",
    "pydantic_ai",
    "agents",
    "langchain",
    "langchain_core",
    "langgraph",
    "smolagents",
    "openai",
)


def _imported(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = [line.split("|")[-1].strip() for line in result.stderr.splitlines()]
    return {line for line in lines if line and not line.startswith("imported package")}


def _offending(modules: set[str]) -> set[str]:
    return {m for m in modules if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)}


def test_capture_imports_nothing_heavy() -> None:
    modules = _imported("import toolview; toolview.capture")
    assert "toolview.recording.recorder" in modules
    assert _offending(modules) == set()


def test_a_capture_without_live_or_to_stays_light() -> None:
    code = (
        "import toolview\n"
        "with toolview.capture(live=False) as rec:\n"
        "    rec.call('c1', 't', {'a': 1}); rec.result('c1', [{'a': 1}])\n"
    )
    assert _offending(_imported(code)) == set()
