"""The thread's search, its call output chunks and raw view, its window: over the API, both logs."""

from __future__ import annotations

import time

import msgspec
import pytest
from starlette.testclient import TestClient

from toolview.contract import Message, Observation, ToolCall, ToolResult, encode_observation
from toolview.render.html import call_element_id
from toolview.safety.opaque import opaque_id
from toolview.server.page.search.thread import PATTERN_CHARS

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"


def post(client: TestClient, thread: str, observations: list[Observation]) -> None:
    client.post("/api/threads", json={"id": thread})
    body = "\n".join(encode_observation(o).decode() for o in observations)
    answer = client.post(
        f"/api/threads/{thread}/observations",
        content=body,
        headers={"content-type": "application/x-ndjson"},
    )
    assert answer.status_code == 200, answer.text


def calls(n: int, text: str = "line {i}\nneedle {i}\n") -> list[Observation]:
    made: list[Observation] = [Message("user", "find the needles")]
    for i in range(n):
        made.append(ToolCall(f"c{i}", "shell", {"command": f"grep needle f{i}"}))
        made.append(ToolResult(f"c{i}", "shell", text.format(i=i), complete=True, is_error=False))
    return made


def search(client: TestClient, thread: str, **params: str) -> dict[str, object]:
    answer = client.get(f"/api/threads/{thread}/search", params=params)
    assert answer.status_code == 200, answer.text
    found: dict[str, object] = answer.json()
    return found


def test_plain_search_counts_lists_and_places_every_match(client: TestClient) -> None:
    post(client, "t", calls(300))
    found = search(client, "t", q="NEEDLE 29")
    # "needle 29" and "needle 290".."299" in outputs, the same in args ("grep needle f29…": no)
    assert found["total"] == 11
    matches = found["matches"]
    assert isinstance(matches, list)
    first = matches[0]
    assert first["toolCallId"] == "c29"
    assert first["elementId"] == call_element_id("c29")
    assert first["field"] == "output"
    assert first["index"] == 29
    assert first["line"] == 2
    assert first["snippet"][first["start"] : first["end"]] == "needle 29"
    assert found["truncated"] is False


def test_a_limit_lists_fewer_but_counts_them_all(client: TestClient) -> None:
    post(client, "t", calls(50))
    found = search(client, "t", q="needle", limit="5")
    assert found["total"] == 100 + 1  # outputs, args, and the user's message
    assert len(found["matches"]) == 5  # type: ignore[arg-type]
    assert found["truncated"] is True


def test_regex_search_and_a_bad_pattern_is_a_400_with_its_reason(client: TestClient) -> None:
    post(client, "t", calls(20))
    found = search(client, "t", q=r"needle 1\d\Z", regex="1")
    assert found["regex"] is True
    assert found["total"] == 0  # Python's syntax: \Z is the text's very end, past its "\n"
    found = search(client, "t", q=r"(?m)^needle 1\d$", regex="1")
    assert found["total"] == 10
    bad = client.get("/api/threads/t/search", params={"q": "(unclosed", "regex": "1"})
    assert bad.status_code == 400
    assert "not a valid regular expression" in bad.json()["error"]
    long = client.get("/api/threads/t/search", params={"q": "a" * (PATTERN_CHARS + 1)})
    assert long.status_code == 400
    assert client.get("/api/threads/t/search", params={"q": ""}).status_code == 400
    assert client.get("/api/threads/nope/search", params={"q": "x"}).status_code == 404


def test_a_catastrophic_pattern_stops_at_the_time_budget(client: TestClient) -> None:
    post(client, "t", calls(1, text="a" * 5000 + "!"))
    began = time.monotonic()
    found = search(client, "t", q="(a|aa)*$", regex="1")  # (a+)+$ is refused before compiling
    assert found["stopped"] == "time"
    assert found["truncated"] is True
    assert time.monotonic() - began < 30  # bounded (the budget is 2 s; the machine is shared)


def test_a_planted_secret_is_never_matched_only_its_redaction_marker(client: TestClient) -> None:
    post(
        client,
        "t",
        [
            ToolCall("c1", "shell", {"command": f"deploy --token {GITHUB}"}),
            ToolResult("c1", "shell", f"token={GITHUB}\n", complete=True, is_error=False),
            Message("assistant", f"I used {GITHUB}"),
        ],
    )
    for query in (GITHUB, GITHUB[:12], GITHUB[-10:]):
        assert search(client, "t", q=query)["total"] == 0
    found = search(client, "t", q="REDACTED")
    assert found["total"] == 3
    assert GITHUB[4:] not in msgspec.json.encode(found).decode()
    regex = search(client, "t", q="ghp_[A-Za-z0-9]+", regex="1")
    assert regex["total"] == 0


