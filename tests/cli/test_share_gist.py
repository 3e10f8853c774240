"""``toolview share SESSION --gist``: through the user's own ``gh``, the redacted document
only, its review printed before anything is sent, and nothing sent without a yes.

``gh`` here is a fake on PATH (the internet cannot be reached): it records its
argv, the bytes of the file it was given, and what the share had printed to its
standard output by the time ``gh`` ran.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from share_sessions import Planted, planted_session
from test_share_cmd import leaks

FAKE_GH = """#!{python}
import json, os, sys
from pathlib import Path
files = {{a: Path(a).read_text() for a in sys.argv[1:] if os.path.isfile(a)}}
seen = Path(os.environ["SHARE_OUT"]).read_text()
with open(os.environ["GH_LOG"], "a") as log:
    log.write(json.dumps({{"argv": sys.argv[1:], "files": files, "printed": seen}}) + "\\n")
print("https://gist.github.com/someone/0123abcd")
"""


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Planted]:
    path = tmp_path_factory.mktemp("gist") / "planted.jsonl"
    return path, planted_session(path)


def gist(
    tmp_path: Path, *words: str, gh: bool = True, stdin: int = subprocess.DEVNULL
) -> tuple[subprocess.CompletedProcess[str], str, list[dict[str, object]]]:
    """``toolview share WORDS`` with the fake ``gh`` (or none) alone on PATH: the run, its
    standard output, and each ``gh`` call recorded."""
    bin_dir, log, out = tmp_path / "bin", tmp_path / "gh.log", tmp_path / "out.txt"
    bin_dir.mkdir(exist_ok=True)
    if gh:
        (bin_dir / "gh").write_text(FAKE_GH.format(python=sys.executable))
        (bin_dir / "gh").chmod(0o755)
    env = {**os.environ, "PATH": str(bin_dir), "GH_LOG": str(log), "SHARE_OUT": str(out)}
    with out.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "toolview", "share", *words],
            stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True, env=env, timeout=300,
        )  # fmt: skip
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return done, out.read_text(), calls


def test_the_gist_holds_the_redacted_document_after_its_review_was_printed(
    tmp_path: Path, session: tuple[Path, Planted]
) -> None:
    path, planted = session
    done, printed, calls = gist(tmp_path, str(path), "--gist", "--yes")
    assert done.returncode == 0, done.stderr
    ((call),) = calls
    argv, files = call["argv"], call["files"]
    assert isinstance(argv, list) and argv[:2] == ["gist", "create"] and "--public" not in argv
    assert isinstance(files, dict) and len(files) == 1  # one file: the document
    ((name, text),) = files.items()
    assert name.endswith(".md") and "[redacted: " in text and leaks(text, planted) == []
    review = str(call["printed"])  # what the share had printed when gh started
    assert review.startswith("review: ") and "redactions (the values are not shown)" in review
    assert printed.startswith(review) and "https://gist.github.com/" in printed
    assert not Path(name).exists()  # the temporary file is gone


def test_public_is_asked_for_and_html_when_the_format_says(
    tmp_path: Path, session: tuple[Path, Planted]
) -> None:
    done, _, calls = gist(
        tmp_path, str(session[0]), "--gist", "--yes", "--public", "--format", "html"
    )
    assert done.returncode == 0, done.stderr
    ((call),) = calls
    argv, files = call["argv"], call["files"]
    assert isinstance(argv, list) and "--public" in argv
    assert isinstance(files, dict) and [n[-5:] for n in files] == [".html"]


def test_without_yes_and_without_a_terminal_nothing_is_sent(
    tmp_path: Path, session: tuple[Path, Planted]
) -> None:
    done, printed, calls = gist(tmp_path, str(session[0]), "--gist")
    assert done.returncode == 2 and calls == []
    assert "no terminal to confirm on" in done.stderr and "--yes" in done.stderr
    assert printed.startswith("review: ")  # the review was shown all the same


def test_without_gh_nothing_is_built_or_sent(tmp_path: Path, session: tuple[Path, Planted]) -> None:
    done, printed, calls = gist(tmp_path, str(session[0]), "--gist", "--yes", gh=False)
    assert done.returncode == 2 and calls == [] and printed == ""
    assert "`gh` on PATH" in done.stderr and "nothing was sent" in done.stderr
