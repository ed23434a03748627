-- A tournament game's sides that came to the board before White's first move
-- (docs/tournaments.md 2.8): White shows it by moving, Black by writing to the game. Should
-- White never move, White alone forfeits if Black came; if neither did, both forfeit (0-0).
ALTER TABLE games ADD COLUMN present TEXT CHECK (present IN ('w', 'b', 'wb'));
