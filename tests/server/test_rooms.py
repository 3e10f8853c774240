"""The server stands in rooms: no folder of it holds more than 15 entries side by side.

Before, ``server/`` was 65 flat modules on 15 floors of imports; what one room
serves (ingest, live, page, guard) is now found by its folder. A 16th entry
beside the others is the sign that a room wants splitting.
"""

from __future__ import annotations

from pathlib import Path

import grimp

import toolview.server

SERVER = Path(toolview.server.__file__).parent
MOST = 15


def entries(folder: Path) -> list[str]:
    """The modules and sub-packages of one package (not its face, not data folders)."""
    modules = [p.stem for p in folder.glob("*.py") if p.name != "__init__.py"]
    packages = [p.name for p in folder.iterdir() if (p / "__init__.py").is_file()]
    return sorted(modules + packages)


def test_no_folder_of_the_server_holds_more_than_15_entries() -> None:
    folders = [SERVER, *(p.parent for p in SERVER.rglob("*/__init__.py"))]
    counts = {str(f.relative_to(SERVER)): len(entries(f)) for f in folders}
    crowded = {folder: count for folder, count in counts.items() if count > MOST}
    assert not crowded, f"more than {MOST} entries side by side: {crowded}"


def test_the_server_has_its_four_rooms() -> None:
    assert {"ingest", "live", "page", "guard"} <= set(entries(SERVER))


def test_only_the_app_imports_the_api_routes_no_room_reaches_them_for_a_helper() -> None:
    graph = grimp.build_graph("toolview", cache_dir=None)
    importers = graph.find_modules_that_directly_import("toolview.server.api")
    assert importers == {"toolview.server.app"}
