-- Ratings per variant: a Makruk rating is not a Sittuyin rating. Each player has one Glicko-2
-- rating per variant of the family (Fairy-Stockfish's names: makruk, makpong, cambodian,
-- asean, sittuyin), a row from their first rated game of that variant on; no row means the
-- starting values. `games_played` counts that variant's rated games and versions the rating
-- (a compare-and-set on it, see RatingUpdate). The ratings players had, from games that were
-- all Makruk, become their Makruk ratings.

CREATE TABLE ratings (
    player_id     {ref}   NOT NULL REFERENCES players (id),
    variant       TEXT    NOT NULL,
    rating        {real}  NOT NULL,
    deviation     {real}  NOT NULL,
    volatility    {real}  NOT NULL,
    games_played  INTEGER NOT NULL CHECK (games_played >= 0),
    PRIMARY KEY (player_id, variant)
) {sqlite: WITHOUT ROWID};
CREATE INDEX ratings_variant ON ratings (variant, rating DESC);

INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games_played)
    SELECT id, 'makruk', rating, deviation, volatility, games_played FROM players;

ALTER TABLE players DROP COLUMN rating;
ALTER TABLE players DROP COLUMN deviation;
ALTER TABLE players DROP COLUMN volatility;
ALTER TABLE players DROP COLUMN games_played;
