"""``sessions``' cache of summaries: reused while a file is unchanged, never trusted.

The real command in a child process over small Claude Code sessions
(``claude_sessions``), ``XDG_CACHE_HOME`` a temporary folder: the cache is
written 0600 in a 0700 folder; a second listing reads no session it cached
(proved by a session whose file is made unreadable after the first listing:
the cache answers for it); a changed file is read again; a cache made by other
rules (another stamp: an upgrade that counts or prices differently) is not read; a cache planted by
another shape, a corrupt one, one writable by others, and one whose texts
carry terminal controls and a secret are ignored or cleaned — never shown raw.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from claude_sessions import SECRET, session, toolview, write

from toolview.cli.summary_cache import CACHE_NAME, made_by

ONE = "11111111-aaaa-4bbb-8ccc-000000000001"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    write(tmp_path / ".claude" / "projects" / "-work-proj" / f"{ONE}.jsonl", session(ONE, "hi", 2))
    return tmp_path


def _cache(home: Path) -> Path:
    return home / ".cache" / "toolview" / CACHE_NAME


def _listed(home: Path) -> dict[str, object]:
    done = toolview(home, "sessions", "--json")
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    return dict(json.loads(line))


def test_the_cache_is_private_and_answers_for_an_unchanged_file(home: Path) -> None:
    first = _listed(home)
    cache = _cache(home)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700
    path = Path(str(first["path"]))
    held = path.read_bytes()
    stamp = path.stat()
    # the same size and mtime, other content: only a listing that did not read it says the old
    path.write_bytes(held.replace(b"make step-", b"make STEP-").replace(b'"hi"', b'"HO"'))
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert _listed(home)["title"] == "hi"
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1))  # changed: read again
    assert _listed(home)["title"] == "HO"
    assert toolview(home, "sessions", "--json", "--no-cache").returncode == 0


def _plant(home: Path, body: bytes, mode: int = 0o600) -> None:
    cache = _cache(home)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(body)
    cache.chmod(mode)


def _entry(home: Path, stamp: str | None = None, **summary: object) -> bytes:
    path = home / ".claude" / "projects" / "-work-proj" / f"{ONE}.jsonl"
    now = path.stat()
    fields: dict[str, object] = {
        "agent": "x", "id": "evil", "path": "/etc/passwd", "project": "p", "prompt": "p",
        "start": None, "end": None, "size": 1, "notes": 0,
    }  # fmt: skip
    fields.update(summary)
    entry = {"size": now.st_size, "mtime_ns": now.st_mtime_ns, "summary": fields}
    return json.dumps({"made_by": stamp or made_by(), "entries": {str(path): entry}}).encode()


@pytest.mark.parametrize(
    "body",
    [b"{not json", b"[]", b'{"x": {"size": "big"}}', b"\x00" * 64, b'{"a": 1}'],
    ids=["corrupt", "list", "wrong-type", "binary", "wrong-shape"],
)
def test_a_corrupt_or_foreign_cache_is_ignored(home: Path, body: bytes) -> None:
    _plant(home, body)
    listed = _listed(home)
    assert listed["title"] == "hi" and listed["calls"] == 2
    assert json.loads(_cache(home).read_bytes())  # rewritten, ours again


def test_a_cache_others_may_write_is_not_read(home: Path) -> None:
    _plant(home, _entry(home, prompt="planted", project="planted"), mode=0o622)
    listed = _listed(home)
    assert listed["title"] == "hi" and listed["project"] == "proj"


def test_a_planted_cache_can_lie_about_numbers_never_inject_text(home: Path) -> None:
    hostile = f"\x1b]52;c;{SECRET}\x07\x1b[2J pwned \u202e {SECRET}"
    _plant(home, _entry(home, prompt=hostile, project=hostile, counts={"calls": 99}))
    listed = _listed(home)
    text = json.dumps(listed, ensure_ascii=False)
    assert "\x1b" not in text and "\u202e" not in text and SECRET not in text
    assert listed["calls"] == 99  # numbers are believed: the file is the user's own
    assert listed["id"] == ONE and listed["agent"] == "claude-code"  # never the cache's
    assert str(listed["path"]).endswith(f"{ONE}.jsonl")


def test_a_cache_made_by_other_rules_is_not_read(home: Path) -> None:
    _plant(home, _entry(home, prompt="old rules", counts={"calls": 99}))
    assert _listed(home)["calls"] == 99  # this code's stamp: believed (the control)
    _plant(home, _entry(home, stamp="0" * 16, prompt="old rules", counts={"calls": 99}))
    listed = _listed(home)
    assert listed["calls"] == 2 and listed["title"] == "hi"  # read again, as the file says
