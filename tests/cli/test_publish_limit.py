"""``toolview run --to`` against a real ``toolview serve --body-limit 64k``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from publishing_runs import run_command as toolview
from publishing_runs import stored
from toolview_servers import ToolviewServer

BIG_OUTPUT = "print(('x'*999+'\\n')*2000, end='')"  # 2 MB; each result is ~130 kB on the wire


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("publish-limit") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db), "--body-limit", "64k"])
    yield started
    started.kill()


def test_a_run_bigger_than_the_limit_is_published_whole_once(
    server: ToolviewServer, tmp_path: Path
) -> None:
    url = f"{server.url}/threads/big2"
    done = toolview("run", "--to", url, "--", sys.executable, "-c", BIG_OUTPUT, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "publishing failed" not in done.stderr
    observations = stored(server, "big2")
    kinds = [o["kind"] for o in observations]
    assert kinds[:2] == ["run-started", "tool-call"] and kinds[-1] == "run-ended"
    assert observations[-1]["outcome"] == "completed"
    results = [o for o in observations if o["kind"] == "tool-result"]
    final = results[-1]
    assert final["complete"] is True and all(o["complete"] is False for o in results[:-1])
    assert str(final["text"]).endswith("x" * 999 + "\n")  # the end of the output
    descriptor = final["descriptor"]
    assert isinstance(descriptor, dict) and descriptor["props"]["exitCode"] == 0
    assert descriptor["truncated"]["total"] == 2_000_000
    call = str(final["toolCallId"])
    assert f"the result of call {call} was over the server's body limit" in done.stderr
    encoded = [repr(o) for o in observations]
    assert len(set(encoded)) == len(encoded)  # nothing stored twice


def test_one_observation_over_the_limit_alone_fails_clearly(
    server: ToolviewServer, tmp_path: Path
) -> None:
    url = f"{server.url}/threads/huge-args"
    script = "pass  # " + "y" * 80_000  # the command line itself: a tool-call over 64 kB
    done = toolview("run", "--to", url, "--", sys.executable, "-c", script, cwd=tmp_path)
    assert done.returncode == 75
    assert "publishing failed: cannot publish the tool-call of call" in done.stderr
    assert "over the limit of 65536" in done.stderr and "not published" in done.stderr
    assert [o["kind"] for o in stored(server, "huge-args")] == ["run-started"]
