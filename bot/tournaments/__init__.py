"""Tournaments inside a chat (issue 25): the pure parts, free of storage and of any door.

``records.py`` holds an event's history as values (entrants, games, byes); the formats, the
pairings and the tie-breaks are functions of that history, so a round is paired again from
what is stored, the same history always giving the same answer.
"""
