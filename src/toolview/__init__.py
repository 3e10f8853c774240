"""toolview: render AI-agent tool results on every surface, from one payload, safely.

The public API is the contract (design.md §1), re-exported here under the very
names ``toolview.contract.__all__`` lists, so the two can never drift apart;
surfaces, hosts and the server live in their own subpackages.
"""

from toolview.contract import *  # noqa: F403 - the contract's pinned __all__ is ours
from toolview.contract import __all__ as _contract_all

__all__ = list(_contract_all)
