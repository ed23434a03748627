"""The ``>>>`` examples in makruk's docstrings run as tests even when only tests/ is collected."""

import doctest
import importlib
import pkgutil

import pytest

import makruk

MODULES = sorted(
    ["makruk"] + [f"makruk.{info.name}" for info in pkgutil.iter_modules(makruk.__path__) if info.name != "__main__"]
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_the_public_modules_have_examples():
    # The docstrings are the first documentation people read; the main modules should show usage.
    tested = {name for name in MODULES if doctest.DocTestFinder().find(importlib.import_module(name))[0].examples}
    assert {"makruk", "makruk.board", "makruk.fen", "makruk.notation", "makruk.types"} <= tested
