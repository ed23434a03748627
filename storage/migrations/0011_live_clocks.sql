-- Live games: a Fischer clock (minutes each, seconds added per move) beside the correspondence
-- games' limit per move. A live game keeps its time control and its clocks as of its last move:
-- each side's time left in milliseconds and the moment it was measured, so the clocks survive a
-- restart. Its `deadline` is the moment the side to move runs out (or must make its first move),
-- so due_deadlines finds a flag as it finds a correspondence game lost on time.
ALTER TABLE games ADD COLUMN clock_initial INTEGER CHECK (clock_initial >= 0);
ALTER TABLE games ADD COLUMN clock_increment INTEGER CHECK (clock_increment >= 0);
ALTER TABLE games ADD COLUMN white_ms INTEGER;
ALTER TABLE games ADD COLUMN black_ms INTEGER;
ALTER TABLE games ADD COLUMN clock_since {time};

-- Ratings per variant and per speed: a live rating is not a correspondence rating. Every
-- rating so far came from correspondence games. The key changes, which SQLite can only do by
-- building the table again; on PostgreSQL the new table's constraints get the names a table
-- made as `ratings` would have (its old primary key's index steps aside first).
{postgres: ALTER INDEX ratings_pkey RENAME TO ratings_by_variant_pkey;}
CREATE TABLE ratings_by_speed (
    player_id     {ref}   NOT NULL {postgres: CONSTRAINT ratings_player_id_fkey} REFERENCES players (id),
    variant       TEXT    NOT NULL,
    rating        {real}  NOT NULL,
    deviation     {real}  NOT NULL,
    volatility    {real}  NOT NULL,
    games_played  INTEGER NOT NULL {postgres: CONSTRAINT ratings_games_played_check} CHECK (games_played >= 0),
    speed         TEXT    NOT NULL
                  {postgres: CONSTRAINT ratings_speed_check} CHECK (speed IN ('live', 'correspondence')),
    {postgres: CONSTRAINT ratings_pkey} PRIMARY KEY (player_id, variant, speed)
) {sqlite: WITHOUT ROWID};

INSERT INTO ratings_by_speed (player_id, variant, rating, deviation, volatility, games_played, speed)
    SELECT player_id, variant, rating, deviation, volatility, games_played, 'correspondence' FROM ratings;

DROP TABLE ratings;
ALTER TABLE ratings_by_speed RENAME TO ratings;
CREATE INDEX ratings_variant ON ratings (variant, speed, rating DESC);
