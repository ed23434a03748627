-- Webhook event ids already handled (LINE redelivers events), for de-duplication.

CREATE TABLE processed_events (
    event_id  TEXT PRIMARY KEY,
    at        {time} NOT NULL
) {sqlite: WITHOUT ROWID};
CREATE INDEX processed_events_at ON processed_events (at);
