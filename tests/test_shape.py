"""Issue 23's guard of the house's shape (bench/shape.py walks the source, imports nothing):

* no two files of ``rum500/`` and ``net/`` import each other in a circle, counting every
  import statement (module level, inside functions, under ``TYPE_CHECKING``);
* ``net`` imports no ``rum500``; ``rules`` imports nothing of ours but ``cards``; nothing but
  ``rum500/__main__.py`` imports ``cli``; the one-way order cli → tui, net, bots, store,
  host → rules holds (bench/shape.py's ``FORBIDDEN``).

The checker itself is shown to fail on small synthetic packages: a cycle, a cycle hidden in a
function or under ``TYPE_CHECKING``, relative and ``from pkg import submodule`` imports, and
each layering breach.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def shape() -> ModuleType:
    """bench/shape.py (bench/ is not a package), loaded by path."""
    path = ROOT / "bench" / "shape.py"
    spec = importlib.util.spec_from_file_location("bench_shape", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_shape"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def edges(shape: ModuleType) -> list:
    return shape.graph(ROOT)


def write(root: Path, files: dict[str, str]) -> Path:
    """A synthetic tree: {relative path: source}."""
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return root


# ------------------------------------------------------------------ the tree as it is


def test_no_file_imports_itself_back(shape: ModuleType, edges: list) -> None:
    assert shape.cycles(edges) == []


def test_the_layering_holds(shape: ModuleType, edges: list) -> None:
    assert shape.breaches(edges) == []


def test_the_walk_sees_the_tree(shape: ModuleType, edges: list) -> None:
    """The walk is not vacuous: it finds the imports we know of, including the ones inside
    functions."""
    pairs = {(e.source, e.target) for e in edges}
    assert ("rum500.__main__", "rum500.cli") in pairs
    assert ("net.door", "net.server") in pairs
    assert ("rum500.rules.game", "rum500.cards") in pairs
    assert len(edges) > 300


def test_the_report_prints_the_goals(shape: ModuleType) -> None:
    text, ok = shape.report(ROOT, top=3)
    assert "import cycles between files: 0" in text
    for kind in ("classes over 650", "functions over 100", "modules over 1000"):
        assert kind in text
    assert ok == ("layering breaches: 0" in text)


def test_every_command_reaches_its_runner_through_a_typed_config() -> None:
    """cli.py's one dispatch: each subcommand (and the lobby, and ``--headless``) has a
    builder in ``cli.CONFIGS`` that makes a typed config, whose exact type names a runner
    in ``runners.RUNNERS`` that takes that config — a command added without one fails here."""
    import inspect

    from rum500.cli import CONFIGS, build_parser, command_config
    from rum500.runners import RUNNERS, runner_of

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(CONFIGS) == {"lobby", *commands}
    reached = set()
    for name in [None, *commands]:
        sub = commands.get(name)
        actions = sub._actions if sub is not None else []
        positional = ["1" for a in actions if not a.option_strings and a.nargs != "?"]
        flags = {o for a in actions for o in a.option_strings}
        extras = ([], ["--headless"]) if "--headless" in flags else ([],)
        for top, extra in [(top, e) for top in ([], ["--plain"]) for e in extras]:
            argv = [*top, *([name, *positional, *extra] if name else [])]
            config = command_config(parser.parse_args(argv))
            assert dataclasses.is_dataclass(config), argv
            assert type(config).__dataclass_params__.frozen, argv  # type: ignore[attr-defined]
            assert config.command == (name or "lobby"), argv
            assert type(config) in RUNNERS, argv
            run = runner_of(config)
            first = next(iter(inspect.signature(run).parameters.values()))
            assert first.annotation == type(config).__name__, (argv, run)
            reached.add(type(config))
    assert reached == set(RUNNERS)


#: Host's fields that its users never reach through: the server, the table, the seat driver
HOST_INSIDES = ("server", "driver")


def host_reaches(path: Path) -> list[str]:
    """What ``path`` reaches into past an object's public surface: ``X.server``,
    ``X.driver``, ``X.table.Y``, ``X.config.journal`` and ``X._private`` (``self``, ``cls``
    and dunders aside)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        own = isinstance(base, ast.Name) and base.id in ("self", "cls")
        private = node.attr.startswith("_") and not node.attr.startswith("__")
        chained = isinstance(base, ast.Attribute) and (
            base.attr == "table" or (base.attr, node.attr) == ("config", "journal")
        )
        if node.attr in HOST_INSIDES or chained or (private and not own):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return sorted(found)


