-- Core tables: players, games with their moves, channel settings.
-- Times are UTC ISO-8601 text on SQLite ("2026-11-30T09:15:00.000000Z"; text order is time
-- order), timestamptz on PostgreSQL. The database is marked as this project's by
-- storage/migrate.py (SQLite) and storage/postgres/migrate.py (PostgreSQL).

CREATE TABLE players (
    id            {id},
    platform      TEXT    NOT NULL,
    user_id       TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    language      TEXT,
    rating        {real}  NOT NULL,
    deviation     {real}  NOT NULL,
    volatility    {real}  NOT NULL,
    games_played  INTEGER NOT NULL DEFAULT 0 CHECK (games_played >= 0),
    created       {time}  NOT NULL,
    updated       {time}  NOT NULL,
    UNIQUE (platform, user_id)
);

CREATE TABLE games (
    id              {id},
    platform        TEXT    NOT NULL,
    channel         TEXT    NOT NULL,
    community       TEXT,   -- Discord guild or LINE group; NULL in 1:1 chats
    variant         TEXT    NOT NULL,
    promotion       TEXT    NOT NULL CHECK (promotion IN ('forced', 'optional')),
    perpetual       TEXT    NOT NULL CHECK (perpetual IN ('forbid', 'draw')),
    move_seconds    INTEGER NOT NULL CHECK (move_seconds >= 0),
    white_player    {ref}   REFERENCES players (id),
    white_engine    INTEGER,
    black_player    {ref}   REFERENCES players (id),
    black_engine    INTEGER,
    rated           {bool}  NOT NULL {sqlite: CHECK (rated IN (0, 1))},
    created_by      {ref}   REFERENCES players (id),
    start_fen       TEXT    NOT NULL,
    status          TEXT    NOT NULL
                    CHECK (status IN ('challenge', 'active', 'finished', 'aborted')),
    result          TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    reason          TEXT,
    counting        {json}  {sqlite: CHECK (counting IS NULL OR json_valid(counting))},
    draw_offer      TEXT    CHECK (draw_offer IN ('w', 'b')),
    takeback_offer  TEXT    CHECK (takeback_offer IN ('w', 'b')),
    deadline        {time},
    remind_at       {time},
    reminded        {bool}  NOT NULL DEFAULT {false} {sqlite: CHECK (reminded IN (0, 1))},
    created         {time}  NOT NULL,
    updated         {time}  NOT NULL,
    version         INTEGER NOT NULL DEFAULT 1,
    CHECK (white_player IS NULL OR white_engine IS NULL),
    CHECK (black_player IS NULL OR black_engine IS NULL),
    -- Only a challenge (or one aborted before it started) may have an empty seat.
    CHECK (status IN ('challenge', 'aborted')
           OR ((white_player IS NOT NULL OR white_engine IS NOT NULL)
               AND (black_player IS NOT NULL OR black_engine IS NOT NULL))),
    CHECK ((status = 'finished') = (result IS NOT NULL))
);

-- At most one open challenge-or-game per channel, whatever the code does (ChannelBusy).
CREATE UNIQUE INDEX games_open_per_channel
    ON games (platform, channel) WHERE status IN ('challenge', 'active');
CREATE INDEX games_channel ON games (platform, channel, id);
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active';
-- Each database's queries say "not reminded" in its own way, and the index must match them.
CREATE INDEX games_remind_at ON games (remind_at)
    WHERE status = 'active' AND {sqlite: reminded = 0}{postgres: NOT reminded};
CREATE INDEX games_challenge_created ON games (created) WHERE status = 'challenge';
CREATE INDEX games_white ON games (white_player);
CREATE INDEX games_black ON games (black_player);
CREATE INDEX games_community ON games (community) WHERE community IS NOT NULL;

CREATE TABLE moves (
    game_id  {ref}   NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL CHECK (ply >= 1),
    uci      TEXT    NOT NULL,
    san      TEXT    NOT NULL,
    "by"     TEXT    NOT NULL CHECK ("by" IN ('w', 'b')),
    at       {time}  NOT NULL,
    PRIMARY KEY (game_id, ply)
) {sqlite: WITHOUT ROWID};

CREATE TABLE channel_settings (
    platform      TEXT NOT NULL,
    channel       TEXT NOT NULL,
    language      TEXT,
    promotion     TEXT CHECK (promotion IN ('forced', 'optional')),
    perpetual     TEXT CHECK (perpetual IN ('forbid', 'draw')),
    move_seconds  INTEGER CHECK (move_seconds >= 0),
    coordinates   TEXT,
    orientation   TEXT,
    updated       {time} NOT NULL,
    PRIMARY KEY (platform, channel)
) {sqlite: WITHOUT ROWID};
