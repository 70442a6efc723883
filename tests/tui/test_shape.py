"""The terminal client's shape (issue 23): the overlays take narrow ports, never the table
screen's model; the files of ``rum500/tui`` import each other without a circle (every import
counted, those under ``TYPE_CHECKING`` and inside functions too); the model's parts are each
within the size goals; and ``TableModel`` offers every member of every overlay's port."""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest

import rum500.tui
from rum500.plain.model import PlainModel
from rum500.tui import describe
from rum500.tui import model as model_module
from rum500.tui.feed import Feed
from rum500.tui.hostplayer import HostPlayer
from rum500.tui.model import TableModel
from rum500.tui.overlays import (
    chat,
    choose,
    common,
    confirm,
    final,
    help,
    quit,
    scores,
    sheet,
    table,
)
from rum500.tui.selection import Selection
from rum500.tui.tableview import TableView

TUI = Path(rum500.tui.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(TUI.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module of ours ``path`` imports (``from a import b`` counts ``a.b`` when ``a.b``
    is a module), wherever the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return {m for m in out if m.startswith("rum500.")}


def _tui_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in TUI.rglob("*.py")}
    return {name: _imports(path) & set(files) - {name} for name, path in files.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports in ``graph``, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_tui_files_import_each_other_without_a_circle() -> None:
    assert _cycle(_tui_graph()) is None


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("path", sorted((TUI / "overlays").glob("*.py")), ids=lambda p: p.name)
def test_no_overlay_imports_the_table_model(path: Path) -> None:
    """Overlays take narrow ports (a small Protocol of their own), never the parent."""
    assert "rum500.tui.model" not in _imports(path)
    assert "TableModel" not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "name", ["sheets.py", "feed.py", "tableview.py", "selection.py", "hostplayer.py"]
)
def test_the_parts_do_not_import_the_table_model(name: str) -> None:
    assert "rum500.tui.model" not in _imports(TUI / name)


PARTS = (Feed, TableView, Selection, HostPlayer)


def test_the_parts_are_held_and_built_without_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table model holds its parts (issue 23 §2): none of them is a base of it (nor of
    the plain mode's model), each is an object it holds, and no part's constructor is given
    the model — each gets a narrow port (the table view, the feed, a few callables)."""
    built: list[tuple[str, list[object]]] = []
    for part in PARTS:

        def spy(self, *args, _init=part.__init__, _name=part.__name__, **kwargs):  # type: ignore[no-untyped-def]
            built.append((_name, [*args, *kwargs.values()]))
            _init(self, *args, **kwargs)

        monkeypatch.setattr(part, "__init__", spy)
    for make in (TableModel, lambda: PlainModel(out=lambda _line: None)):
        built.clear()
        try:
            model = make()
        finally:
            describe.speak_cards(False)  # the plain model speaks cards in words, process-wide
        assert not [p.__name__ for p in PARTS if isinstance(model, p)]
        held = (model.feed, model.tableview, model.selection, model.host_player)
        assert [type(p).__mro__[-2] for p in held] == list(PARTS)  # (PlainFeed is a Feed)
        assert {name for name, _args in built} == {p.__name__ for p in PARTS}
        given_the_model = [name for name, args in built for a in args if isinstance(a, TableModel)]
        assert given_the_model == []


PORTS = [
    common.Common,
    chat.ChatLine,
    choose.Question,
    confirm.YesNo,
    final.Standings,
    help.HelpPage,
    quit.Leaving,
    scores.ScoreTable,
    sheet.HandReview,
    table.TableKeys,
]


def _members(port: type) -> set[str]:
    """The names a Protocol asks for: its annotations and its methods, bases included."""
    names: set[str] = set()
    for klass in port.__mro__:
        if klass in (object, typing.Protocol, typing.Generic):
            continue
        names.update(getattr(klass, "__annotations__", {}))
        names.update(n for n, v in vars(klass).items() if callable(v) or isinstance(v, property))
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.__name__)
def test_the_table_model_offers_every_overlay_port(port: type) -> None:
    model = TableModel()
    missing = sorted(n for n in _members(port) if not hasattr(model, n))
    assert missing == []
    assert _members(port) <= set(dir(model))


def test_each_port_is_narrower_than_the_model() -> None:
    everything = {n for n in dir(TableModel()) if not n.startswith("_")}
    for port in PORTS:
        assert len(_members(port)) < len(everything) / 2, port.__name__


def _sizes(source: str) -> list[tuple[str, str, int]]:
    """(kind, name, lines) of every class and function in ``source``."""
    return [
        (type(n).__name__, n.name, n.end_lineno - n.lineno + 1)  # type: ignore[operator]
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    ]


@pytest.mark.parametrize("path", sorted(TUI.rglob("*.py")), ids=lambda p: str(p.relative_to(TUI)))
def test_the_tui_files_keep_to_the_size_goals(path: Path) -> None:
    """No class over ~650 lines, no function over ~100, no module over ~1,000."""
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 1000
    for kind, name, lines in _sizes(source):
        assert lines <= (650 if kind == "ClassDef" else 100), (kind, name, lines)


def test_the_table_model_is_the_coordinator_alone() -> None:
    """What is left in TableModel (its parts are objects it holds) is well under the goal."""
    lines, _start = inspect.getsourcelines(TableModel)
    assert len(lines) <= 650
    assert model_module.TableModel is TableModel
