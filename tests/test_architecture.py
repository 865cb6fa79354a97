"""The layout holds: shared layers know no game, games are peers, no import circles.

The import-linter contracts in pyproject.toml (``[tool.importlinter]``) are checked here, so
CI fails the moment a shared module imports a game (directly, through another module, or
inside a function). The dashboard is a package only once installed (``gops_records.dashboards``
maps to the ``dashboards/`` folder), which import-linter cannot see from the source tree, so
its rule is read from the files' own import statements.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("gops", "gin")
DASHBOARD = "gops_records.dashboards"


def test_the_import_contracts_hold() -> None:
    # in a process of its own: import-linter writes through its own console, which must
    # not meet pytest's captured streams (in the full run it closed them under later tests)
    code = ("import sys; from importlinter.cli import lint_imports; "
            f"sys.exit(lint_imports(config_filename={str(ROOT / 'pyproject.toml')!r}, "
            "no_cache=True, no_logo=True))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:]


def test_no_module_takes_part_in_an_import_circle() -> None:
    """Stricter than the siblings contract: no chain of imports, at any depth and through
    any package, leads from a module back to itself (function-level imports count)."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("gops_records")
    circles = sorted((importer, imported) for importer in graph.modules
                     for imported in graph.find_modules_directly_imported_by(importer)
                     if graph.chain_exists(importer=imported, imported=importer))
    assert circles == []


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its code (function-level included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _reaches(imported: set[str], package: str) -> list[str]:
    return sorted(m for m in imported if m == package or m.startswith(package + "."))


def _shared_dashboard_files() -> list[Path]:
    return sorted((ROOT / "dashboards").glob("*.py"))


def test_there_is_a_shared_dashboard_and_a_page_folder_per_game() -> None:
    assert (ROOT / "dashboards" / "app.py") in _shared_dashboard_files()
    for name in GAMES:
        assert list((ROOT / "dashboards" / name).glob("*.py")), name


@pytest.mark.parametrize("path", _shared_dashboard_files(), ids=lambda p: p.name)
def test_shared_dashboard_modules_import_no_game(path: Path) -> None:
    imported = _imports(path)
    for name in GAMES:
        assert _reaches(imported, f"gops_records.games.{name}") == []
        assert _reaches(imported, f"{DASHBOARD}.{name}") == []


@pytest.mark.parametrize("name", GAMES)
def test_a_games_pages_import_no_other_game(name: str) -> None:
    others = [other for other in GAMES if other != name]
    for path in sorted((ROOT / "dashboards" / name).rglob("*.py")):
        imported = _imports(path)
        for other in others:
            assert _reaches(imported, f"gops_records.games.{other}") == [], path
            assert _reaches(imported, f"{DASHBOARD}.{other}") == [], path


def _shared_files() -> list[Path]:
    package = ROOT / "gops_records"
    return sorted([*(package / "core").rglob("*.py"), *(package / "cli").rglob("*.py"),
                   *_shared_dashboard_files()])


def _code_words(path: Path) -> list[str]:
    """Names, attributes and string constants of a file's code: what it *does* with a word,
    leaving out docstrings (which may name a game as an example)."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.alias):
            words.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append(node.module)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings):
            words.append(node.value)
    return words


# a game as code would name it: gin, gin_hands, GinFrames, "Gin Rummy", .ginsheet, *.gops,
# a reference into a game's package
_GAME_WORD = (r"(?<![A-Za-z])(?i:gin|ginsheet)(?![a-z])|(?<![A-Za-z])gin_|Gin[A-Z]"
              r"|(?<!\w)\.gops\b|games\.(gops|gin)\b|\bGops\b")


@pytest.mark.parametrize("path", _shared_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_module_names_a_game(path: Path) -> None:
    import re

    named = sorted({word for word in _code_words(path) if re.search(_GAME_WORD, word)})
    assert named == [], f"{path.relative_to(ROOT)} names a game in its code: {named}"
