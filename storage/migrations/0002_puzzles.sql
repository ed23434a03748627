-- Puzzles, daily-puzzle subscriptions, posts, attempts and streaks.

CREATE TABLE puzzles (
    id        TEXT PRIMARY KEY,
    fen       TEXT NOT NULL,
    solution  TEXT NOT NULL,  -- UCI moves separated by spaces
    rating    INTEGER,
    themes    TEXT NOT NULL DEFAULT '',  -- separated by spaces
    source    TEXT
);
CREATE INDEX puzzles_rating ON puzzles (rating);

CREATE TABLE subscriptions (
    id           {id},
    platform     TEXT    NOT NULL,
    channel      TEXT    NOT NULL,
    local_time   {clock} NOT NULL,  -- in `timezone`
    timezone     TEXT    NOT NULL,
    language     TEXT,
    last_posted  {date},            -- the local date of the last daily post
    -- Unsubscribing keeps the row, so a same-day resubscribe cannot post twice.
    active       {bool}  NOT NULL DEFAULT {true} {sqlite: CHECK (active IN (0, 1))},
    created      {time}  NOT NULL,
    UNIQUE (platform, channel)
);

CREATE TABLE puzzle_posts (
    id               {id},
    platform         TEXT    NOT NULL,
    channel          TEXT    NOT NULL,
    puzzle_id        TEXT    NOT NULL REFERENCES puzzles (id),
    subscription_id  {ref}   REFERENCES subscriptions (id),  -- NULL: posted on demand
    local_date       {date},
    posted           {time}  NOT NULL,
    CHECK ((subscription_id IS NULL) = (local_date IS NULL)),
    -- Exactly one daily post per subscription and local day.
    {postgres: CONSTRAINT puzzle_posts_one_a_day} UNIQUE (subscription_id, local_date),
    -- A chat never sees the same puzzle twice (PuzzleAlreadyPosted).
    {postgres: CONSTRAINT puzzle_posts_seen_in_chat} UNIQUE (platform, channel, puzzle_id)
);
CREATE INDEX puzzle_posts_chat ON puzzle_posts (platform, channel, id);

CREATE TABLE puzzle_attempts (
    post_id    {ref}   NOT NULL REFERENCES puzzle_posts (id),
    player_id  {ref}   NOT NULL REFERENCES players (id),
    tries      INTEGER NOT NULL CHECK (tries >= 1),
    solved     {bool}  NOT NULL {sqlite: CHECK (solved IN (0, 1))},
    first_at   {time}  NOT NULL,
    solved_at  {time},
    PRIMARY KEY (post_id, player_id)
) {sqlite: WITHOUT ROWID};
CREATE INDEX puzzle_attempts_player ON puzzle_attempts (player_id);

CREATE TABLE streaks (
    platform   TEXT    NOT NULL,
    channel    TEXT    NOT NULL,
    player_id  {ref}   NOT NULL REFERENCES players (id),
    current    INTEGER NOT NULL CHECK (current >= 0),
    best       INTEGER NOT NULL CHECK (best >= current),
    last_date  {date},
    PRIMARY KEY (platform, channel, player_id)
) {sqlite: WITHOUT ROWID};
