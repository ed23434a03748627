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
    id           INTEGER PRIMARY KEY,
    platform     TEXT    NOT NULL,
    channel      TEXT    NOT NULL,
    local_time   TEXT    NOT NULL,  -- "HH:MM" in `timezone`
    timezone     TEXT    NOT NULL,
    language     TEXT,
    last_posted  TEXT,              -- local date "YYYY-MM-DD"
    -- Unsubscribing keeps the row, so a same-day resubscribe cannot post twice.
    active       INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created      TEXT    NOT NULL,
    UNIQUE (platform, channel)
);

CREATE TABLE puzzle_posts (
    id               INTEGER PRIMARY KEY,
    platform         TEXT    NOT NULL,
    channel          TEXT    NOT NULL,
    puzzle_id        TEXT    NOT NULL REFERENCES puzzles (id),
    subscription_id  INTEGER REFERENCES subscriptions (id),  -- NULL: posted on demand
    local_date       TEXT,
    posted           TEXT    NOT NULL,
    CHECK ((subscription_id IS NULL) = (local_date IS NULL)),
    -- Exactly one daily post per subscription and local day.
    UNIQUE (subscription_id, local_date),
    -- A chat never sees the same puzzle twice.
    UNIQUE (platform, channel, puzzle_id)
);
CREATE INDEX puzzle_posts_chat ON puzzle_posts (platform, channel, id);

CREATE TABLE puzzle_attempts (
    post_id    INTEGER NOT NULL REFERENCES puzzle_posts (id),
    player_id  INTEGER NOT NULL REFERENCES players (id),
    tries      INTEGER NOT NULL CHECK (tries >= 1),
    solved     INTEGER NOT NULL CHECK (solved IN (0, 1)),
    first_at   TEXT    NOT NULL,
    solved_at  TEXT,
    PRIMARY KEY (post_id, player_id)
) WITHOUT ROWID;
CREATE INDEX puzzle_attempts_player ON puzzle_attempts (player_id);

CREATE TABLE streaks (
    platform   TEXT    NOT NULL,
    channel    TEXT    NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    current    INTEGER NOT NULL CHECK (current >= 0),
    best       INTEGER NOT NULL CHECK (best >= current),
    last_date  TEXT,
    PRIMARY KEY (platform, channel, player_id)
) WITHOUT ROWID;
