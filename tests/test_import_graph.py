"""No import loop anywhere in ``src/``: the module graph has no cycle.

Every import counts: at the top of a module, inside a function (a lazy import
only delays the loop to the first call, and makes the order modules load in
depend on which function ran first) and under ``TYPE_CHECKING`` (import-linter
counts those too). A loop is reported as one shortest cycle through it, each
hop with the line that imports, so the message says which import to cut.
"""

from __future__ import annotations

import itertools

import grimp

ROOT = "toolview"


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of two or more modules (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while not component or component[-1] != node:
                        component.append(stack.pop())
                        on_stack.discard(component[-1])
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def shortest_cycle(graph: grimp.ImportGraph, component: list[str]) -> list[str]:
    """One shortest cycle through the component's first module, first module repeated last."""
    start = component[0]
    members = set(component)
    best: tuple[str, ...] | None = None
    for successor in sorted(graph.find_modules_directly_imported_by(start) & members):
        back = graph.find_shortest_chain(importer=successor, imported=start)
        if back is not None and (best is None or len(back) < len(best)):
            best = back
    assert best is not None
    return [start, *best]


def describe(graph: grimp.ImportGraph, cycle: list[str], size: int) -> str:
    """The cycle hop by hop, each with the line that imports."""
    hops = []
    for importer, imported in itertools.pairwise(cycle):
        details = graph.get_import_details(importer=importer, imported=imported)
        first = details[0] if details else None
        line = f"  [line {first['line_number']}: {first['line_contents']}]" if first else ""
        hops.append(f"  {importer} -> {imported}{line}")
    return f"a loop of {size} modules, e.g.:\n" + "\n".join(hops)


def import_loops() -> list[str]:
    graph = grimp.build_graph(ROOT, cache_dir=None)
    edges = {
        module: {m for m in graph.find_modules_directly_imported_by(module) if m != module}
        for module in graph.modules
    }
    return [
        describe(graph, shortest_cycle(graph, component), len(component))
        for component in strongly_connected(edges)
    ]


def test_the_cycle_finder_finds_a_loop_and_only_a_loop() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert strongly_connected(edges) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_module_of_src_imports_itself_back() -> None:
    loops = import_loops()
    assert not loops, "import loops in src/:\n" + "\n".join(loops)
