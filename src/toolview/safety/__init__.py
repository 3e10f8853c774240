"""toolview.safety: what every surface does to untrusted tool output.

A leaf layer (design.md §2, §5): it imports nothing else of toolview and no
I/O library. Redact credentials, neutralize terminal controls, escape and
sanitize HTML, vet links and images, cut stack traces. Every function takes
anything a tool may return, never raises on it and runs in linear time.
"""

from toolview.safety.html import escape_html, sanitize_html
from toolview.safety.images import ALLOWED_IMAGE_TYPES, IMAGE_SIZE_CAP, check_image
from toolview.safety.keys import SENSITIVE_KEYS
from toolview.safety.patterns import SecretPattern
from toolview.safety.secrets import SECRET_PATTERNS, redact
from toolview.safety.structured import redact_json
from toolview.safety.terminal import clean_text, neutralize_terminal
from toolview.safety.traces import cut_stack_trace
from toolview.safety.urls import safe_url

__all__ = [
    "ALLOWED_IMAGE_TYPES",
    "IMAGE_SIZE_CAP",
    "SECRET_PATTERNS",
    "SENSITIVE_KEYS",
    "SecretPattern",
    "check_image",
    "clean_text",
    "cut_stack_trace",
    "escape_html",
    "neutralize_terminal",
    "redact",
    "redact_json",
    "safe_url",
    "sanitize_html",
]
