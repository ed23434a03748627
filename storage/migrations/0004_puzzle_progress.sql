-- How far each player has got through a multi-move puzzle post, so that progress survives
-- a restart; a player who gave up is marked and can no longer solve that post.

CREATE TABLE puzzle_progress (
    post_id    INTEGER NOT NULL REFERENCES puzzle_posts (id),
    player_id  INTEGER NOT NULL REFERENCES players (id),
    ply        INTEGER NOT NULL CHECK (ply >= 0),  -- plies of the solution played so far
    gave_up    INTEGER NOT NULL DEFAULT 0 CHECK (gave_up IN (0, 1)),
    updated    TEXT    NOT NULL,
    PRIMARY KEY (post_id, player_id)
) WITHOUT ROWID;
