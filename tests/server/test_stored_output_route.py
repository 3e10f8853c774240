"""``GET …/calls/{call}/stored`` attacked: only the named file, in its session's own folder.

A real Claude Code session (tests/hosts/claude_code/real: its Bash call
``toolu_11big`` stored its 35,109-byte output in ``tool-results/``, with two
planted credentials in it) is watched by a real ``toolview serve`` while the
stored file is missing, so the log holds only the preview. Then the folder is
changed under the server's feet and the route asked each time: the file back
(whole, redacted, in windows), a link to /etc/passwd, ``tool-results`` a link,
a FIFO (answered, never waited on), a sparse 1 GiB file (bounded), and
sessions whose record names a hostile path (``..``, /etc/passwd, ``../..``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from stored_sessions import CALL, NAME, REAL, SECRETS, SESSION, write_session
from toolview_servers import ToolviewServer
from watch_serving import until

from toolview.server.page.calls.stored import STORED_ROUTE_BYTES

# sessions whose record names another file than their own tool-results/<name>
HOSTILE = {
    "5e551011-0000-4000-8000-0000000000a1": "/etc/passwd",
    "5e551011-0000-4000-8000-0000000000a2": "../../../../../../etc/passwd",
    "5e551011-0000-4000-8000-0000000000a3": "/x/tool-results/..",
}


@pytest.fixture
def watched(tmp_path: Path, served: Callable[..., ToolviewServer]) -> Iterator[tuple[str, Path]]:
    """A server watching the session (its stored file missing) and the session's tool-results."""
    project = tmp_path / "projects" / "-tmp-workspace"
    write_session(project, SESSION, None)
    for session, recorded in HOSTILE.items():
        write_session(project, session, recorded)
        (project / session / "tool-results" / "passwd").symlink_to("/etc/passwd")
    server = served("--db", str(tmp_path / "log.db"), "--watch", str(tmp_path / "projects"))
    for session in (SESSION, *HOSTILE):
        url = f"{server.url}/api/threads/claude-{session}/calls/{CALL}/output"
        until(lambda u=url: httpx.get(u, timeout=30).status_code == 200, what=session)
    yield server.url, project / SESSION / "tool-results"


def _stored(base: str, session: str = SESSION, **params: int) -> httpx.Response:
    url = f"{base}/api/threads/claude-{session}/calls/{CALL}/stored"
    return httpx.get(url, params=params, timeout=60)


def test_the_log_held_the_preview_and_the_route_reads_the_whole_file_redacted(
    watched: tuple[str, Path],
) -> None:
    base, results = watched
    logged = httpx.get(f"{base}/api/threads/claude-{SESSION}/events?after=0", timeout=60).json()
    stored = [e["observation"]["stored"] for e in logged["events"] if "stored" in e["observation"]]
    assert [(s["whole"], s["size"], s["path"].endswith(NAME)) for s in stored] == [
        (False, 35109, True)
    ]
    assert _stored(base).status_code == 404  # not there yet: said, nothing else read
    original = (REAL / SESSION / "tool-results" / NAME).read_text()
    (results / NAME).write_text(original)
    whole = _stored(base, limit=1_048_576).json()
    assert whole["next"] is None and whole["total"] == len(whole["text"])
    assert not [secret for secret in SECRETS if secret in whole["text"]]
    assert original.splitlines()[0] in whole["text"]
    windows, offset = "", 0
    while offset is not None:  # window after window, the same text
        part = _stored(base, offset=offset, limit=7000).json()
        windows += part["text"]
        offset = part["next"]
    assert windows == whole["text"]


def test_links_fifos_and_huge_files_are_refused_or_bounded(watched: tuple[str, Path]) -> None:
    base, results = watched
    (results / NAME).symlink_to("/etc/passwd")
    refused = _stored(base)
    assert refused.status_code == 403 and "symbolic link" in refused.json()["error"]
    assert "root:" not in refused.text
    (results / NAME).unlink()
    os.mkfifo(results / NAME)  # a plain open would wait for a writer for ever
    fifo = _stored(base)
    assert fifo.status_code == 403 and "not a regular file" in fifo.json()["error"]
    (results / NAME).unlink()
    with (results / NAME).open("wb") as huge:
        huge.truncate(1 << 30)  # 1 GiB, sparse: read whole, it would take the server down
    bounded = _stored(base, limit=1).json()
    assert STORED_ROUTE_BYTES <= bounded["total"] <= STORED_ROUTE_BYTES + 200
    last = _stored(base, offset=bounded["total"] - 120, limit=120).json()["text"]
    assert f"only the first {STORED_ROUTE_BYTES} bytes" in last and f"({1 << 30} bytes)" in last
    (results / NAME).unlink()
    elsewhere = results.parent.parent / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / NAME).write_text("not this session's")
    shutil.rmtree(results)
    results.symlink_to(elsewhere)
    linked = _stored(base)
    assert linked.status_code == 403 and "tool-results/ is a symbolic link" in linked.text


@pytest.mark.parametrize("session", list(HOSTILE))
def test_a_record_naming_another_file_never_reads_it(
    watched: tuple[str, Path], session: str
) -> None:
    base, _ = watched
    answer = _stored(base, session)
    assert answer.status_code in (403, 404)
    assert "root:" not in answer.text


def test_calls_and_threads_without_a_stored_file_are_404(
    watched: tuple[str, Path], tmp_path: Path
) -> None:
    base, _ = watched
    url = f"{base}/api/threads/claude-{SESSION}/calls/toolu_02seq/stored"
    plain = httpx.get(url, timeout=30)
    assert plain.status_code == 404
    for bad in ("nope", "../etc", "claude-..%2f..%2fetc"):
        assert httpx.get(f"{base}/api/threads/{bad}/calls/{CALL}/stored").status_code == 404
    assert _stored(base, limit=0).status_code == 400
