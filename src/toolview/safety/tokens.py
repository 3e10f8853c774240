"""Credentials recognisable by their own shape: a vendor prefix and a body.

Each regex begins with the vendor's literal prefix, so a scan costs about one
substring search (the regex engine's own prefix search is as fast as a
``literal in text`` pre-check, so a pre-check is only given to patterns that
start with something common, like ``https://``). Bodies are character runs
with a minimum length and no failing suffix after an unbounded run, so no
start position is re-scanned: linear.

Most formats must start a word (``xAKIA...`` is the tail of an identifier).
Those whose prefix and shape are unmistakable (``ghp_`` + 36, ``glpat-``,
``npm_`` + 36, ``SG.`` 22 ``.`` 43, ...) are hidden wherever they start: a
token pasted onto a word (``kghp_...``) is still the token (``locate=accept``).
"""

from __future__ import annotations

import re

from toolview.safety.patterns import Locate, SecretPattern, Span, accept, at_boundary
from toolview.safety.patterns import compile_pattern as _p

__all__ = ["TOKEN_PATTERNS"]

_B64URL = "[A-Za-z0-9_-]"
# A fixed-length token glued to more word is not one -- nor glued to a mark: a
# token glued after it may be hidden (it needs no boundary), and a second pass
# must not then find the first one (redaction is idempotent).
_MARK = r"\[redacted: "
_END = rf"(?![A-Za-z0-9_]|-[A-Za-z0-9_]|{_MARK})"  # a run of dashes (a PEM fence) ends a token too
_EDGE = rf"(?![0-9A-Za-z]|{_MARK})"
_STD_B64 = re.compile(r"[A-Za-z0-9+/]*+={0,2}")
_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _openai(hay: str, match: re.Match[str], name: str) -> Span | None:
    """``sk-`` also starts hyphenated words; a real key body carries digits."""
    if not any(ch.isdigit() for ch in match.group()):
        return None
    start = match.start()
    if start > 0 and (hay[start - 1].isalnum() or hay[start - 1] in "_-"):
        return None
    return (start, match.end(), name)


def _jwt(hay: str, match: re.Match[str], name: str) -> Span | None:
    """The regex always matches a whole ``eyJ`` run (so nothing is re-scanned);
    only a run followed by a second ``.eyJ`` segment is a token -- or, sharing
    this scan, a base64 ``{"auths":`` (a ``.dockerconfigjson``) run to its end."""
    if hay.startswith("eyJhdXRocyI6", match.start()):
        whole = _STD_B64.match(hay, match.start())
        assert whole is not None
        return (match.start(), whole.end(), "docker-config")
    if match.group("payload") is None:
        return None
    return (match.start(), match.end(), name)