def test_the_handoff_room_and_the_runners_use_the_hosts_public_surface() -> None:
    """handoff/ and the runners go through Host's named methods (freeze, seats,
    connection_of, document, log_note, …), never into its server, table or game log."""
    users = [*sorted((ROOT / "rum500" / "handoff").glob("*.py"))]
    users += [ROOT / "rum500" / "runners.py", ROOT / "rum500" / "tui" / "main.py"]
    assert [r for path in users for r in host_reaches(path)] == []


def test_names_are_imported_where_they_are_defined() -> None:
    """No module but a package's ``__init__`` passes on a name it imported for others
    (``# noqa: F401``): the screens import ``parse_address`` from rum500.host.addresses and
    ``RumClient`` from rum500.client, not through rum500.tui.connection."""
    found = [
        f"{path.relative_to(ROOT)}:{k}"
        for package in ("rum500", "net")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path.name != "__init__.py"
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "noqa: F401" in line
    ]
    assert found == []


def test_a_reach_into_the_host_is_found(tmp_path: Path) -> None:
    path = (
        write(
            tmp_path,
            {
                "a.py": """
                def f(host, self):
                    host.server.seats, host.table.game, host._wake(), host.driver
                    host.config.journal.note("x")
                    self._x, host.seats(), host.document(), host.table_name, args.table
            """
            },
        )
        / "a.py"
    )
    assert {r.split(": ", 1)[1] for r in host_reaches(path)} == {
        "host.server",
        "host.table.game",
        "host._wake",
        "host.driver",
        "host.config.journal",
    }


# ------------------------------------------------------------------ the checker fails


def test_a_cycle_is_found(shape: ModuleType, tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "rum500/__init__.py": "",
            "rum500/a.py": "from rum500 import b\n",
            "rum500/b.py": "import rum500.c\n",
            "rum500/c.py": "from rum500.a import thing\n",
            "rum500/d.py": "import rum500.a\n",  # on the way in, not in the circle
        },
    )
    assert shape.cycles(shape.graph(root)) == [["rum500.a", "rum500.b", "rum500.c"]]


def test_a_cycle_hidden_in_a_function_or_type_checking_is_found(
    shape: ModuleType, tmp_path: Path
) -> None:
    root = write(
        tmp_path,
        {
            "net/__init__.py": "",
            "net/server.py": "from net.framing import encode\n",
            "net/framing.py": """
                def late():
                    from net import server  # a cycle hidden in a function
            """,
            "net/door.py": """
                from typing import TYPE_CHECKING
                from .vault import seal
                if TYPE_CHECKING:
                    from .vault import Vault
            """,
            "net/vault.py": "from . import door\n",
        },
    )
    assert shape.cycles(shape.graph(root)) == [
        ["net.door", "net.vault"],
        ["net.framing", "net.server"],
    ]


