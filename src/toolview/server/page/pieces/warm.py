"""A render process made ready before the first page view needs it.

Why: a spawned render process starts empty. The first page view of a
server paid 1.2-1.7 s there before its first call was drawn: importing the
html surface and Pygments, then compiling the highlighter's combined
patterns for each language state a file enters (``render.regexlex``: ~0.1-0.15 s
a language, once per process; 4.7 s of a cold 100-call window, profiled).
``warm_render`` draws a small thread of what a page shows most — a shell run
with colours and an error, a diff, JSON, and source files in common
languages, each long enough (over ``regexlex.SHORT``) to be lexed the
compiled way (``combined_tokens``: a page's files are cut short, and short
texts compile a lexer only after ``regexlex.SHORT_BUDGET`` of them), with
strings, comments and numbers — so that is done in each
render process at the server's start (``offload.warm_processes``), while
nobody waits. It is generic code, not any session's: a language or state
it misses is compiled by the first view that needs it, as before.
"""

from __future__ import annotations

import json
from typing import Any, Final

from toolview.contract import CallEntry, Thread, decode_observation
from toolview.render.highlight import lexer_for
from toolview.render.regexlex import SHORT, combined_tokens
from toolview.server.page.pieces.jobs import Job, call_job, render_jobs

__all__ = ["SOURCES", "sample", "warm_render"]

SOURCES: Final = {
    "app.py": '"""Doc."""\nimport os\n\n\ndef f(x: int = 1) -> str:\n'
    "    # a comment\n    return f\"{x!r} {os.sep}\" + 's' * 2  # 0x1F\n",
    "app.ts": 'import { a } from "./a";\n// a comment\nexport const f = (x: number): string =>'
    " `${x}` + 'y' + /re/.source; /* block */ let n = 1.5e3;\n",
    "app.js": "const a = require('a'); // c\nfunction f(x) { return `${x}` + \"y\" + 0x1f; }\n",
    "main.go": 'package main\n\nimport "fmt"\n\n// F does.\nfunc F(x int) (string, error) {\n'
    '\treturn fmt.Sprintf("%d", x), nil /* c */\n}\n',
    "lib.rs": "use std::io; // c\n/// Doc.\npub fn f(x: &str) -> Result<u32, String> "
    '{ let s = format!("{}", x); Ok(0x1f_u32) }\n',
    "run.sh": '#!/bin/sh\nset -eu\n# c\nfor f in "$@"; do echo "${f}" $((1 + 2)); done\n',
    "data.json": '{"a": [1, 2.5, true, null], "b": {"c": "d"}}\n',
    "conf.yaml": "a: 1\nb:\n  - 'c'\n  - \"d\"  # e\n",
    "README.md": "# Title\n\nSome *text* and `code`.\n\n- item\n",
}


def _long(text: str) -> str:
    """The text repeated past ``SHORT``: lexed with the compiled patterns."""
    return text * (SHORT // len(text) + 1)


def _call(number: int, descriptor: dict[str, Any], failed: bool = False) -> list[dict[str, Any]]:
    ids = {"toolCallId": f"w{number}", "toolName": f"t{number}"}
    result = {"kind": "tool-result", **ids, "text": "x", "complete": True, "isError": failed}
    result["descriptor"] = descriptor
    return [{"kind": "tool-call", **ids, "args": {"n": number}}, result]


def sample() -> list[dict[str, Any]]:
    """The observations drawn: a run of calls of the common kinds, and a message."""
    shell = {"command": "make", "exitCode": 2, "stdout": "\x1b[31mFAIL\x1b[0m x\n" * 40}
    shell["stderr"] = 'Traceback (most recent call last):\n  File "a.py", line 1\nError: x\n'
    diff = "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n context\n"
    items = [{"n": i, "s": "text", "b": True, "z": None, "l": [1.5]} for i in range(60)]
    kinds = [
        {"kind": "shell", "props": shell},
        {"kind": "diff", "props": {"path": "app.py", "diff": _long(diff)}},
        {"kind": "json", "props": {"value": items}},
    ]
    kinds += [
        {"kind": "file", "props": {"path": path, "content": _long(text)}}
        for path, text in SOURCES.items()
    ]
    observations: list[dict[str, Any]] = [{"kind": "run-started", "runId": "warm"}]
    observations.append({"kind": "message", "role": "user", "text": "Go **on**."})
    for number, descriptor in enumerate(kinds):
        observations += _call(number, descriptor, failed=number == 0)
    return [*observations, {"kind": "run-ended", "runId": "warm", "outcome": "completed"}]


def warm_render() -> list[str]:
    """Draw the sample thread's every entry, as a page view would; their markup."""
    thread = Thread()
    for observation in sample():
        thread.add(decode_observation(json.dumps(observation)))
    calls = len(thread.calls())
    jobs: list[Job] = [
        call_job(thread, entry, calls) if isinstance(entry, CallEntry) else entry
        for entry in thread.entries
    ]
    for path, text in SOURCES.items():  # a page's short files compile nothing until many
        list(combined_tokens(lexer_for(None, path), _long(text)))
    return render_jobs(jobs)
