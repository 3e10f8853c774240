"""A tool author's typed descriptor renders exactly like the hand-written dict form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from render_samples import PNG

from toolview.contract import (
    KIND_PROPS,
    Descriptor,
    FileProps,
    ImageProps,
    Observation,
    RunEnded,
    RunStarted,
    ShellProps,
    TableProps,
    Thread,
    ToolCall,
    ToolResult,
    decode_observation,
    encode_observation,
)
from toolview.contract.blocks import BlocksProps, TextBlock
from toolview.render import CallView, KindBody, html, markdown, terminal, text, view_entry

TYPED: list[tuple[str, msgspec.Struct, dict[str, Any]]] = [
    (
        "shell",
        ShellProps(command="pytest", exit_code=1, stdout="1 failed", stderr="E", duration_ms=1500),
        {
            "command": "pytest",
            "exitCode": 1,
            "stdout": "1 failed",
            "stderr": "E",
            "durationMs": 1500,
        },
    ),
    (
        "file",
        FileProps(path="a.py", content="x = 1\ny = 2\n", language="python", start_line=10),
        {"path": "a.py", "content": "x = 1\ny = 2\n", "language": "python", "startLine": 10},
    ),
    (
        "table",
        TableProps(columns=["n", "v"], rows=[[1, "a"]]),
        {"columns": ["n", "v"], "rows": [[1, "a"]]},
    ),
    ("image", ImageProps(mime_type="image/png", data=PNG), {"mimeType": "image/png", "data": PNG}),
    (
        "blocks",
        BlocksProps(blocks=[TextBlock(text="hi")]),
        {"blocks": [{"type": "text", "text": "hi"}]},
    ),
]

SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": text.render_thread,
    "terminal": lambda thread: terminal.render_thread(thread, width=80, color=True),
    "markdown": markdown.render_thread,
    "html": html.render_thread_html,
}


def observations(props: list[msgspec.Struct | dict[str, Any]]) -> list[Observation]:
    """One run with a call per kind, each result described with the given props."""
    out: list[Observation] = [RunStarted("r1")]
    for number, ((kind, _, _), given) in enumerate(zip(TYPED, props, strict=True)):
        out.append(ToolCall(f"c{number}", kind, {}))
        descriptor = Descriptor(kind, given)
        out.append(ToolResult(f"c{number}", kind, "the text", True, False, descriptor))
    return [*out, RunEnded("r1", "completed")]


def test_typed_props_render_as_their_kind() -> None:
    thread = Thread.from_observations(observations([typed for _, typed, _ in TYPED]))
    for (kind, typed, _), entry in zip(TYPED, thread.calls(), strict=True):
        view = view_entry(entry, thread)
        assert isinstance(view, CallView) and isinstance(view.body, KindBody), kind
        body = view.body
        assert body.props == typed and isinstance(body.props, KIND_PROPS[kind])


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_typed_props_render_like_the_dict_form_and_after_the_wire(surface: str) -> None:
    typed = observations([typed for _, typed, _ in TYPED])
    by_hand = observations([raw for _, _, raw in TYPED])
    over_the_wire = [decode_observation(encode_observation(item)) for item in typed]
    render = SURFACES[surface]
    expected = render(Thread.from_observations(by_hand))
    assert "the text" not in expected  # every call rendered as its kind, not the fallback
    assert render(Thread.from_observations(typed)) == expected
    assert render(Thread.from_observations(over_the_wire)) == expected
