"""Several bot processes on one database; the LINE tests' fake LINE API serves them all."""

from ..line.conftest import fake_line

__all__ = ["fake_line"]
