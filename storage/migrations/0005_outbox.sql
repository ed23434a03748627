-- The outbox: what the bot owes a chat (its move, a reminder, a loss on time, a daily
-- puzzle, a reply a door could not deliver), written in the same transaction as the change
-- that causes it and kept until it is sent. A notice given up as undeliverable stays, dead.

CREATE TABLE outbox (
    id          {id},  -- delivery order within a chat
    key         TEXT    NOT NULL UNIQUE
                CHECK ({sqlite: length(key)}{postgres: char_length(key)} BETWEEN 1 AND 25),
    platform    TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    payload     {json}  NOT NULL {sqlite: CHECK (json_valid(payload))},
    push        {bool}  NOT NULL {sqlite: CHECK (push IN (0, 1))},  -- off: only rides along on a reply
    created     {time}  NOT NULL,
    due         {time}  NOT NULL,  -- not to be sent before this
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error  TEXT,
    sent        {time},
    dead        {time}
);
-- The waiting notices of each chat, in order: what the deliverer and a reply look at.
CREATE INDEX outbox_waiting ON outbox (platform, channel, id)
    WHERE sent IS NULL AND dead IS NULL;
CREATE INDEX outbox_sent ON outbox (sent) WHERE sent IS NOT NULL;

-- A chat can turn pushed notices (reminders, the daily puzzle) off; NULL: on.
ALTER TABLE channel_settings ADD COLUMN push_notices {bool} {sqlite: CHECK (push_notices IN (0, 1))};
