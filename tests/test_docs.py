"""Every ```python block in README.md and docs/ runs: the docs cannot drift from the code."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).parents[1]
FENCE = re.compile(r"^```python\n(?P<code>.*?)^```", re.DOTALL | re.MULTILINE)


def doc_blocks() -> list[tuple[str, str]]:
    blocks: list[tuple[str, str]] = []
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for number, match in enumerate(FENCE.finditer(text), start=1):
            blocks.append((f"{path.relative_to(REPO)}#{number}", match.group("code")))
    return blocks


BLOCKS = doc_blocks()


def test_the_docs_have_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_doc_example_runs(where: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    namespace: dict[str, object] = {"__name__": f"docs:{where}"}
    exec(compile(code, where, "exec"), namespace)
    assert os.getcwd() == str(REPO)
