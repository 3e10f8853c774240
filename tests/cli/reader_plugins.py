"""A reader plug-in installed for a child process: the reader docs/readers.md shows.

The plug-in is a real distribution on the child's path — a module and a
``*.dist-info`` folder whose ``entry_points.txt`` names it in the
``toolview.readers`` group — which ``importlib.metadata`` finds exactly as it
finds one ``pip install``\\ ed. Its code is the one page of docs/readers.md
(taken from the page, so the page's reader is the one tested), and a second,
broken plug-in names a module that does not exist.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

__all__ = ["DOCS", "install", "tinyagent_session", "toolview"]

DOCS = Path(__file__).parents[2] / "docs" / "readers.md"


def _dist(site: Path, name: str, entry: str) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[toolview.readers]\n{entry}\n")


def install(site: Path, *, broken: bool = False) -> Path:
    """The docs' reader as the distribution ``tinyagent-reader`` under ``site`` (and a broken
    one beside it, if asked)."""
    page = DOCS.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.DOTALL)
    assert code is not None, "docs/readers.md shows no reader"
    site.mkdir(parents=True, exist_ok=True)
    (site / "tinyagent_reader.py").write_text(code.group(1), encoding="utf-8")
    _dist(site, "tinyagent_reader", "tinyagent = tinyagent_reader:reader")
    if broken:
        _dist(site, "broken_reader", "broken = broken_reader_absent:reader")
    return site


def tinyagent_session(path: Path, *extra: bytes) -> Path:
    """A tinyagent session: a prompt, a call that fails, a call that succeeds; ``extra``
    lines after the first call."""
    records = [
        {"type": "tinyagent.prompt", "text": "list the files"},
        {"type": "tinyagent.call", "id": "c1", "tool": "shell", "args": {"cmd": "ls /nope"}},
    ]
    tail = [
        {
            "type": "tinyagent.result",
            "id": "c1",
            "output": "ls: /nope: No such file",
            "error": True,
        },
        {"type": "tinyagent.call", "id": "c2", "tool": "shell", "args": {"cmd": "ls"}},
        {"type": "tinyagent.result", "id": "c2", "output": "README.md", "error": False},
    ]
    lines = [json.dumps(r).encode() for r in records] + list(extra)
    lines += [json.dumps(r).encode() for r in tail]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def toolview(
    home: Path, site: Path | None, *words: str, stdin: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command in a child process: ``HOME`` is ``home``, ``site`` on its path, the
    file ``stdin`` (if given) its standard input."""
    env = {**os.environ, "HOME": str(home)}
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    with open(stdin or os.devnull, "rb") as given:
        return subprocess.run(
            [sys.executable, "-m", "toolview", *words],
            stdin=given,
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
