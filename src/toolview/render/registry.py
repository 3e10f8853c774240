"""A per-surface registry of renderers keyed by kind, with failures contained.

IPython's formatters are the precedent: ``register`` returns what it replaced,
looking up an absent kind is not an error, and a renderer that raises never
blanks the result — the caller gets the surface's fallback with a note.

A built-in renderer is registered as a :class:`Deferred` (its module's name and
the function's): its module is imported when the kind is first drawn or looked
up, so a command drawing a plain session does not pay for the JSON, table,
Markdown and code renderers it never uses. Once loaded, an entry is the plain
function: ``lookup`` and ``register`` hand back the renderer itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Generic, TypeVar, cast

from toolview.render.clean import clean_field
from toolview.render.view import ErrorBody, FallbackBody, KindBody, fallback_for

__all__ = ["KIND_FUNCTIONS", "Deferred", "Registry", "Renderer", "deferred_kinds"]

R = TypeVar("R")
Renderer = Callable[[KindBody], R]


@dataclass(frozen=True)
class Deferred(Generic[R]):
    """A renderer named by ``module`` and ``name``, imported on first use."""

    module: str
    name: str

    def load(self) -> Renderer[R]:
        """Import the module and return the renderer (an import error propagates).

        ``__import__``, not ``importlib.import_module``: only the import statement's
        path is logged by ``python -X importtime``, which tests/cli/test_startup.py
        reads to pin what each command imports.
        """
        module = __import__(self.module, fromlist=[self.name])
        return cast("Renderer[R]", getattr(module, self.name))


Entry = Renderer[R] | Deferred[R]

KIND_FUNCTIONS: dict[str, tuple[str, str]] = {  # kind → (module, function) in a kinds package
    "shell": ("shell", "shell"),
    "file": ("code", "file"),
    "diff": ("code", "diff"),
    "json": ("data", "json_value"),
    "table": ("data", "table"),
    "links": ("links", "links"),
    "image": ("image", "image"),
    "markdown": ("markdown", "markdown"),
    "envelope": ("data", "envelope"),
    "todo": ("todo", "todo"),
}
"""Where the text, Markdown and terminal surfaces each keep a built-in kind's renderer."""


def deferred_kinds(package: str) -> dict[str, Deferred[R]]:
    """Every built-in kind of the surface whose kinds package is ``package``, unimported."""
    return {kind: Deferred(f"{package}.{mod}", fn) for kind, (mod, fn) in KIND_FUNCTIONS.items()}


class Registry(Generic[R]):
    """Renderers of one surface, each producing that surface's output type ``R``."""

    def __init__(self, renderers: Mapping[str, Entry[R]] | None = None) -> None:
        self._renderers: dict[str, Entry[R]] = dict(renderers or {})

    def _loaded(self, kind: str) -> Renderer[R] | None:
        """``kind``'s renderer, its module imported (and the entry replaced) if deferred."""
        entry = self._renderers.get(kind)
        if not isinstance(entry, Deferred):
            return entry
        renderer = self._renderers[kind] = entry.load()
        return renderer

    def register(self, kind: str, renderer: Renderer[R]) -> Renderer[R] | None:
        """Use ``renderer`` for ``kind``; return the renderer it replaced, or ``None``."""
        if not isinstance(kind, str) or not kind:
            raise ValueError("kind must be a non-empty string")
        previous = self._loaded(kind)
        self._renderers[kind] = renderer
        return previous

    def unregister(self, kind: str) -> Renderer[R] | None:
        """Stop rendering ``kind``; return the renderer removed, or ``None``."""
        previous = self._loaded(kind)
        self._renderers.pop(kind, None)
        return previous

    def lookup(self, kind: str) -> Renderer[R] | None:
        """The renderer for ``kind``, or ``None`` when the surface has none."""
        return self._loaded(kind)

    def __contains__(self, kind: object) -> bool:
        return kind in self._renderers

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._renderers))

    def copy(self) -> Registry[R]:
        """An independent registry with the same renderers (for a customised surface)."""
        return Registry(self._renderers)

    def render(self, body: KindBody, fallback: Callable[[FallbackBody], R]) -> R:
        """Render ``body`` with its kind's renderer, or ``fallback`` with a note saying why.

        The renderer is handed the body with ``registry`` set to this one, so the
        kinds nested in its content are rendered by the same renderers. A
        deferred renderer is imported inside the guard: a module that fails to
        import is a renderer that failed, and the kind falls back like one.
        """
        if body.kind not in self._renderers:
            kind = clean_field(body.kind, 200)  # cleaned only when it is shown
            return fallback(fallback_for(body, f"no renderer for kind '{kind}'"))
        try:
            renderer = cast("Renderer[R]", self._loaded(body.kind))
            return renderer(body if body.registry is self else replace(body, registry=self))
        except Exception as exc:
            kind = clean_field(body.kind, 200)
            note = f"the renderer for kind '{kind}' failed ({type(exc).__name__})"
            return fallback(fallback_for(body, note))

    def render_error(
        self,
        body: ErrorBody,
        message: Callable[[ErrorBody, str | None], R],
        lead: Callable[[R, R], R],
    ) -> R:
        """An error's body: its kind's renderer inside the error frame, else ``message``.

        ``message(error, note)`` draws an error's own text; ``note`` says why the
        kind was not drawn when its renderer failed. A kind this surface has no
        renderer for shows the error's text with no note: an unknown kind's
        error reads as any other error. ``lead(said, drawn)`` puts the error's
        text before the drawn kind, asked only when ``body.lead`` and the kind
        was drawn (a fallback already shows the text: it is never said twice);
        that text is drawn without the truncation notice, here for every
        surface, as the kind body says what was cut.
        """
        if body.kind is None or body.kind.kind not in self._renderers:
            return message(body, None)
        fell_back: list[bool] = []

        def fallback(shown: FallbackBody) -> R:
            fell_back.append(True)
            return message(body, shown.note)

        drawn = self.render(body.kind, fallback)
        if not body.lead or fell_back:
            return drawn
        return lead(message(replace(body, truncated=None), None), drawn)
