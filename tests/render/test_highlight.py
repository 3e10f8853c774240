"""render.highlight: a file name picks the lexer Pygments picks, without loading plugins."""

from __future__ import annotations

import subprocess
import sys

from pygments.lexers import get_all_lexers, get_lexer_for_filename  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

from toolview.render.highlight import lexer_for


def _names() -> set[str]:
    """A file name for every pattern Pygments ships (``*.py`` → ``x.py`` and ``.py``)."""
    names = {"Makefile", "Dockerfile", "notes", "", ".bashrc", "a.b.c", "x.h", "a.m", "a.inc"}
    for _, _, patterns, _ in get_all_lexers(plugins=False):
        for pattern in patterns:
            plain = pattern.replace("[", "").replace("]", "")
            names |= {plain.replace("*", "x"), plain.replace("*", "")}
    return names


def test_every_file_name_gets_the_lexer_pygments_would_choose() -> None:
    differ = []
    for name in sorted(_names()):
        try:
            want = type(get_lexer_for_filename(name)).__name__
        except ClassNotFound:
            want = "TextLexer"
        got = type(lexer_for(None, f"/srv/app/{name}")).__name__
        if got != want:
            differ.append((name, want, got))
    assert differ == []


def test_a_file_name_does_not_import_the_plugins_packages() -> None:
    """IPython (installed with the test extra) registers Pygments lexers; none is loaded."""
    code = (
        "import sys\n"
        "from toolview.render.highlight import lexer_for\n"
        "assert type(lexer_for(None, 'src/app.py')).__name__ == 'PythonLexer'\n"
        "assert type(lexer_for(None, 'notes.unknown-ext')).__name__ == 'TextLexer'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'IPython'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]"
