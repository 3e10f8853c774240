"""``cli.sync_files``: a batch stored by the server but not saved here is resent byte for byte.

The kill this guards against falls between the server's answer and the
state file's save — too narrow for a SIGKILL test to land on every time —
so the POST here really happens (a real ``toolview serve``) and then the
process "dies" (an exception out of ``send``); the file grows; a fresh
start from the state file on disk must resend exactly the same batch under
the same key, so the server stores every call once.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from claude_sessions import bash_call, bash_result, user
from toolview_servers import ToolviewServer

from toolview.cli.sync_files import Context, Identity, outgoing, sync_file
from toolview.cli.sync_joins import Joins
from toolview.cli.sync_state import SyncState
from toolview.contract import Message, Observation, RunStarted
from toolview.remote.client import Publisher
from toolview.server.ingest.watch.formats import FORMATS

SESSION = "5e55e55e-0000-4000-8000-0000000f11e5"


class Killed(Exception):
    """The forwarder dies right after the server stored its batch."""


def lines() -> list[bytes]:
    records = [user(SESSION, 0, "deploy")]
    for n in range(6):
        call = f"toolu_file{n:04d}"
        records += [bash_call(SESSION, 2 * n + 1, call, f"make {n}")]
        records += [bash_result(SESSION, 2 * n + 2, call, f"step {n} ok\n")]
    return [json.dumps(record).encode() + b"\n" for record in records]


@pytest.fixture
def server(tmp_path: Path) -> ToolviewServer:
    served = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield served  # type: ignore[misc]
    served.kill()


def test_a_batch_stored_but_not_saved_is_resent_whole_under_its_key(
    server: ToolviewServer, tmp_path: Path
) -> None:
    path = tmp_path / "projects" / "p" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    written = lines()
    path.write_bytes(b"".join(written[:7]))
    state_path = tmp_path / "state" / "sync.json"
    context = Context(FORMATS, Identity("m", "u"), 3600.0, Joins())

    def send(thread: str, observations: list[Observation], key: str) -> None:
        with Publisher(f"{server.url}/threads/{thread}") as publisher:
            publisher.publish(observations, key=key)

    def send_then_die(thread: str, observations: list[Observation], key: str) -> None:
        send(thread, observations, key)
        raise Killed

    with pytest.raises(Killed):
        sync_file(path, {}, SyncState(state_path), send_then_die, context)
    with path.open("ab") as stream:
        stream.writelines(written[7:])
    sent = sync_file(path, {}, SyncState.load(state_path), send, context)
    answer = httpx.get(f"{server.url}/api/threads/claude-{SESSION}/events").json()
    kinds = Counter(
        (e["observation"]["kind"], e["observation"].get("toolCallId")) for e in answer["events"]
    )
    assert kinds[("run-started", None)] == 1
    calls = {k: n for k, n in kinds.items() if k[0] in ("tool-call", "tool-result")}
    assert len(calls) == 12 and set(calls.values()) == {1}
    assert sent == 2  # the batch in flight again, then the rest


def test_what_leaves_is_stamped_and_redacted() -> None:
    aws = "AKIA" + "Q3ZT7W2B9XK4M6PL"
    sent = outgoing(
        [RunStarted(run_id="r"), Message(role="user", text=f"key {aws}")], Identity("m1", "ann")
    )
    assert isinstance(sent[0], RunStarted)
    assert (sent[0].machine, sent[0].user) == ("m1", "ann")
    assert isinstance(sent[1], Message) and aws not in sent[1].text
