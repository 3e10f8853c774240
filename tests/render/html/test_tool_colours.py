"""The tool colours' table is the rule's answer (``theme.tool_colours_rule``), kept as a literal
so no HTML export or server start computes it (~32 ms of CPU each)."""

from __future__ import annotations

import subprocess
import sys

from toolview.render.html.theme import THEME_CSS, tool_colours_rule
from toolview.render.html.tool_colours import TOOL_COLOURS, table_source


def test_the_table_is_what_the_rule_gives() -> None:
    rule = tool_colours_rule()
    assert rule == TOOL_COLOURS, "write the table again:\n" + table_source(rule)
    assert len(TOOL_COLOURS) > 200  # the exact 240 colours and some basic ones


def test_the_page_sheet_carries_each_adjusted_colour() -> None:
    for index, (light, dark) in TOOL_COLOURS.items():
        assert f"--tv-tc-{index}:{light};" in THEME_CSS
        assert f"--tv-tc-{index}:{dark};" in THEME_CSS


def test_drawing_a_page_does_not_run_the_rule() -> None:
    """Base computed the table at import: importing the html surface ran ``legible``
    for every one of the 256 colours (thousands of contrast checks)."""
    probe = (
        "import sys\n"
        "ran = []\n"
        "def seen(frame, event, arg):\n"
        "    code = frame.f_code\n"
        "    if event == 'call' and code.co_filename.endswith('legible.py'):\n"
        "        ran.append(code.co_name)\n"
        "sys.setprofile(seen)\n"
        "import toolview.render.html\n"
        "sys.setprofile(None)\n"
        "print(ran.count('legible'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert int(done.stdout) == 0, done.stdout
