"""The MCP host: ``CallToolResult``s (raw wire JSON or SDK models) → observations.

``map_result`` is the one mapping; ``map_sdk_result`` dumps an SDK model into
it; ``ProgressLog`` turns progress notifications into partial results;
``load_observations``/``sniff`` read stored results for ``toolview show``;
``call_tool``/``list_tools`` talk to a stdio server. The ``blocks`` kind's props
are declared in ``toolview.contract.blocks``.
"""

from toolview.contract.blocks import BLOCKS_KIND, BlocksProps, validate_blocks_props
from toolview.hosts.mcp.client import McpClientError, call_tool, list_tools
from toolview.hosts.mcp.progress import ProgressLog
from toolview.hosts.mcp.result_map import map_result
from toolview.hosts.mcp.sdk import map_sdk_result
from toolview.hosts.mcp.stored import StoredResultsError, load_observations, sniff

__all__ = [
    "BLOCKS_KIND",
    "BlocksProps",
    "McpClientError",
    "ProgressLog",
    "StoredResultsError",
    "call_tool",
    "list_tools",
    "load_observations",
    "map_result",
    "map_sdk_result",
    "sniff",
    "validate_blocks_props",
]
