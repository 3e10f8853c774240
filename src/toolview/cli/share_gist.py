"""``toolview share SESSION --gist``: the redacted document sent as a GitHub gist, through
the user's own ``gh``.

Why through ``gh`` and never an HTTP call of ours: toolview holds no GitHub token
and asks for none; ``gh`` is already logged in as the user, who chose it. Why the
review FIRST and a question: a gist is the first thing ``share`` sends off the
machine, so nothing goes until its author has read what was redacted and said
yes (``--yes``, or ``y`` at a terminal); without a terminal to ask, nothing is
sent. Secret by default (``--public`` to opt in). No ``gh`` on PATH: said, and
nothing is built or sent.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["GistRefused", "confirmed", "find_gh", "send_gist"]


class GistRefused(Exception):
    """Why the gist was not sent (nothing left the machine)."""


def find_gh() -> str:
    """The ``gh`` on PATH, or why there is none."""
    gh = shutil.which("gh")
    if gh is None:
        raise GistRefused(
            "--gist needs GitHub's CLI `gh` on PATH (https://cli.github.com, then "
            "`gh auth login`); nothing was sent"
        )
    return gh


def confirmed(yes: bool, public: bool, ask: Callable[[str], str] = input) -> bool:
    """Whether the author said to send: ``--yes``, or ``y`` at a terminal (never without one)."""
    if yes:
        return True
    if not sys.stdin.isatty():
        raise GistRefused("not sent: no terminal to confirm on; read the review, then add --yes")
    kind = "PUBLIC" if public else "secret"
    return ask(f"Send this as a {kind} gist with gh? [y/N] ").strip().lower() in {"y", "yes"}


def send_gist(
    gh: str,
    build: Callable[[Path], Iterable[str]],
    *,
    suffix: str,
    public: bool,
    yes: bool,
) -> int:
    """Build the document into a private temporary file, print its review, ask, then run
    ``gh gist create``; the file is removed whatever happens."""
    with tempfile.TemporaryDirectory(prefix="toolview-share-") as folder:
        document = Path(folder) / f"toolview-share.{suffix}"
        for line in build(document):
            print(line)
        sys.stdout.flush()
        if not confirmed(yes, public):
            print("not sent", file=sys.stderr)
            return 1
        command = [gh, "gist", "create", "--desc", "toolview share (redacted)", str(document)]
        sent = subprocess.run([*command, *(["--public"] if public else [])], check=False)
        return 0 if sent.returncode == 0 else 2
