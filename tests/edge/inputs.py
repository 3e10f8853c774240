"""The classic bad inputs, built once, small on disk and big only in memory.

Each is one observation line (JSON Lines) unless named otherwise. Their
defined outcomes are in docs/reliability.md; the tests beside this module
hold every boundary to them.
"""

from __future__ import annotations

from typing import Final


def result_line(text_json: bytes, *, extra: bytes = b"") -> bytes:
    """A ``tool-result`` line whose ``text`` is the given raw JSON string literal."""
    return (
        b'{"kind":"tool-result","toolCallId":"c1","toolName":"Tedge","text":'
        + text_json
        + b',"complete":true,"isError":false'
        + extra
        + b"}"
    )


CALL: Final = b'{"kind":"tool-call","toolCallId":"c1","toolName":"Tedge","args":{}}'
INVALID_UTF8: Final = result_line(b'"bad \xff\xfe byte"')
LONE_SURROGATE: Final = result_line(b'"half \\ud800 pair"')
SURROGATE_PAIR: Final = result_line(b'"emoji \\ud83d\\ude00"')
NUL_ESCAPED: Final = result_line(b'"nul \\u0000 here"')
NUL_RAW: Final = result_line(b'"nul \x00 here"')
TEN_MB: Final = 10 * 1024 * 1024
HUGE_LINE: Final = result_line(b'"' + b"y" * TEN_MB + b'"')
DEPTH: Final = 100_000
DEEP: Final = (
    b'{"kind":"tool-call","toolCallId":"c1","toolName":"Tedge","args":{"a":'
    + b"[" * DEPTH
    + b"]" * DEPTH
    + b"}}"
)
BIG: Final = 2**70
BIG_INT: Final = (
    b'{"kind":"tool-call","toolCallId":"c1","toolName":"Tedge","args":{"n":'
    + str(BIG).encode()
    + b"}}"
)
HUGE_INT: Final = (
    b'{"kind":"tool-call","toolCallId":"c1","toolName":"Tedge","args":{"n":1' + b"0" * 5000 + b"}}"
)
DUPLICATE_KEYS: Final = result_line(b'"first"', extra=b',"text":"second"')

ENVELOPE: Final = b'{"schemaVersion":"1.0","tool":"t","status":"success","data":%s}'
