"""Daily puzzles: the bank (bank.py), how it is made (generate.py) and proved (verify.py),
and the ``makruk-bot puzzles`` command line (main.py)."""