def test_the_output_comes_in_chunks_redacted_whole_before_the_cut(client: TestClient) -> None:
    text = "".join(f"line {i}\n" for i in range(1000)) + f"key {GITHUB}\n"
    post(client, "t", [ToolResult("c1", "shell", text, complete=True, is_error=False)])
    lines = client.get("/api/threads/t/calls/c1/output", params={"unit": "lines", "offset": "990"})
    assert lines.status_code == 200
    chunk = lines.json()
    assert chunk["total"] == 1001
    assert chunk["next"] is None
    assert chunk["text"].startswith("line 990\n")
    assert GITHUB not in chunk["text"] and "[redacted: github-token]" in chunk["text"]
    got, offset = "", 0
    while offset is not None:  # a secret split by a chunk's edge is never spelled either
        part = client.get(
            "/api/threads/t/calls/c1/output", params={"offset": str(offset), "limit": "61"}
        ).json()
        got += part["text"]
        offset = part["next"]
    assert got.startswith("line 0\nline 1\n") and GITHUB[4:] not in got
    assert client.get("/api/threads/t/calls/c1/output?limit=0").status_code == 400
    assert client.get("/api/threads/t/calls/c1/output?unit=pages").status_code == 400
    assert client.get("/api/threads/t/calls/nope/output").status_code == 404


def test_the_raw_view_is_the_calls_observations_redacted(client: TestClient) -> None:
    post(client, "t", calls(2))
    raw = client.get("/api/threads/t/calls/c1/raw").json()
    assert raw["toolCallId"] == "c1"
    kinds = [o["kind"] for o in raw["observations"]]
    assert kinds == ["tool-call", "tool-result"]
    assert raw["observations"][0]["args"] == {"command": "grep needle f1"}


def test_a_raw_secret_holding_call_id_never_routes_only_its_opaque_id(client: TestClient) -> None:
    secret_id = f"call-{GITHUB}"
    post(
        client,
        "t",
        [
            ToolCall(secret_id, "shell", {"command": "ls"}),
            ToolResult(secret_id, "shell", "a\nb\n", complete=True, is_error=False),
        ],
    )
    for tail in ("output", "raw"):
        raw = client.get(f"/api/threads/t/calls/{secret_id}/{tail}")
        assert raw.status_code == 404
        crossed = client.get(f"/api/threads/t/calls/{opaque_id(secret_id)}/{tail}")
        assert crossed.status_code == 200
        assert GITHUB[4:] not in crossed.text
    match = search(client, "t", q="ls")["matches"][0]  # type: ignore[index]
    assert match["toolCallId"] == opaque_id(secret_id)


def test_the_page_draws_the_last_60_calls_and_the_window_the_ones_before(
    client: TestClient,
) -> None:
    post(client, "t", calls(250))
    page = client.get("/threads/t").text
    assert page.count('class="tv-call"') + page.count('class="tv-call ') == 60
    assert 'data-calls="250"' in page and 'data-first="190"' in page
    assert 'data-before="190">190 earlier calls — load more</button>' in page
    assert f'id="{call_element_id("c189")}"' not in page
    window = client.get("/api/threads/t/window", params={"before": "190", "count": "100"})
    assert window.headers["x-toolview-first"] == "90"
    assert f'id="{call_element_id("c90")}"' in window.text
    assert f'id="{call_element_id("c189")}"' in window.text
    assert f'id="{call_element_id("c190")}"' not in window.text
    first = client.get("/api/threads/t/window", params={"before": "90", "count": "100"})
    assert first.headers["x-toolview-first"] == "0"
    assert "find the needles" in first.text  # the messages before the first call go with it
    whole = client.get("/api/threads/t/window", params={"from": "240"})
    assert whole.text.startswith('<div class="tv-thread"><button')
    assert whole.headers["x-toolview-calls"] == "250"
    last = client.get("/api/threads/t/window", params={"count": "10"})
    assert last.headers["x-toolview-first"] == "240"
    assert client.get("/api/threads/t/window", params={"count": "0"}).status_code == 400


def test_a_short_thread_is_drawn_whole_without_a_load_more(client: TestClient) -> None:
    post(client, "t", calls(60))
    page = client.get("/threads/t").text
    assert "tv-load-more" not in page and 'data-first="0"' in page


@pytest.mark.parametrize("thread", ["not-yet", "later.1"])
def test_a_thread_not_there_yet_is_a_page_waiting_for_it(client: TestClient, thread: str) -> None:
    page = client.get(f"/threads/{thread}")
    assert page.status_code == 200
    assert "waiting for the first observation" in page.text
    assert 'data-waiting="true"' in page.text
    assert client.get("/threads/bad%20id").status_code == 404


def test_windows_past_the_end_are_empty_not_errors(client: TestClient) -> None:
    post(client, "t", calls(3))
    for params in ({"from": "3"}, {"from": "99"}, {"before": "99", "count": "1"}):
        answer = client.get("/api/threads/t/window", params=params)
        assert answer.status_code == 200
        assert 'class="tv-call' not in answer.text
        assert answer.headers["x-toolview-first"] == "3"
