"""Errors raised by the storage layer; services turn them into chat replies."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error the storage layer raises on purpose."""


class NotFound(StorageError):
    """The requested record does not exist."""


class VersionConflict(StorageError):
    """A compare-and-set lost: the record changed since the caller read it."""

    def __init__(self, what: str, expected: int, actual: int) -> None:
        super().__init__(f"{what} is at version {actual}, not {expected}")
        self.what = what
        self.expected = expected
        self.actual = actual


class ChannelBusy(StorageError):
    """The channel already holds an open challenge or an active game."""

    def __init__(self, platform: str, channel: str, game_id: int | None) -> None:
        held = f" (game {game_id})" if game_id is not None else ""
        super().__init__(f"{platform} channel {channel!r} already has an open game{held}")
        self.platform = platform
        self.channel = channel
        self.game_id = game_id


class TournamentBusy(StorageError):
    """The chat already has an open (announced or running) event: one at a time per chat."""

    def __init__(self, platform: str, channel: str, tournament_id: int | None) -> None:
        held = f" (tournament {tournament_id})" if tournament_id is not None else ""
        super().__init__(f"{platform} channel {channel!r} already has an open tournament{held}")
        self.platform = platform
        self.channel = channel
        self.tournament_id = tournament_id


class EnteredElsewhere(StorageError):
    """The player is entered (not withdrawn) in another open event: one unfinished event at a
    time per player, and so per platform."""

    def __init__(self, player_id: int, tournament_id: int) -> None:
        super().__init__(f"player {player_id} is entered in the open tournament {tournament_id}")
        self.player_id = player_id
        self.tournament_id = tournament_id


class RoundAlreadyPaired(StorageError):
    """That round of that event is stored already (another writer paired it): read again."""

    def __init__(self, tournament_id: int, number: int) -> None:
        super().__init__(f"round {number} of tournament {tournament_id} is paired already")
        self.tournament_id = tournament_id
        self.number = number


class PuzzleAlreadyPosted(StorageError):
    """That puzzle was already shown in that chat; a chat never sees one twice."""


class IncompatibleDatabase(StorageError):
    """The file is not this project's database, or is newer than this code; it was not touched."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"refusing to open {path}: {reason}")
        self.path = path
        self.reason = reason


class StorageBusy(StorageError):
    """The database is busy (locked by another writer); try again."""

    def __init__(self, detail: str = "") -> None:
        message = "the database is busy (locked by another writer); try again"
        super().__init__(f"{message} ({detail})" if detail else message)
        self.detail = detail


class StorageUnavailable(StorageBusy):
    """The database server cannot be reached, or is starting or stopping; nothing was done, try again.

    A StorageBusy, so that every caller that answers "busy, try again" answers this too, but
    with its own message: the real cause, not a lock."""

    def __init__(self, where: str, cause: str, *, waited: float | None = None) -> None:
        if waited is None:
            message = f"cannot connect to the database at {where} ({cause})"
        else:
            message = f"could not reach the database at {where} ({cause}) for {waited:g} s"
        StorageError.__init__(self, message)
        self.detail = cause
        self.where = where
        self.cause = cause
        self.waited = waited
