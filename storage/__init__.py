"""Durable games, players, ratings, puzzles and the outbox of notices: the only code that talks to the database.

    async with await open_storage(settings.database) as storage:  # a SQLite path or a postgresql:// URL
        player = await storage.get_or_create_player("discord", "1234", "Somchai")
"""

# Each name is imported as itself: this is the package's API (mypy's no_implicit_reexport).
from ._rows import extended_streak as extended_streak
from .base import Answer as Answer
from .base import Storage as Storage
from .errors import ChannelBusy as ChannelBusy
from .errors import IncompatibleDatabase as IncompatibleDatabase
from .errors import NotFound as NotFound
from .errors import PuzzleAlreadyPosted as PuzzleAlreadyPosted
from .errors import StorageBusy as StorageBusy
from .errors import StorageError as StorageError
from .errors import StorageUnavailable as StorageUnavailable
from .errors import VersionConflict as VersionConflict
from .open import is_database_url as is_database_url
from .open import open_storage as open_storage
from .open import wait_for_storage as wait_for_storage
from .postgres import PostgresStorage as PostgresStorage
from .records import INITIAL_DEVIATION as INITIAL_DEVIATION
from .records import INITIAL_RATING as INITIAL_RATING
from .records import INITIAL_VOLATILITY as INITIAL_VOLATILITY
from .records import NO_CHANGES as NO_CHANGES
from .records import OPEN_STATUSES as OPEN_STATUSES
from .records import UNCHANGED as UNCHANGED
from .records import ChannelSettings as ChannelSettings
from .records import ChatState as ChatState
from .records import Clocks as Clocks
from .records import Color as Color
from .records import Game as Game
from .records import GameChanges as GameChanges
from .records import GameStatus as GameStatus
from .records import InboxEvent as InboxEvent
from .records import MoveRecord as MoveRecord
from .records import NewEvent as NewEvent
from .records import NewGame as NewGame
from .records import NewMove as NewMove
from .records import NewNotice as NewNotice
from .records import NoticeCounts as NoticeCounts
from .records import OutboxNotice as OutboxNotice
from .records import Perpetual as Perpetual
from .records import Platform as Platform
from .records import Player as Player
from .records import PlayerRating as PlayerRating
from .records import Promotion as Promotion
from .records import Puzzle as Puzzle
from .records import PuzzleAttempt as PuzzleAttempt
from .records import PuzzlePost as PuzzlePost
from .records import PuzzleProgress as PuzzleProgress
from .records import PuzzleScore as PuzzleScore
from .records import RatingUpdate as RatingUpdate
from .records import Result as Result
from .records import Seat as Seat
from .records import Speed as Speed
from .records import Standing as Standing
from .records import Streak as Streak
from .records import Subscription as Subscription
from .records import Taken as Taken
from .records import TimeControl as TimeControl
from .sqlite import DEFAULT_DATABASE_PATH as DEFAULT_DATABASE_PATH
from .sqlite import SqliteStorage as SqliteStorage
