"""``ThreadReader`` against a real server on loopback; ``LiveRebuilder`` against real frames.

The rebuilder is fed the frames ``wire.follow.Follower`` (the server's own
frame maker) produces, so "rebuilt exactly" is checked against the producer's
accumulated text, including a follower resumed mid-call.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from toolview_servers import NDJSON, ServedApp, ToolviewServer, free_port

from toolview.contract import Message, Observation, ToolCall, ToolResult, encode_observation
from toolview.remote.reader import (
    BadFrame,
    NotAThreadURL,
    NotAuthorized,
    ThreadNotFound,
    ThreadReader,
    Unreachable,
)
from toolview.remote.rebuild import FrameError, LiveRebuilder
from toolview.safety.output import live_output
from toolview.server.app import create_app
from toolview.wire.feed import LogItem, OpenCall
from toolview.wire.follow import Follower, Redactor
from toolview.wire.log.sqlite import SQLiteLog

SAME = Redactor(lambda text: text, lambda value: value)


def crossed(text: str, *, complete: bool) -> str:
    """What a follower rebuilds of ``text``: cleaned on the server (no escape sequence
    but colours, ``safety.output``), its colour marks made ``ESC[…m`` again."""
    return live_output(text, SAME.text, complete=complete).replace("\x1a", "\x1b[")


def partial(text: str, call: str = "c1") -> ToolResult:
    return ToolResult(call, "shell", text, complete=False, is_error=False)


def final(text: str, call: str = "c1") -> ToolResult:
    return ToolResult(call, "shell", text, complete=True, is_error=False)


# -- the rebuilder, sans-IO ---------------------------------------------------------------

# A producer's successive texts: grow, slide a tail window, or start over.
steps = st.lists(
    st.tuples(
        st.sampled_from(["grow", "slide", "replace"]), st.text(max_size=30), st.integers(0, 40)
    ),
    min_size=1,
    max_size=25,
)


def texts_of(plan: list[tuple[str, str, int]]) -> list[str]:
    texts, text = [], ""
    for op, chunk, cut in plan:
        if op == "grow":
            text += chunk
        elif op == "slide":
            text = text[min(cut, len(text)) :] + chunk
        else:
            text = chunk
        texts.append(text)
    return texts


def frames_for(
    follower: Follower, items: list[LogItem], now: float, step: float
) -> list[tuple[int, bytes]]:
    out = []
    for item in items:
        out += [(f.seq, f.data) for f in follower.push(item, now)]
        now += step  # 1 s: every partial crosses; 0 s: all but the first are coalesced
    return out


def deduped(texts: list[str]) -> list[str]:
    return [t for n, t in enumerate(texts) if n == 0 or texts[n - 1] != t]


@given(steps, st.integers(0, 26), st.sampled_from([0.0, 1.0]))
def test_live_output_is_rebuilt_exactly_across_a_resume(
    plan: list[tuple[str, str, int]], cut: int, step: float
) -> None:
    texts = texts_of(plan)
    items = [LogItem(1, ToolCall("c1", "shell", {"command": "x"}))]
    items += [LogItem(n, partial(text)) for n, text in enumerate(texts, start=2)]
    items.append(LogItem(len(items) + 1, final(texts[-1] + "done")))
    cut = min(cut, len(items) - 1)
    rebuilder = LiveRebuilder()
    frames = frames_for(Follower("live", SAME), items[:cut], 0.0, step)
    # the connection drops after seq ``cut``; a new follower resumes after it, as the
    # server does: a call whose last output is at or before ``cut`` starts with a reset
    # of its text there; one with output after ``cut`` is reset by its next record
    running = {"c1": OpenCall("shell", 2, cut, texts[-1], 0)} if cut == len(texts) + 1 else {}
    resumed = Follower("live", SAME)
    frames += [(f.seq, f.data) for f in resumed.start(cut, running, 100.0)]
    frames += frames_for(resumed, items[cut:], 100.0, step)
    seen = [rebuilder.decode(seq, data).observation for seq, data in frames]
    results = [o for o in seen if isinstance(o, ToolResult)]
    # exact, however it was cut (cleaned: a running call's output crosses cleaned)
    assert results[-1] == final(crossed(texts[-1] + "done", complete=True))
    # while the call runs, each text crosses up to its last whitespace (``safety.partial``)
    shown = [crossed(text, complete=False) for text in texts]
    assert all(r == partial(r.text) and r.text in shown for r in results[:-1])
    if step:  # nothing coalesced: every text the producer had, in order
        assert deduped([r.text for r in results[:-1]]) == deduped(shown)
    assert rebuilder.texts == {}  # the completed call is forgotten


@pytest.mark.parametrize(
    ("data", "complaint"),
    [
        (b"not json", "malformed JSON"),
        (b'{"kind":"tool-output","toolCallId":"c1","toolName":"s","op":"warp","text":""}', "warp"),
        (
            b'{"kind":"tool-output","toolCallId":"c1","toolName":"s","op":"append","text":"x"}',
            "base",
        ),
        (b'{"kind":"tool-output","toolCallId":"c1","toolName":"s","op":"reset","text":3}', "str"),
        (b'{"kind":"tool-call","toolCallId":"","toolName":"s","args":{}}', "$.toolCallId"),
        (b'{"kind":"\x1b]0;title\x07"}', "\\x1b"),
    ],
)
def test_a_frame_that_cannot_be_read_is_an_error_naming_it(data: bytes, complaint: str) -> None:
    with pytest.raises(FrameError) as caught:
        LiveRebuilder().decode(7, data)
    assert str(caught.value).startswith("frame 7: ")
    assert complaint in str(caught.value)
    assert "\x1b" not in str(caught.value)


def test_a_message_mentioning_tool_output_is_still_a_message() -> None:
    raw = encode_observation(Message("assistant", 'the "tool-output" frame'))
    assert LiveRebuilder().decode(3, raw).observation == Message(
        "assistant", 'the "tool-output" frame'
    )


# -- the reader, against a real server ---------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServedApp]:
    path = tmp_path / "log.db"
    with ServedApp(create_app(lambda: SQLiteLog(path), keepalive=0.2, token="s3cret")) as started:
        yield started


def post(
    server: ServedApp | ToolviewServer, observations: Sequence[Observation], thread: str = "t"
) -> None:
    headers = {"authorization": "Bearer s3cret"}
    httpx.post(f"{server.url}/api/threads", json={"id": thread}, headers=headers).raise_for_status()
    body = b"".join(encode_observation(o) + b"\n" for o in observations)
    url = f"{server.url}/api/threads/{thread}/observations"
    httpx.post(url, content=body, headers={**headers, **NDJSON}, timeout=30).raise_for_status()


def growing(lines: int) -> list[Observation]:
    observations: list[Observation] = [ToolCall("c1", "shell", {"command": "make"})]
    text = ""
    for n in range(lines):
        text += f"line {n}\n"
        observations.append(partial(text))
    return [*observations, final(text), Message("assistant", "done")]


def test_observations_pages_through_the_log_with_partials_rebuilt(server: ServedApp) -> None:
    sent = growing(30)
    post(server, sent)
    with ThreadReader(f"{server.url}/threads/t", token="s3cret") as reader:
        items = list(reader.observations(page=7))
    assert [item.seq for item in items] == list(range(1, len(sent) + 1))
    assert [item.observation for item in items] == sent


def test_follow_rebuilds_running_output_and_ignores_keepalives(server: ServedApp) -> None:
    sent = growing(5)
    post(server, sent[:3])
    seen: list[Observation] = []
    reader = ThreadReader(f"{server.url}/threads/t", token="s3cret")
    with reader:
        stream = reader.follow()
        seen.append(next(stream).observation)  # the call
        seen.append(next(stream).observation)  # its first output, as a reset
        threading.Timer(0.6, post, (server, sent[3:])).start()  # after a few pings
        for item in stream:
            seen.append(item.observation)
            if isinstance(item.observation, Message):
                break
    results = [o for o in seen if isinstance(o, ToolResult)]
    assert results[-1] == sent[-2] and seen[-1] == sent[-1] and seen[0] == sent[0]
    assert all(r in sent for r in results)  # coalescing may skip partials, never alter one
    assert reader.position == len(sent)


def test_follow_resumes_after_the_server_is_killed_and_restarted(tmp_path: Path) -> None:
    db = str(tmp_path / "log.db")
    sent = [Message("assistant", f"message {n}") for n in range(6)]
    retries: list[str] = []
    resumed: list[int] = []
    first = ToolviewServer.start(["--port", "0", "--db", db])
    try:
        post(first, sent[:3])
        reader = ThreadReader(f"{first.url}/threads/t")
        stream = reader.follow(
            on_retry=lambda attempt, delay, error: retries.append(str(error)),
            on_resume=resumed.append,
        )
        seen = [next(stream) for _ in range(3)]
    finally:
        first.kill()  # mid-stream: the reader's connection breaks
    second = ToolviewServer.start(["--port", str(first.port), "--db", db])
    try:
        post(second, sent[3:])
        seen += [next(stream) for _ in range(3)]
        reader.close()
    finally:
        second.kill()
    assert [item.seq for item in seen] == [1, 2, 3, 4, 5, 6]  # no gap, nothing twice
    assert [item.observation for item in seen] == sent
    assert retries and resumed == [3]


def test_errors_say_what_went_wrong(server: ServedApp) -> None:
    post(server, growing(1))
    with pytest.raises(NotAuthorized, match="wants a valid token"):
        list(ThreadReader(f"{server.url}/threads/t", token="wrong").observations())
    with pytest.raises(NotAuthorized):
        next(ThreadReader(f"{server.url}/threads/t", token="").follow())
    with pytest.raises(ThreadNotFound, match="no thread 'gone'"):
        list(ThreadReader(f"{server.url}/threads/gone", token="s3cret").observations())
    with pytest.raises(ThreadNotFound):
        next(ThreadReader(f"{server.url}/threads/gone", token="s3cret").follow())
    nobody = f"http://127.0.0.1:{free_port()}/threads/t"
    with pytest.raises(Unreachable, match="cannot reach"):
        list(ThreadReader(nobody).observations())
    with pytest.raises(Unreachable, match="cannot reach"):
        next(ThreadReader(nobody).follow())
    with pytest.raises(NotAThreadURL, match="not a thread URL"):
        ThreadReader(f"{server.url}/api/threads")
    with pytest.raises(NotAuthorized, match="visible ASCII"):
        ThreadReader(f"{server.url}/threads/t", token="bad\ntoken")


def test_a_server_that_breaks_the_api_is_reported_not_crashed_on() -> None:
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    def events(request: object) -> Response:
        return Response(json.dumps({"events": [{"seq": 1, "observation": {"kind": "?"}}]}))

    def follow(request: object) -> Response:
        return Response("id: one\ndata: {}\n\n", media_type="text/event-stream")

    def plain(request: object) -> Response:
        return Response("hello")

    app = Starlette(
        routes=[
            Route("/api/threads/t/events", events),
            Route("/api/threads/t/follow", follow),
            Route("/api/threads/u/follow", plain),
        ]
    )
    with ServedApp(app) as served:
        with pytest.raises(BadFrame, match="event 1 breaks the contract"):
            list(ThreadReader(f"{served.url}/threads/t").observations())
        with pytest.raises(BadFrame, match="not a seq: 'one'"):
            next(ThreadReader(f"{served.url}/threads/t").follow())
        with pytest.raises(BadFrame, match="event stream"):
            next(ThreadReader(f"{served.url}/threads/u").follow())
