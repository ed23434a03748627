-- Leases: which bot process is doing a piece of scheduled work (a game's deadline, a chat's
-- outbox, a daily post) until when. Several processes share one database; each claims the
-- work it does, and a claim held by a process that died runs out and is taken over.

CREATE TABLE leases (
    name    TEXT NOT NULL PRIMARY KEY,  -- what is claimed, e.g. 'game:42', 'outbox:line:C1'
    holder  TEXT NOT NULL,              -- the process holding it
    until   {time} NOT NULL             -- the claim runs out at this time
) {sqlite: WITHOUT ROWID};