def _stripe(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Anchored on the rare ``k_live_``; the ``s``/``r`` before it is checked here."""
    start = match.start() - 1
    if start < 0 or hay[start] not in "sr":
        return None
    if start > 0 and hay[start - 1].isalnum():
        return None
    return (start, match.end(), name)


def _glued(shape: str) -> Locate:
    """Accept a token that starts a word, or, glued onto one, has ``shape`` at its
    start: ``xoxb-`` + a digit is Slack's, ``xoxo-hugs`` is a word."""
    unmistakable = re.compile(shape)

    def locate(hay: str, match: re.Match[str], name: str) -> Span | None:
        if unmistakable.match(hay, match.start()):
            return accept(hay, match, name)
        return at_boundary(hay, match, name)

    return locate


def _terraform(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Anchored on the rare ``.atlasv1.``; the 14-character id before it is looked back."""
    start = match.start()
    head = start
    while head > 0 and start - head < 14 and hay[head - 1].isascii() and hay[head - 1].isalnum():
        head -= 1
    return (head, match.end(), name) if start - head == 14 else None


def _telegram(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Anchored on ``:AA``; the bot id (8-10 digits) must precede it."""
    start = match.start()
    digits = 0
    while digits < 11 and start - digits > 0 and hay[start - digits - 1].isdigit():
        digits += 1
    if not 8 <= digits <= 10:
        return None
    return (start - digits, match.end(), name)


def _discord(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Anchored on the middle ``.xxxxxx.``; the first part (24-26 chars, starting
    with M, N or O: a base64 user id) is found by looking back."""
    start = match.start()
    head = start
    while head > 0 and start - head < 27 and hay[head - 1] in _B64_CHARS:
        head -= 1
    if not 24 <= start - head <= 26 or hay[head] not in "MNO":
        return None
    return (head, match.end(), name)


# An Account SID (an id, kept) and, within 60 characters, a 32-hex auth token.
_TWILIO = (
    rf"AC[0-9a-f]{{32}}{_EDGE}(?s:.){{1,60}}?(?<![0-9A-Za-z])"
    rf"(?P<secret>[0-9a-f]{{32}}){_EDGE}"
)

TOKEN_PATTERNS: tuple[SecretPattern, ...] = (
    _p("aws-access-key-id", rf"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{{16}}(?![A-Z0-9]|{_MARK})"),
    _p("gcp-api-key", rf"AIza{_B64URL}{{35}}{_END}"),
    _p("google-oauth-client-secret", rf"GOCSPX-{_B64URL}{{28}}{_END}", locate=accept),
    _p("google-oauth-token", rf"ya29\.{_B64URL}{{20,}}"),
    _p(
        "github-token",
        r"g(?:h[pousr]_[A-Za-z0-9]{36,}|ithub_pat_[A-Za-z0-9_]{22,})",
        locate=accept,
    ),
    _p("gitlab-token", rf"gl(?:pat|dt|rt|ptt|soat)-{_B64URL}{{20,}}", locate=accept),
    _p("npm-token", rf"npm_[A-Za-z0-9]{{36}}{_EDGE}", locate=accept),
    _p("pypi-token", rf"pypi-AgE{_B64URL}{{50,}}", locate=accept),
    _p("anthropic-api-key", rf"sk-ant-{_B64URL}{{32,}}", locate=_glued(r"sk-ant-[a-z]{2,5}\d\d-")),
    _p("openai-api-key", rf"sk-{_B64URL}{{20,}}", locate=_openai),
    _p("huggingface-token", r"hf_[A-Za-z0-9]{30,}"),
    _p("slack-token", r"x(?:ox[abposr]|app)-[A-Za-z0-9-]{10,}", locate=_glued(r"xox.-\d")),
    _p(
        "slack-webhook",
        r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]+",
        "hooks.slack.com/",
        locate=accept,
    ),
    _p(
        "discord-webhook",
        r"https?://(?:[a-z]+\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]+",
        "/api/webhooks/",
        locate=accept,
    ),
    _p("discord-bot-token", rf"\.{_B64URL}{{6}}\.{_B64URL}{{27,38}}{_END}", locate=_discord),
    _p("telegram-bot-token", rf":AA{_B64URL}{{33}}{_END}", locate=_telegram),
    _p("stripe-key", r"k_(?:live|test)_[A-Za-z0-9]{16,}", locate=_stripe),
    _p("stripe-webhook-secret", r"whsec_[A-Za-z0-9]{24,}", locate=accept),
    _p("twilio-api-key", rf"SK[0-9a-f]{{32}}{_EDGE}"),
    _p("sendgrid-api-key", rf"SG\.{_B64URL}{{22}}\.{_B64URL}{{43}}{_END}", locate=accept),
    _p("mailgun-api-key", rf"key-[0-9a-f]{{32}}{_EDGE}"),
    _p("shopify-token", rf"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{{32}}{_EDGE}", locate=accept),
    _p("digitalocean-token", rf"do[opr]_v1_[a-f0-9]{{64}}{_EDGE}", locate=accept),
    _p("databricks-token", rf"dapi[a-f0-9]{{32}}(?:-\d)?{_EDGE}"),
    _p("age-secret-key", r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}", locate=accept),
    _p("docker-hub-token", rf"dckr_(?:pat|oat)_{_B64URL}{{20,}}", locate=accept),
    _p("vault-token", rf"hv[sbr]\.{_B64URL}{{24,}}"),
    _p("terraform-cloud-token", r"\.atlasv1\.[A-Za-z0-9_=-]{60,}", locate=_terraform),
    _p("google-oauth-refresh-token", rf"1//0{_B64URL}{{20,}}"),
    _p("twilio-auth-token", _TWILIO),
    _p("jwt", rf"eyJ{_B64URL}*+(?P<payload>\.eyJ{_B64URL}*+\.{_B64URL}*+)?", locate=_jwt),
)
