"""A value in escaped text ends where the character its escape stands for would end it.

Finding 14 of issue 21: a config file inside a JSON string (``{"cfg":
"github_token = ghp_...\\nretries = 3"}``, the ``\\n`` being two characters)
came out as ``github_token = [redacted: github-token] = 3``: the bare value ran
on over ``\\nretries``, and the reader lost the next line. Every pattern whose
value is a run of characters (a key's value, a command's flag, a header, a
URL password, a signature) now stops at ``\\n``, ``\\r``, ``\\t``, ``\\"``,
``\\'`` and ``\\u`` of whitespace or a quote; an escaped backslash does not
stop it (``\\\\n`` is a backslash and an ``n``). A key and value in a JSON
string's own JSON (``\\"password\\": \\"...\\"``) were not redacted at all.
"""

from __future__ import annotations

import json

import pytest

from toolview.safety import redact, redact_json

SECRET = "Xq7vR2mK9pL4sT8w"
TOKEN = "ghp_" + "a1B2c3D4" * 4 + "e5F6"

# (the line holding the secret, the secret part, its mark)
LINES = [
    (f"github_token = {TOKEN}", TOKEN, "github-token"),
    (f"password = {SECRET}", SECRET, "password"),
    (f"api_key: {SECRET}", SECRET, "api_key"),
    (f"STRIPE_KEY={SECRET}", SECRET, "env-key"),
    (f"curl -s https://x.example -u bob:{SECRET}", SECRET, "curl-password"),
    (f"mysql -u root -p{SECRET}", SECRET, "mysql-password"),
    (f"Authorization: Bearer {SECRET}", SECRET, "authorization-header"),
    (f"Cookie: sid={SECRET}", "sid=" + SECRET, "cookie-header"),
    (f"https://x.example/f?a=1&sig={SECRET}", SECRET, "signed-url-signature"),
]
ESCAPES = ["\\n", "\\r\\n", "\\t", "\\u000a", "\\u000D\\u000A", "\\u0009"]


@pytest.mark.parametrize(("line", "secret", "mark"), LINES, ids=[m for *_, m in LINES])
@pytest.mark.parametrize("escape", ESCAPES)
def test_a_secret_in_a_json_string_keeps_the_next_line(
    line: str, secret: str, mark: str, escape: str
) -> None:
    """The JSON text redacted as a string reads, decoded, as its lines redacted one by one."""
    text = '{"cfg": ' + json.dumps(line)[:-1] + escape + 'retries = 3"}'
    out = redact(text)
    assert secret not in out
    brk = json.loads(f'"{escape}"')
    assert (
        json.loads(out)["cfg"] == f"{line.replace(secret, f'[redacted: {mark}]')}{brk}retries = 3"
    )


def test_the_issue_s_example() -> None:
    text = '{"cfg": "github_token = ' + TOKEN + '\\nretries = 3"}'
    assert redact(text) == '{"cfg": "github_token = [redacted: github-token]\\nretries = 3"}'


def test_an_escaped_backslash_does_not_end_a_value() -> None:
    """``\\\\n`` is a backslash then ``n``: the value goes on, all of it hidden."""
    value = SECRET[:8] + "\\n" + SECRET[8:]  # the password holds a backslash and an n
    text = json.dumps({"cfg": f"password = {value}\nnext"})
    out = redact(text)
    assert SECRET[8:] not in out and SECRET[:8] not in out
    assert json.loads(out)["cfg"] == "password = [redacted: password]\nnext"


def test_json_inside_a_json_string_is_redacted() -> None:
    """``\\"password\\": \\"...\\"``: the escaped quotes are quotes; the value ends at
    the next one, whatever it holds (spaces too)."""
    inner = json.dumps({"password": f"correct horse {SECRET}", "user": "bob"})
    out = redact(json.dumps({"body": inner}))
    assert SECRET not in out
    decoded = json.loads(json.loads(out)["body"])
    assert decoded == {"password": "[redacted: password]", "user": "bob"}


def test_redact_json_still_sees_the_decoded_value() -> None:
    """The structured path decodes first: the same answer either way."""
    value = {"cfg": f"password = {SECRET}\nretries = 3"}
    assert redact_json(value) == {"cfg": "password = [redacted: password]\nretries = 3"}
    assert json.loads(redact(json.dumps(value))) == redact_json(value)
