"""Fuzz every surface's renderer over arbitrary props, for every built-in kind and any kind.

Property: the rendered call always holds the tool name and either the kind's
render or the text with a visible note; a built-in renderer never fails on
props that passed validation (the registry would hide that as a fallback);
validated props are exactly the props given, never coerced.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from fuzz import strategies as s
from fuzz.budget import fuzz
from fuzz.surface_checks import check_props_not_coerced, check_thread, one_call

states = st.tuples(st.booleans(), st.booleans(), st.booleans()).filter(lambda s: s[0] or s[2])
truncations = st.none() | st.builds(
    lambda shown, extra, unit: {"shown": shown, "total": shown + extra, "unit": unit},
    s.non_negative,
    s.non_negative,
    st.sampled_from(["lines", "bytes", "items"]),
)


@st.composite
def kind_and_props(draw: st.DrawFn) -> tuple[str, Any]:
    kind = draw(s.kinds)
    return kind, draw(s.props_for(kind))


@given(s.names, kind_and_props(), s.hostile_text, truncations, states, st.integers(40, 140))
@fuzz("surfaces (4 renderers)", share=0.5)
def test_every_surface_renders_every_kind(
    tool: str,
    kind_props: tuple[str, Any],
    body: str,
    truncated: Any,
    state: tuple[bool, bool, bool],
    width: int,
) -> None:
    kind, props = kind_props
    check_props_not_coerced(kind, props)
    check_thread(one_call(tool, kind, props, body, truncated, state), tool, width)


@given(s.names, s.kinds, s.props_for("json"), s.hostile_text)
@fuzz("surfaces (4 renderers)", share=0.25)
def test_any_kind_with_any_props_falls_back_visibly(
    tool: str, kind: str, props: Any, body: str
) -> None:
    """Props built for one kind sent under another: rejected or rendered, never blank."""
    thread = one_call(tool, kind, props, body, None, (True, False, True))
    check_thread(thread, tool, 80)
