-- The inbox: webhook events (LINE's) stored in the transaction that accepts them, before the
-- webhook answers 200, so an acknowledged event is never lost with the process that took it.
-- Any process handles a chat's events, one at a time and in the order LINE sent them (`sent`,
-- then arrival); an event's row goes when it has been handled. `processed_events` still holds
-- every id seen, so a redelivery is recognised after its row is gone.

CREATE TABLE inbox (
    id        {id},                             -- arrival order
    platform  TEXT NOT NULL,
    channel   TEXT NOT NULL,
    event_id  TEXT NOT NULL UNIQUE,
    sent      {time} NOT NULL,                  -- the platform's time of the event
    body      {json} NOT NULL {sqlite: CHECK (json_valid(body))},
    received  {time} NOT NULL,
    holder    TEXT,                             -- the process handling it, once started
    started   {time},
    CHECK ((holder IS NULL) = (started IS NULL))
);
CREATE INDEX inbox_chat ON inbox (platform, channel, sent, id);
CREATE INDEX inbox_received ON inbox (platform, received);
