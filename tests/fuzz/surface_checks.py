"""The surface property, shared by the fuzz test and the regression replay.

The rendered call always holds the tool name and either the kind's render or
the text with a visible note; a built-in renderer never fails on props that
passed validation (the registry would hide that as a fallback); validated
props are exactly the props given; the output is safe for its surface and
can be written as UTF-8.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from fuzz.properties import same
from toolview.contract import (
    Descriptor,
    PropsError,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolResult,
    Truncation,
    validate_props,
)
from toolview.render import (
    CallView,
    FallbackBody,
    KindBody,
    html,
    markdown,
    terminal,
    text,
    view_entry,
)

MARKER = "Zq9Marker"
CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SURFACES = {"text": text, "terminal": terminal, "markdown": markdown, "html": html}


def render_all(thread: Thread, width: int) -> dict[str, str]:
    """The thread on every surface (terminal without colour, so no escapes at all)."""
    return {
        "text": text.render_thread(thread),
        "terminal": terminal.render_thread(thread, width=width, color=False),
        "markdown": markdown.render_thread(thread),
        "html": html.render_thread_html(thread),
    }


def kept(validated: Any, given: Any) -> bool:
    """Every validated value is the given one, same type; unknown extra props may go."""
    if isinstance(validated, dict):
        return isinstance(given, dict) and all(
            key in given and kept(value, given[key]) for key, value in validated.items()
        )
    if isinstance(validated, list) and isinstance(given, list):
        return len(validated) == len(given) and all(map(kept, validated, given))
    return same(validated, given)


def check_props_not_coerced(kind: str, props: dict[str, Any]) -> None:
    try:
        validated = validate_props(kind, props)
    except PropsError as error:
        assert str(error)
        return
    if isinstance(validated, msgspec.Struct) and kind != "envelope":
        assert kept(msgspec.to_builtins(validated), props), (kind, props)


def check_thread(thread: Thread, tool: str, width: int) -> None:
    entry = thread.calls()[0]
    view = view_entry(entry, thread)
    assert isinstance(view, CallView)  # the fuzzed threads hold no refusal
    body = view.body
    if isinstance(body, KindBody):
        for name, surface in SURFACES.items():
            renderer = surface.REGISTRY.lookup(body.kind)
            if renderer is not None:  # a built-in must render what passed validation
                rendered = renderer(body)
                assert rendered is not None, name
    outputs = render_all(thread, width)
    for name, output in outputs.items():
        assert isinstance(output, str) and output.strip(), name
        assert tool in output, (name, output[:300])
        assert "failed (" not in output or tool.startswith("failed"), (name, output[:2000])
    flat = {name: " ".join(out.replace("│", " ").split()) for name, out in outputs.items()}
    unrendered = isinstance(body, KindBody) and all(
        surface.REGISTRY.lookup(body.kind) is None for surface in SURFACES.values()
    )
    if isinstance(body, FallbackBody) or unrendered:
        for name, output in flat.items():
            assert MARKER in output, (name, output[:2000])
            if unrendered or (isinstance(body, FallbackBody) and body.note):
                assert "showing the text" in output, (name, output[:2000])
    assert not CONTROLS.search(outputs["text"]), "a control character on the text surface"
    assert "\x1b" not in outputs["terminal"], "an escape on the colourless terminal"
    assert "<script" not in outputs["html"].lower(), "a script tag in HTML"
    for output in outputs.values():
        output.encode("utf-8")  # what cannot be written is a crash at the write


def one_call(
    tool: str, kind: str, props: Any, body: str, truncated: Any, state: tuple[bool, bool, bool]
) -> Thread:
    complete, is_error, ended = state
    cut = msgspec.convert(truncated, Truncation) if truncated is not None else msgspec.UNSET
    descriptor = Descriptor(kind=kind, props=props, truncated=cut)
    observations: list[Any] = [
        RunStarted("r1"),
        ToolCall("c1", tool, {"command": body[:40]}),
        ToolResult("c1", tool, f"{MARKER}\n{body}", complete, is_error, descriptor),
    ]
    if ended:
        observations.append(RunEnded("r1", "completed"))
    return Thread.from_observations(observations)
