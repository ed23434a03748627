"""Tournaments in a chat (issue 25; docs/tournaments.md section 2): the words of ``tournament``
(``grammar.py``), the texts (``present.py``) and the service that runs events.

Kept free of imports, so that any module of the package may be imported alone without cycles.
"""
