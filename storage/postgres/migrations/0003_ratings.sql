-- Ratings per variant (SQLite's 0008): one Glicko-2 rating per player and variant, a row from
-- the player's first rated game of that variant on; the ratings players had, from games that
-- were all Makruk, become their Makruk ratings.

CREATE TABLE ratings (
    player_id     bigint  NOT NULL REFERENCES players (id),
    variant       text    NOT NULL,
    rating        double precision NOT NULL,
    deviation     double precision NOT NULL,
    volatility    double precision NOT NULL,
    games_played  integer NOT NULL CHECK (games_played >= 0),
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_variant ON ratings (variant, rating DESC);

INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games_played)
    SELECT id, 'makruk', rating, deviation, volatility, games_played FROM players;

ALTER TABLE players
    DROP COLUMN rating,
    DROP COLUMN deviation,
    DROP COLUMN volatility,
    DROP COLUMN games_played;
