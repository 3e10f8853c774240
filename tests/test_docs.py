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


def test_the_readme_layout_lists_every_top_level_package() -> None:
    """A new package (or leaf module) of src/toolview gets its line in README's Layout block."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    listed = {line.split()[0].removeprefix("src/toolview/") for line in layout.splitlines()}
    source = REPO / "src" / "toolview"
    packages = {path.parent.name for path in source.glob("*/__init__.py")}
    leaves = {path.stem for path in source.glob("*.py")} - {"__init__", "__main__"}
    assert listed == packages | leaves
