"""The scripted model itself: streamed and whole answers agree, lanes route, side calls answer.

The real CLI only ever streamed (2.1.197); the whole-message path, the token
count and the lane routing are checked here so a CLI that starts using them
finds them right.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from .scripted_anthropic import ToolUse, Turn, serve

TURN = Turn(
    text="Let me look, then list the files of the workspace.",
    thinking="The user wants a listing; Bash is the way.",
    calls=(ToolUse("toolu_1", "Bash", {"command": "ls -la", "description": "List"}),),
)


def ask(url: str, prompt: str, *, stream: bool) -> httpx.Response:
    body = {"model": "m", "stream": stream, "messages": [{"role": "user", "content": prompt}]}
    return httpx.post(f"{url}/v1/messages?beta=true", json=body, timeout=30)


def assemble(sse: str) -> dict[str, Any]:
    """Rebuild the message from its SSE events, as a client does."""
    events = [json.loads(line[5:]) for line in sse.splitlines() if line.startswith("data:")]
    message: dict[str, Any] = events[0]["message"]
    assert [e["type"] for e in events[:1] + events[-2:]] == [
        "message_start",
        "message_delta",
        "message_stop",
    ]
    partial: dict[int, str] = {}
    for event in events[1:-2]:
        index = event["index"]
        if event["type"] == "content_block_start":
            message["content"].append(event["content_block"])
        elif event["type"] == "content_block_delta":
            delta, block = event["delta"], message["content"][index]
            if delta["type"] == "input_json_delta":
                partial[index] = partial.get(index, "") + delta["partial_json"]
            elif delta["type"] == "signature_delta":
                block["signature"] = delta["signature"]
            else:
                key = "text" if delta["type"] == "text_delta" else "thinking"
                block[key] += delta[key]
        elif index in partial:
            message["content"][index]["input"] = json.loads(partial[index])
    message["stop_reason"] = events[-2]["delta"]["stop_reason"]
    message["usage"] = {**message["usage"], **events[-2]["usage"]}
    return message


def test_a_streamed_turn_reassembles_into_the_whole_message() -> None:
    with serve({"A": [TURN], "B": [TURN]}) as (url, _):
        streamed = assemble(ask(url, "A go", stream=True).text)
        whole = ask(url, "B go", stream=False).json()
    assert [block["type"] for block in whole["content"]] == ["thinking", "text", "tool_use"]
    assert whole["stop_reason"] == "tool_use"
    assert {**streamed, "id": "-"} == {**whole, "id": "-"}
    assert streamed["id"] != whole["id"]  # the CLI merges records that share one


def test_lanes_route_by_the_first_prompt_and_record_tool_results() -> None:
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x", "is_error": True}
    with serve({"SUB": [Turn(text="sub")], "MAIN": [Turn(text="main")]}) as (url, script):
        assert ask(url, "MAIN: go", stream=False).json()["content"][0]["text"] == "main"
        assert ask(url, "other", stream=False).json()["content"][0]["text"] == "done."
        body = {
            "model": "m",
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "SUB: count"}]},
                {"role": "assistant", "content": []},
                {"role": "user", "content": [result]},
            ],
        }
        answer = httpx.post(f"{url}/v1/messages", json=body, timeout=30).json()
        assert answer["content"][0]["text"] == "sub"
        counted = httpx.post(f"{url}/v1/messages/count_tokens", json=body, timeout=30)
        assert counted.json() == {"input_tokens": 100}
        assert httpx.get(f"{url}/v1/models", timeout=30).status_code == 404
    assert [request.lane for request in script.requests] == ["MAIN", None, "SUB"]
    assert script.tool_results == {"toolu_1": result}
    assert script.paths[-2:] == ["POST /v1/messages/count_tokens", "GET /v1/models"]
