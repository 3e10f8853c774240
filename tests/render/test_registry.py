"""Registries: register returns what it replaced; failures contained on every surface."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from render_samples import CASES

from toolview.contract.thread import Thread
from toolview.render import FallbackBody, KindBody, Registry
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.registry import Deferred

SURFACES: dict[str, tuple[Any, Callable[..., str]]] = {
    "text": (text_surface, lambda t, r: text_surface.render_thread(t, registry=r)),
    "terminal": (terminal_surface, lambda t, r: terminal_surface.render_thread(t, registry=r)),
    "markdown": (markdown_surface, lambda t, r: markdown_surface.render_thread(t, registry=r)),
}


def test_register_returns_what_it_replaced() -> None:
    registry: Registry[str] = Registry()

    def first(body: KindBody) -> str:
        return "1"

    def second(body: KindBody) -> str:
        return "2"

    assert registry.register("k", first) is None
    assert registry.register("k", second) is first
    assert registry.lookup("k") is second and "k" in registry
    assert registry.unregister("k") is second
    assert registry.lookup("k") is None and registry.unregister("k") is None


def test_an_empty_kind_cannot_be_registered() -> None:
    with pytest.raises(ValueError):
        Registry[str]().register("", lambda body: "")


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_surface_registers_every_built_in_kind(surface: str) -> None:
    module, _ = SURFACES[surface]
    assert set(module.REGISTRY) >= {
        "shell",
        "file",
        "diff",
        "json",
        "table",
        "links",
        "image",
        "markdown",
        "envelope",
    }


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_renderer_that_raises_falls_back_with_a_note(surface: str) -> None:
    module, render = SURFACES[surface]

    def broken(body: KindBody) -> Any:
        raise RuntimeError("boom")

    registry = module.REGISTRY.copy()
    assert registry.register("shell", broken) is module.REGISTRY.lookup("shell")
    output = render(CASES["shell"](), registry)
    assert "the renderer for kind 'shell' failed (RuntimeError)" in output
    assert "showing the text" in output
    assert "a" in output and "b" in output


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_an_unknown_kind_shows_its_text_with_a_note(surface: str) -> None:
    _, render = SURFACES[surface]
    output = render(CASES["unknown_kind"](), None)
    assert "no renderer for kind 'acme" in output and "widget text" in output


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_registered_custom_kind_is_used(surface: str) -> None:
    module, render = SURFACES[surface]
    registry = module.REGISTRY.copy()
    custom: dict[str, Callable[[KindBody], Any]] = {
        "text": lambda body: [f"spun {body.props['spin']} times"],
        "terminal": lambda body: f"spun {body.props['spin']} times",
        "markdown": lambda body: [f"spun {body.props['spin']} times"],
    }
    assert registry.register("acme.widget", custom[surface]) is None
    output = render(CASES["unknown_kind"](), registry)
    assert "spun 3 times" in output and "no renderer" not in output
    assert "acme.widget" not in module.REGISTRY  # the copy did not touch the surface's own


def test_the_module_level_register_returns_what_it_replaced() -> None:
    previous = text_surface.register("json", lambda body: ["custom"])
    try:
        assert previous is not None
        assert "custom" in text_surface.render_thread(CASES["json"]())
    finally:
        assert text_surface.register("json", previous) is not None


def test_the_fallback_is_never_blank() -> None:
    registry: Registry[list[str]] = Registry()
    seen: list[FallbackBody] = []

    def fallback(body: FallbackBody) -> list[str]:
        seen.append(body)
        return ["fallback"]

    thread: Thread = CASES["shell"]()
    from toolview.render import CallView, view_entry

    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView) and isinstance(view.body, KindBody)
    body = view.body
    assert registry.render(body, fallback) == ["fallback"]
    assert seen[0].note == "no renderer for kind 'shell'"


RENDERER_MODULE = """
def draw(body):
    return ["drawn " + body.kind]
"""


def deferred_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str
) -> Registry[list[str]]:
    """A registry whose ``shell`` renderer is ``draw`` in a fresh module ``name``."""
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return Registry({"shell": Deferred(name, "draw")})


def shell_body() -> KindBody:
    from toolview.render import CallView, view_entry

    thread: Thread = CASES["shell"]()
    view = view_entry(thread.calls()[0], thread)
    assert isinstance(view, CallView) and isinstance(view.body, KindBody)
    return view.body


def test_a_deferred_renderer_is_imported_when_its_kind_is_first_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = deferred_registry(tmp_path, monkeypatch, "tv_deferred_draw", RENDERER_MODULE)
    assert "shell" in registry and "tv_deferred_draw" not in sys.modules
    assert registry.render(shell_body(), lambda body: ["fallback"]) == ["drawn shell"]
    assert registry.lookup("shell") is sys.modules["tv_deferred_draw"].draw


def test_registering_over_a_deferred_renderer_returns_the_renderer_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = deferred_registry(tmp_path, monkeypatch, "tv_deferred_swap", RENDERER_MODULE)
    copy = registry.copy()
    previous = registry.register("shell", lambda body: ["mine"])
    assert previous is sys.modules["tv_deferred_swap"].draw
    assert copy.unregister("shell") is previous and "shell" not in copy


def test_a_deferred_renderer_that_fails_to_import_falls_back_with_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "raise ImportError('a missing optional dependency')\n"
    registry = deferred_registry(tmp_path, monkeypatch, "tv_deferred_broken", source)
    notes: list[str | None] = []
    drawn = registry.render(shell_body(), lambda body: notes.append(body.note) or ["text"])
    assert drawn == ["text"]
    assert notes == ["the renderer for kind 'shell' failed (ImportError)"]


@pytest.mark.parametrize("surface", [*sorted(SURFACES), "html"])
def test_every_built_in_renderer_names_a_function_that_exists(surface: str) -> None:
    """A refactor guard: a misspelt deferred name would only fail when its kind is drawn."""
    registry = importlib.import_module(f"toolview.render.{surface}").REGISTRY.copy()
    for kind in registry:
        assert callable(registry.lookup(kind)), kind
