-- A puzzle the shipped bank no longer holds (the 419 Makruk puzzles of 2026-11-30 that failed
-- the acceptance of docs/puzzles.md): kept, since posts, attempts and ratings name it, and a
-- puzzle already posted can still be answered, but served to nobody again. Set at start-up
-- when the bank is loaded (`Storage.ship_puzzles`); a puzzle shipped again is served again.
ALTER TABLE puzzles ADD COLUMN retired {bool} NOT NULL DEFAULT {false} {sqlite: CHECK (retired IN (0, 1))};
