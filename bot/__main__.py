"""Entry point of ``makruk-bot`` and ``python -m bot``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    from makruk.__main__ import main as rules_main

    # Until the console chat exists, the main job shows the rules CLI on the start position.
    return rules_main(["status", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"])


if __name__ == "__main__":
    sys.exit(main())
