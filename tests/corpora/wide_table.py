"""A table wider than any surface: ``select * from users`` with 22 columns.

Shared by every surface's goldens and the browser test, so each shows the same
table: 22 columns (two past the default limit of 20), values that must not
break mid-word (e-mail addresses, timestamps, a URL), a cell of prose and a
JSON cell. ``many_rows`` adds rows past the default limit of 50.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["WIDE_COLUMNS", "WIDE_ROWS", "WIDE_TABLE", "many_rows"]

WIDE_COLUMNS: Final = [
    "id", "email", "name", "notes", "tags", "created_at", "updated_at", "last_login", "plan",
    "status", "region", "country", "timezone", "signup_source", "referrer", "is_admin",
    "mfa_enabled", "login_count", "storage_bytes", "api_calls_30d", "invoice_total", "locale",
]  # fmt: skip


def _user(n: int, name: str, email: str, plan: str, notes: str, tags: list[str]) -> list[Any]:
    return [
        n, email, name, notes, tags, f"2024-0{n}-01T09:12:44Z", f"2025-0{n}-17T18:03:09Z",
        f"2025-11-2{n}T07:45:00Z", plan, "active", "eu-west-1", "FR", "Europe/Paris",
        "newsletter", "https://partners.example.com/campaign/autumn-2024", n == 1, True,
        1200 + n, 52_428_800 * n, 18_000 + n, 249.5 * n, "fr_FR",
    ]  # fmt: skip


WIDE_ROWS: Final = [
    _user(1, "Alice Martin", "alice.martin@example.com", "enterprise",
          "prefers e-mail over phone calls; renews every March", ["beta", "eu"]),
    _user(2, "Bob Durand", "bob@example.org", "team", "", []),
    _user(3, "Chloé Petit", "chloe.petit@example.net", "free", "asked for an invoice copy",
          ["trial"]),
]  # fmt: skip

WIDE_TABLE: Final[dict[str, Any]] = {"columns": WIDE_COLUMNS, "rows": WIDE_ROWS}


def many_rows(count: int) -> dict[str, Any]:
    """The wide table's columns with ``count`` rows (the three above, repeated)."""
    return {"columns": WIDE_COLUMNS, "rows": [WIDE_ROWS[n % 3] for n in range(count)]}
