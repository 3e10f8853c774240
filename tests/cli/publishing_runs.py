"""Helpers for tests that run ``toolview run --to`` against a real server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import ToolviewServer

__all__ = ["ENTRY", "run_command", "stored"]

# Only this command, so each subprocess does not import every other command's runtime.
ENTRY = (
    "import argparse, sys; from toolview.cli import run_cmd; "
    "parser = argparse.ArgumentParser(); run_cmd.register(parser.add_subparsers()); "
    "args = parser.parse_args(sys.argv[1:]); sys.exit(args.handler(args))"
)


def run_command(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``toolview run ARGS…`` in a subprocess, its temporary files kept under ``cwd``."""
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TMPDIR": str(cwd)},
    )


def stored(server: ToolviewServer, thread: str) -> list[dict[str, object]]:
    """Every observation the server logged for ``thread``, checking the seqs have no gap."""
    body = httpx.get(f"{server.url}/api/threads/{thread}/events", timeout=30).json()
    assert [event["seq"] for event in body["events"]] == list(range(1, len(body["events"]) + 1))
    return [event["observation"] for event in body["events"]]