def test_relative_imports_resolve(shape: ModuleType, tmp_path: Path) -> None:
    root = write(
        tmp_path,
        {
            "rum500/__init__.py": "",
            "rum500/host/__init__.py": "from .table import GameTable\n",
            "rum500/host/table.py": "from ..rules import game\nfrom ..rules.game import Game\n",
            "rum500/rules/__init__.py": "from . import game\n",
            "rum500/rules/game.py": "from .. import cards\n",
            "rum500/cards.py": "",
        },
    )
    pairs = {(e.source, e.target) for e in shape.graph(root)}
    assert pairs == {
        ("rum500.host", "rum500.host.table"),
        ("rum500.host.table", "rum500.rules.game"),
        ("rum500.rules", "rum500.rules.game"),
        ("rum500.rules.game", "rum500.cards"),
    }
    assert shape.cycles(shape.graph(root)) == []


def test_a_package_and_its_module_in_a_circle(shape: ModuleType, tmp_path: Path) -> None:
    """``from pkg import Name`` loads ``pkg/__init__.py``: back from a module it re-exports,
    that is a circle too."""
    root = write(
        tmp_path,
        {
            "rum500/__init__.py": "",
            "rum500/host/__init__.py": "from rum500.host.host import Host\n",
            "rum500/host/host.py": "from rum500.host import config\n",
            "rum500/host/config.py": "from rum500.host import Host\n",
        },
    )
    assert shape.cycles(shape.graph(root)) == [
        ["rum500.host", "rum500.host.config", "rum500.host.host"]
    ]


@pytest.mark.parametrize(
    ("files", "why"),
    [
        ({"net/client.py": "from rum500.cards import Card\n"}, "net imports no rum500"),
        (
            {"rum500/rules/game.py": "def f():\n    from rum500.store import db\n"},
            "rules imports nothing of ours but cards",
        ),
        ({"rum500/rules/game.py": "import net.server\n"}, "rules imports nothing of ours"),
        ({"rum500/tui/app.py": "from rum500 import cli\n"}, "nothing but __main__ imports cli"),
        ({"rum500/bots/easy.py": "from rum500.tui import model\n"}, "bots imports no"),
        ({"rum500/bots/easy.py": "from net import server\n"}, "bots imports no net"),
        ({"rum500/store/db.py": "from ..tui import model\n"}, "store imports no rum500.tui"),
        ({"rum500/host/table.py": "from rum500.tui.model import M\n"}, "host imports no"),
        ({"rum500/coach/search.py": "from rum500.tui import model\n"}, "coach imports no"),
        (
            {"rum500/coach/search.py": "def f():\n    from rum500.host import table\n"},
            "coach imports no rum500.host",
        ),
        ({"rum500/coach/search.py": "import net.server\n"}, "coach imports no net"),
    ],
)
def test_each_layering_breach_is_reported(
    shape: ModuleType, tmp_path: Path, files: dict[str, str], why: str
) -> None:
    base = {
        "net/__init__.py": "",
        "net/server.py": "",
        "rum500/__init__.py": "",
        "rum500/__main__.py": "from rum500.cli import main\n",
        "rum500/cli.py": "from rum500.tui import app\nfrom rum500.rules import game\n",
        "rum500/cards.py": "",
        "rum500/rules/__init__.py": "",
        "rum500/rules/game.py": "from rum500 import cards\n",
        "rum500/store/__init__.py": "",
        "rum500/store/db.py": "from rum500.rules import game\n",
        "rum500/tui/__init__.py": "",
        "rum500/tui/app.py": "import net.server\nfrom rum500.store import db\n",
        "rum500/tui/model.py": "",
        "rum500/bots/__init__.py": "",
        "rum500/bots/easy.py": "from rum500.rules.game import Game\n",
        "rum500/host/__init__.py": "",
        "rum500/host/table.py": "from rum500.rules import game\nimport net.server\n",
        "rum500/coach/__init__.py": "",
        "rum500/coach/search.py": "from rum500.bots.easy import x\nfrom rum500.store import db\n",
    }
    assert shape.breaches(shape.graph(write(tmp_path / "clean", base))) == []
    found = shape.breaches(shape.graph(write(tmp_path / "broken", {**base, **files})))
    assert len(found) == 1 and why in found[0], found
