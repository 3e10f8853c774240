"""``render.regexlex.combined_tokens`` is Pygments' own loop on the lexers a thread uses.

Random code-like text through the lexers the thread uses (and some whose
states fall back to Pygments' loop), and whole source files of this repo.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.render.highlight import diff_lexer, lexer_for
from toolview.render.regexlex import combined_tokens as tokens

_LANGUAGES = ("python", "rust", "go", "typescript", "bash", "json", "c", "yaml", "text", "toml")
_CODE = st.sampled_from(
    [
        *"abcxyz019_ .,:;(){}[]<>=+-*/%!&|^~#@$\\'\"`\n\t?",
        "def ",
        "fn ",
        "let ",
        "'''",
        '"""',
        'r#"',
        '"#',
        "f'{x}'",
        "0x1F",
        "1e-3",
        "//",
        "/*",
        "*/",
        "# x",
        "\r\n",
        "\x07",
        "é",
        "界",
        "import ",
        "from ",
        "class ",
        "func ",
        "=> ",
    ]
)
SRC = Path(__file__).parents[2] / "src" / "toolview"


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_LANGUAGES), st.lists(_CODE, max_size=60))
def test_same_tokens_as_pygments(language: str, parts: list[str]) -> None:
    lexer, text = lexer_for(language, None), "".join(parts)
    assert list(tokens(lexer, text)) == list(lexer.get_tokens(text))


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py"))[:40], ids=lambda p: p.name)
def test_same_tokens_on_real_files(path: Path) -> None:
    lexer, text = lexer_for(None, path.name), path.read_text(encoding="utf-8")
    assert list(tokens(lexer, text)) == list(lexer.get_tokens(text))


def test_other_lexers_use_pygments_itself() -> None:
    text = "+added\n-removed\n@@ -1 +1 @@\n"
    assert list(tokens(diff_lexer(), text)) == list(diff_lexer().get_tokens(text))
