-- How far each player has got through a multi-move puzzle post, so that progress survives
-- a restart; a player who gave up is marked and can no longer solve that post.

CREATE TABLE puzzle_progress (
    post_id    {ref}   NOT NULL REFERENCES puzzle_posts (id),
    player_id  {ref}   NOT NULL REFERENCES players (id),
    ply        INTEGER NOT NULL CHECK (ply >= 0),  -- plies of the solution played so far
    gave_up    {bool}  NOT NULL DEFAULT {false} {sqlite: CHECK (gave_up IN (0, 1))},
    updated    {time}  NOT NULL,
    PRIMARY KEY (post_id, player_id)
) {sqlite: WITHOUT ROWID};
