"""The pi coding agent as a toolview host: live RPC/JSON events and session files.

See docs/pi.md. The floor descriptor is ``pi.tool.<name>`` with truncation
only; ``to_toolview_kinds`` is the optional mapping onto toolview's kinds.
"""

from toolview.hosts.pi.events import PiEventMapper
from toolview.hosts.pi.kinds import to_toolview_kinds
from toolview.hosts.pi.loader import load_observations, sniff
from toolview.hosts.pi.pidiff import to_unified_diff
from toolview.hosts.pi.results import PiFormatError
from toolview.hosts.pi.rpc import INSTALL_HINT, OBSERVER_PATH, PiNotInstalled, PiRpc, find_pi
from toolview.hosts.pi.session import session_observations
from toolview.hosts.pi.truncation import to_truncation

__all__ = [
    "INSTALL_HINT",
    "OBSERVER_PATH",
    "PiEventMapper",
    "PiFormatError",
    "PiNotInstalled",
    "PiRpc",
    "find_pi",
    "load_observations",
    "session_observations",
    "sniff",
    "to_toolview_kinds",
    "to_truncation",
    "to_unified_diff",
]
