"""The puzzle service: daily posts, answers, hints, giving up, streaks, leaderboards, puzzles
served by rating (rated in private chats), reports, and the Streak, Storm and Race modes.

The game service routes to it: the puzzle commands, and bare moves in a chat where no game is
being played. One module per part, each a layer of ``PuzzleService``: base.py (what they share),
cards.py (boards, cards, solutions), daily.py (the daily post), training.py (served by rating,
Glicko-2), solving.py (answers), runs.py (the modes), service.py (the entry points).
"""

from .base import OPEN_FOR as OPEN_FOR
from .cards import draw_card as draw_card
from .cards import is_mate_puzzle as is_mate_puzzle
from .cards import solution_text as solution_text
from .daily import parse_subscription as parse_subscription
from .daily import weekday_bands as weekday_bands
from .service import PuzzleService as PuzzleService
from .training import rate as rate
