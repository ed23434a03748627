-- Puzzle training (docs/puzzles.md, "Ratings" and "Modes"): each puzzle's variant and whether
-- it is withheld after reports; Glicko-2 ratings of players and of puzzles; each player's first
-- try at each puzzle (only that one is rated, and only when it was private); reports; and the
-- runs of Streak, Storm and Race with each player's best score per mode (the leaderboards).

ALTER TABLE puzzles ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';
-- Reported by several players and not reviewed since: served to nobody.
ALTER TABLE puzzles ADD COLUMN withheld {bool} NOT NULL DEFAULT {false} {sqlite: CHECK (withheld IN (0, 1))};
CREATE INDEX puzzles_variant_rating ON puzzles (variant, rating);

-- A player's puzzle rating; no row means the starting values (1500 / 350 / 0.06).
CREATE TABLE puzzle_player_ratings (
    player_id   {ref}   PRIMARY KEY REFERENCES players (id),
    rating      {real}  NOT NULL,
    deviation   {real}  NOT NULL,
    volatility  {real}  NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated >= 0),   -- rated attempts
    solved      INTEGER NOT NULL CHECK (solved >= 0),  -- of which solved
    updated     {time}  NOT NULL
);

-- A puzzle's rating; no row means the bank's estimate with a deviation of 250.
CREATE TABLE puzzle_ratings (
    puzzle_id   TEXT    PRIMARY KEY REFERENCES puzzles (id),
    rating      {real}  NOT NULL,
    deviation   {real}  NOT NULL,
    volatility  {real}  NOT NULL,
    plays       INTEGER NOT NULL CHECK (plays >= 0)
);

-- Every puzzle a player was served or answered: a puzzle is served to a player once. `result`
-- is the first try's ('solved' or 'failed'; NULL until they answer) and counts for the ratings
-- only when `rated` (served in a private chat); the ratings before and after are kept.
CREATE TABLE puzzle_plays (
    player_id      {ref}   NOT NULL REFERENCES players (id),
    puzzle_id      TEXT    NOT NULL REFERENCES puzzles (id),
    platform       TEXT    NOT NULL,
    channel        TEXT    NOT NULL,
    rated          {bool}  NOT NULL {sqlite: CHECK (rated IN (0, 1))},
    result         TEXT    CHECK (result IN ('solved', 'failed')),
    rating_before  {real},
    rating_after   {real},
    served         {time}  NOT NULL,
    answered       {time},
    PRIMARY KEY (player_id, puzzle_id)
) {sqlite: WITHOUT ROWID};
CREATE INDEX puzzle_plays_puzzle ON puzzle_plays (puzzle_id);

-- A player's report of a puzzle; `reviewed` once an operator looked at it (then it no longer
-- counts towards withholding the puzzle).
CREATE TABLE puzzle_reports (
    puzzle_id  TEXT    NOT NULL REFERENCES puzzles (id),
    player_id  {ref}   NOT NULL REFERENCES players (id),
    reason     TEXT    NOT NULL,
    reported   {time}  NOT NULL,
    reviewed   {bool}  NOT NULL DEFAULT {false} {sqlite: CHECK (reviewed IN (0, 1))},
    PRIMARY KEY (puzzle_id, player_id)
) {sqlite: WITHOUT ROWID};

-- A Streak or Storm run (one player's) or a Race (a chat's: no player). The run's current
-- puzzle and the place in its solution; `seen` lists the run's puzzles so far (space-separated)
-- so that a run never repeats one. A Storm ends at `deadline`; `ended` is set once it is over.
CREATE TABLE puzzle_runs (
    id          {id},
    mode        TEXT    NOT NULL CHECK (mode IN ('streak', 'storm', 'race')),
    platform    TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    player_id   {ref}   REFERENCES players (id),
    puzzle_id   TEXT    REFERENCES puzzles (id),
    ply         INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    score       INTEGER NOT NULL DEFAULT 0 CHECK (score >= 0),
    combo       INTEGER NOT NULL DEFAULT 0 CHECK (combo >= 0),
    best_combo  INTEGER NOT NULL DEFAULT 0 CHECK (best_combo >= 0),
    mistakes    INTEGER NOT NULL DEFAULT 0 CHECK (mistakes >= 0),
    skips       INTEGER NOT NULL DEFAULT 0 CHECK (skips >= 0),
    seen        TEXT    NOT NULL DEFAULT '',
    started     {time}  NOT NULL,
    deadline    {time},
    ended       {time},
    version     INTEGER NOT NULL DEFAULT 0
);
-- At most one run going on per player and chat, and one race per chat.
CREATE UNIQUE INDEX puzzle_runs_one_going ON puzzle_runs (platform, channel, player_id) WHERE ended IS NULL;
CREATE UNIQUE INDEX puzzle_runs_one_race ON puzzle_runs (platform, channel) WHERE ended IS NULL AND player_id IS NULL;

-- Each racer's points in a race.
CREATE TABLE puzzle_race_scores (
    run_id     {ref}   NOT NULL REFERENCES puzzle_runs (id),
    player_id  {ref}   NOT NULL REFERENCES players (id),
    score      INTEGER NOT NULL CHECK (score >= 0),
    PRIMARY KEY (run_id, player_id)
) {sqlite: WITHOUT ROWID};

-- Each player's best score per mode: the leaderboards.
CREATE TABLE puzzle_bests (
    player_id  {ref}   NOT NULL REFERENCES players (id),
    mode       TEXT    NOT NULL CHECK (mode IN ('streak', 'storm', 'race')),
    best       INTEGER NOT NULL CHECK (best >= 0),
    runs       INTEGER NOT NULL CHECK (runs >= 1),
    achieved   {time}  NOT NULL,
    PRIMARY KEY (player_id, mode)
) {sqlite: WITHOUT ROWID};
CREATE INDEX puzzle_bests_board ON puzzle_bests (mode, best DESC);
