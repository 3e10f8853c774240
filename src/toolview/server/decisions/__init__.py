"""Decisions on waiting calls: the one write path a person drives, and what waits for one.

``decide``: ``POST`` a decision, the long poll a hook holds. ``waiting``: one
thread's waiting calls and every thread's (``GET /api/waiting``). One room,
because both read the same ledger state (``needs_input``) under the same rules.
"""

from toolview.server.decisions.decide import DECISION_BODY_LIMIT, DecisionGate, routes

__all__ = ["DECISION_BODY_LIMIT", "DecisionGate", "routes"]
