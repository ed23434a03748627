-- Whether a tournament game's Black came to the board before White's first move
-- (docs/tournaments.md 2.8): Black shows it by writing to the game; White shows it by moving,
-- which the moves already say. Should White never move, White alone forfeits if Black came;
-- if neither did, both forfeit (0-0).
ALTER TABLE games ADD COLUMN black_present {bool} NOT NULL DEFAULT {false} {sqlite: CHECK (black_present IN (0, 1))};
