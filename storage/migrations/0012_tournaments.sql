-- Tournaments (docs/tournaments.md, section 1): weekly rotas, events, their entrants, rounds,
-- boards, byes, forbidden pairs and reminders; and the games an event plays, many in one chat.
-- Rotas come first because events refer to them.
CREATE TABLE tournament_rotas (               -- `tournament weekly thursday 20:00 ...`
    id {id}, platform TEXT NOT NULL, channel TEXT NOT NULL, community TEXT,
    weekday     INTEGER NOT NULL CHECK (weekday BETWEEN 0 AND 6),      -- Monday 0
    local_time  {clock} NOT NULL, timezone TEXT NOT NULL,              -- as `subscribe` keeps them
    spec        {json}  NOT NULL {sqlite: CHECK (json_valid(spec))},   -- the parsed options of `new`
    active      {bool}  NOT NULL DEFAULT {true} {sqlite: CHECK (active IN (0, 1))},
    created_by  {ref}   NOT NULL REFERENCES players (id), created {time} NOT NULL,
    UNIQUE (platform, channel, weekday, local_time)
);
CREATE TABLE tournaments (
    id {id}, platform TEXT NOT NULL, channel TEXT NOT NULL, community TEXT,
    salt            TEXT NOT NULL,                   -- 6 hex characters: the event's outbox keys
    pairing_system  TEXT NOT NULL CHECK (pairing_system IN ('swiss', 'roundrobin', 'arena')),
    status          TEXT NOT NULL CHECK (status IN ('announced', 'running', 'finished', 'cancelled')),
    variant         TEXT NOT NULL,
    rated           {bool} NOT NULL {sqlite: CHECK (rated IN (0, 1))},
    clock_initial   INTEGER CHECK (clock_initial >= 0),        -- a live event (seconds), or
    clock_increment INTEGER CHECK (clock_increment >= 0),
    move_seconds    INTEGER CHECK (move_seconds >= 60),        -- a correspondence one
    rounds          INTEGER CHECK (rounds >= 1),               -- Swiss: asked; round robin: at start
    cycles          INTEGER NOT NULL DEFAULT 1 CHECK (cycles IN (1, 2)),
    window_seconds  INTEGER CHECK (window_seconds > 0),        -- correspondence rounds
    window_end      TEXT CHECK (window_end IN ('draw', 'loss')),
    arena_minutes   INTEGER CHECK (arena_minutes BETWEEN 20 AND 720),
    starts {time}, ends {time},              -- starts NULL: at `tournament start`; ends: an arena's
    last_round      INTEGER NOT NULL DEFAULT 0,
    next_at         {time},                  -- when the scheduler next owes the event something
    role            TEXT,                    -- a Discord role to mention
    rota_id {ref} REFERENCES tournament_rotas (id), rota_date {date},
    created_by {ref} NOT NULL REFERENCES players (id), created {time} NOT NULL, updated {time} NOT NULL,
    version         INTEGER NOT NULL DEFAULT 1,
    CHECK ((clock_initial IS NULL) = (clock_increment IS NULL)),
    CHECK ((clock_initial IS NULL) <> (move_seconds IS NULL)),
    CHECK (pairing_system <> 'arena' OR (clock_initial IS NOT NULL AND arena_minutes IS NOT NULL)),
    CHECK ((rota_id IS NULL) = (rota_date IS NULL)),
    UNIQUE (rota_id, rota_date)              -- a rota makes one event a date
);
-- One event open per chat: a player's move then finds exactly one game of theirs.
CREATE UNIQUE INDEX tournaments_open_per_channel
    ON tournaments (platform, channel) WHERE status IN ('announced', 'running');
CREATE INDEX tournaments_next_at ON tournaments (next_at) WHERE status IN ('announced', 'running');

CREATE TABLE tournament_entrants (
    tournament_id {ref} NOT NULL REFERENCES tournaments (id), player_id {ref} NOT NULL REFERENCES players (id),
    rating INTEGER NOT NULL,                 -- of the event's variant and speed; refreshed at start
    seat   INTEGER,                          -- a round robin's Berger seat, drawn at start
    withdrawn {bool} NOT NULL DEFAULT {false} {sqlite: CHECK (withdrawn IN (0, 1))}, joined {time} NOT NULL,
    PRIMARY KEY (tournament_id, player_id), UNIQUE (tournament_id, seat)
) {sqlite: WITHOUT ROWID};
CREATE TABLE tournament_rounds (             -- an arena's pairing batches are its rounds
    tournament_id {ref} NOT NULL REFERENCES tournaments (id), number INTEGER NOT NULL CHECK (number >= 1),
    paired {time} NOT NULL, window_ends {time}, closed {time},
    PRIMARY KEY (tournament_id, number)      -- pairing a round twice is a Duplicate
) {sqlite: WITHOUT ROWID};
CREATE TABLE tournament_boards (
    tournament_id {ref} NOT NULL, round INTEGER NOT NULL, board INTEGER NOT NULL CHECK (board >= 1),
    white {ref} NOT NULL REFERENCES players (id), black {ref} NOT NULL REFERENCES players (id),
    game_id {ref} UNIQUE REFERENCES games (id),                       -- NULL: decided without a game,
    score   TEXT CHECK (score IN ('1-0F', '0-1F', '0-0F')),           -- and then this
    PRIMARY KEY (tournament_id, round, board),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number),
    CHECK ((game_id IS NULL) = (score IS NOT NULL)), CHECK (white <> black)
);
CREATE INDEX tournament_boards_white ON tournament_boards (tournament_id, white);
CREATE INDEX tournament_boards_black ON tournament_boards (tournament_id, black);
CREATE TABLE tournament_byes (               -- no reference to rounds: a late join's half-point byes
    tournament_id {ref} NOT NULL REFERENCES tournaments (id), round INTEGER NOT NULL CHECK (round >= 1),
    player_id {ref} NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL CHECK (kind IN ('pairing', 'half', 'zero')),
    PRIMARY KEY (tournament_id, round, player_id)
) {sqlite: WITHOUT ROWID};
CREATE TABLE tournament_forbidden (
    tournament_id {ref} NOT NULL REFERENCES tournaments (id),
    low {ref} NOT NULL REFERENCES players (id), high {ref} NOT NULL REFERENCES players (id),
    PRIMARY KEY (tournament_id, low, high), CHECK (low < high)
) {sqlite: WITHOUT ROWID};
CREATE TABLE tournament_reminders (          -- each reminder once: the row commits with its notice
    tournament_id {ref} NOT NULL REFERENCES tournaments (id),
    mark TEXT NOT NULL,                      -- 'day', 'hour', '5m', 'r3:day'
    sent {time} NOT NULL, skipped {bool} NOT NULL DEFAULT {false} {sqlite: CHECK (skipped IN (0, 1))},
    PRIMARY KEY (tournament_id, mark)
) {sqlite: WITHOUT ROWID};

-- Games: the event a game belongs to, who went berserk, and many event games per chat: the
-- one-open-game index counts only games outside events.
ALTER TABLE games ADD COLUMN tournament_id {ref} REFERENCES tournaments (id);
ALTER TABLE games ADD COLUMN berserk TEXT CHECK (berserk IN ('w', 'b', 'wb'));
DROP INDEX games_open_per_channel;
CREATE UNIQUE INDEX games_open_per_channel
    ON games (platform, channel) WHERE status IN ('challenge', 'active') AND tournament_id IS NULL;
CREATE INDEX games_open_in_channel ON games (platform, channel) WHERE status IN ('challenge', 'active');
CREATE INDEX games_tournament ON games (tournament_id) WHERE tournament_id IS NOT NULL;
