"""Cleaning the shown window only, with a margin so a cut never splits a secret."""

from __future__ import annotations

from render_samples import call_thread

from corpora.secrets import SECRETS
from toolview.render import Limits, clean_field, shown_text
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface

GITHUB = next(secret for label, (_, secret) in SECRETS.items() if "github" in label)


def test_a_secret_straddling_the_head_cut_is_redacted_whole() -> None:
    text = "a" * 90 + " token " + GITHUB + " tail"
    window = shown_text(text, Limits(max_chars=100))
    assert GITHUB[:5] not in window.text
    assert window.text.endswith(" token [re")  # the marker, cut where the window ends


def test_a_secret_straddling_the_tail_cut_is_redacted_whole() -> None:
    text = "head " + GITHUB + " " + "b" * 95
    window = shown_text(text, Limits(max_chars=100), "tail")
    assert GITHUB[-5:] not in window.text


def test_a_secret_straddling_a_line_cut_is_redacted() -> None:
    text = "\n".join(["x"] * 200 + [GITHUB] + ["y"] * 2)
    window = shown_text(text, Limits(max_lines=2), "tail")
    assert window.text == "y\ny" and window.before is not None
    window = shown_text(text, Limits(max_lines=201), "head")
    assert GITHUB not in window.text


def test_clean_field_bounds_and_cleans() -> None:
    assert clean_field("a\x1b[2Jb", 100).startswith("a") and "\x1b" not in clean_field("\x1b", 9)
    assert clean_field("z" * 50, 10) == "z" * 10 + " … 40 more characters"


def test_twenty_megabytes_of_stdout_render_bounded_on_every_surface() -> None:
    """Slicing before layout: the output stays small and says how much was left out."""
    stdout = "".join(f"line {number:08d} of output\n" for number in range(900_000))
    assert len(stdout) > 20_000_000
    thread = call_thread(
        tool="bash",
        text=stdout,
        kind="shell",
        props={"command": "big", "exitCode": 0, "stdout": stdout, "stderr": ""},
    )
    outputs = {
        "text": text_surface.render_thread(thread),
        "terminal": terminal_surface.render_thread(thread, width=80, color=True),
        "markdown": markdown_surface.render_thread(thread),
    }
    for surface, output in outputs.items():
        assert len(output) < 40_000, surface
        assert "line 00899999 of output" in output, surface
        assert "line 00000000" not in output, surface
        assert "more characters" in output, surface  # too big to count lines cheaply


def test_a_field_keeps_to_one_line_with_every_break_shown_or_spaced() -> None:
    text = "a\nb\rc\r\nd\x0be\x0cf\x85g\u2028h\u2029i\x1cj"
    shown = clean_field(text, 100)
    assert shown == "a␤b␍c␤d␋e␌f<U+0085>g<U+2028>h<U+2029>i␜j"
    assert len(shown.splitlines()) == 1
    spaced = clean_field(text, 100, "space")
    assert len(spaced.splitlines()) == 1 and spaced.startswith("a b␍c d")
