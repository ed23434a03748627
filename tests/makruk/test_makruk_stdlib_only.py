"""The rules core is pure Python: every import in makruk/ is the standard library or makruk."""

import ast
import sys
from pathlib import Path

import makruk

PACKAGE = Path(makruk.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])  # absolute; relative imports stay inside makruk
    return names


def test_makruk_imports_only_the_standard_library_and_itself():
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 8
    allowed = set(sys.stdlib_module_names) | {"makruk", "__future__"}
    found = {path.name: _imports(path) - allowed for path in modules}
    assert {name: bad for name, bad in found.items() if bad} == {}


def test_the_check_sees_third_party_imports(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import json\nimport chess.pgn\nfrom pyffish import legal_moves\nfrom . import board\n")
    assert _imports(probe) - set(sys.stdlib_module_names) == {"chess", "pyffish"}


def test_the_package_is_typed():
    assert (PACKAGE / "py.typed").exists()
