"""The house's shape, measured: import cycles between files, layering breaches, and sizes.

Reads every ``.py`` file of ``rum500/`` and ``net/`` as source (its AST; nothing is imported)
and prints issue 23's goals as they stand:

* import cycles between files (goal: 0) — every import statement counts: module level,
  inside a function, under ``if TYPE_CHECKING:``; relative imports are resolved, and in
  ``from pkg import name`` a ``name`` that is a submodule is an import of that file;
* layering breaches (goal: none) — ``net`` imports no ``rum500``; ``rules`` imports nothing of
  ours but ``cards``; nothing but ``rum500/__main__.py`` imports ``cli``; and the one-way order
  ``cli`` → ``tui``, ``net``, ``bots``, ``store``, ``host`` → ``rules`` (see :data:`FORBIDDEN`);
* every class over 650 lines, function over 100, module over 1,000, and the top 10 of each.

    python bench/shape.py [--root DIR] [--top 10]

Exits 1 when there is a cycle or a breach (the sizes are goals, printed, not enforced).
``tests/test_shape.py`` runs the same checks on the tree and on small synthetic packages.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("rum500", "net")
CLASS_LINES, FUNCTION_LINES, MODULE_LINES = 650, 100, 1000

#: for a module under the first prefix, the prefixes it must not import (the one-way order
#: cli → tui, net, bots, store, host → rules; ``rules`` and ``net`` are stricter still and
#: checked by :func:`breaches` on their own)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "rum500.bots": (
        "rum500.tui",
        "rum500.host",
        "rum500.handoff",
        "rum500.store",
        "rum500.runners",
        "net",
    ),
    "rum500.store": ("rum500.tui", "rum500.runners"),
    "rum500.host": ("rum500.tui", "rum500.runners", "rum500.handoff"),
    "rum500.handoff": ("rum500.tui", "rum500.runners"),
    "rum500.tui": ("rum500.runners",),
    "rum500.narrate": ("rum500.tui", "rum500.host", "rum500.store", "rum500.runners", "net"),
    # the coach analyses a log's match from seats' views: bots, rules, the game log; the
    # review line (tui) and the commands (runners) call it, never the other way round
    "rum500.coach": ("rum500.tui", "rum500.runners", "rum500.host", "rum500.handoff", "net"),
}
#: what ``rules`` may import of ours: itself and the cards
RULES_MAY = ("rum500.rules", "rum500.cards")


@dataclass(frozen=True)
class Edge:
    """One import statement of ``source`` that loads the file of module ``target``."""

    source: str
    target: str
    line: int


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``: dotted name → file (a package is its
    ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in packages:
        base = root / package
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The deepest known module that ``name`` (dotted) is or lies in, or None."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def imports(module: str, path: Path, known: dict[str, Path]) -> list[Edge]:
    """The files ``module`` imports, one :class:`Edge` per import statement and file: every
    ``import``/``from … import`` anywhere in the file, relative ones resolved, and in
    ``from pkg import name`` the submodule ``pkg.name`` when it is a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    edges: list[Edge] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                keep = len(parts) - (node.level - 1)
                if keep < 0:
                    continue
                base = ".".join(parts[:keep])
                source = f"{base}.{node.module}" if node.module else base
                source = source.strip(".")
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                targets.append(sub if sub in known else source)
        for name in targets:
            target = _resolve(name, known)
            if target is not None and target != module:
                edges.append(Edge(module, target, node.lineno))
    return edges


def graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[Edge]:
    """Every import edge between the files of ``packages`` under ``root``."""
    known = modules(root, packages)
    return [edge for module, path in known.items() for edge in imports(module, path, known)]


def cycles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one file (each sorted): files that
    import each other in a circle. Tarjan's algorithm, iterative."""
    succ: dict[str, list[str]] = {}
    for e in edges:
        succ.setdefault(e.source, []).append(e.target)
        succ.setdefault(e.target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(succ):
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            nexts = succ[node]
            if i < len(nexts):
                work.append((node, i + 1))
                nxt = nexts[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:  # back in the caller: carry the low link up
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def breaches(edges: list[Edge]) -> list[str]:
    """Every import that goes against the layering, as ``source:line imports target (why)``."""
    out: list[str] = []
    for e in edges:
        why = None
        if _under(e.source, "net") and _under(e.target, "rum500"):
            why = "net imports no rum500"
        elif _under(e.source, "rum500.rules") and not any(_under(e.target, p) for p in RULES_MAY):
            why = "rules imports nothing of ours but cards"
        elif _under(e.target, "rum500.cli") and e.source != "rum500.__main__":
            why = "nothing but __main__ imports cli"
        else:
            for layer, banned in FORBIDDEN.items():
                if _under(e.source, layer) and any(_under(e.target, b) for b in banned):
                    why = f"{layer.removeprefix('rum500.')} imports no {e.target}"
                    break
        if why is not None:
            out.append(f"{e.source}:{e.line} imports {e.target} ({why})")
    return sorted(set(out))


@dataclass(frozen=True)
class Size:
    """A class, function or module and its length in lines (first to last line)."""

    kind: str
    name: str
    lines: int


def sizes(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[Size]:
    """Every module, class and function (methods and nested ones included) with its lines."""
    out: list[Size] = []
    for module, path in modules(root, packages).items():
        text = path.read_text(encoding="utf-8")
        out.append(Size("module", str(path.relative_to(root)), len(text.splitlines())))
        tree = ast.parse(text, filename=str(path))
        todo: list[tuple[ast.AST, str]] = [(tree, module)]
        while todo:
            node, prefix = todo.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    name = f"{prefix}.{child.name}"
                    kind = "class" if isinstance(child, ast.ClassDef) else "function"
                    first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    end = child.end_lineno or child.lineno
                    out.append(Size(kind, name, end - first + 1))
                    todo.append((child, name))
                else:
                    todo.append((child, prefix))
    return out


LIMITS = {"class": CLASS_LINES, "function": FUNCTION_LINES, "module": MODULE_LINES}
PLURAL = {"class": "classes", "function": "functions", "module": "modules"}


def report(root: Path, top: int = 10) -> tuple[str, bool]:
    """The printed measure of the goals, and whether the shape holds (no cycle, no breach)."""
    edges = graph(root)
    found, broken = cycles(edges), breaches(edges)
    lines = [f"import edges between files: {len(edges)}"]
    lines.append(f"import cycles between files: {len(found)} (goal 0)")
    lines += ["  " + " <-> ".join(c) for c in found]
    lines.append(f"layering breaches: {len(broken)} (goal 0)")
    lines += ["  " + b for b in broken]
    every = sizes(root)
    for kind, limit in LIMITS.items():
        mine = sorted((s for s in every if s.kind == kind), key=lambda s: -s.lines)
        over = [s for s in mine if s.lines > limit]
        lines.append(f"{PLURAL[kind]} over {limit} lines: {len(over)}")
        lines += [f"  {s.lines:5d}  {s.name}" for s in over]
        lines.append(f"  top {top} {PLURAL[kind]}:")
        lines += [f"  {s.lines:5d}  {s.name}" for s in mine[:top]]
    return "\n".join(lines), not found and not broken


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    text, ok = report(args.root, args.top)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
