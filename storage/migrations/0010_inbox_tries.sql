-- How many times each inbox event was taken. An event whose process died before it finished
-- is taken again (the game service recognises a change it had already committed by the
-- event's outbox rows); an event taken too often is given up rather than stall its chat.
ALTER TABLE inbox ADD COLUMN tries INTEGER NOT NULL DEFAULT 0 CHECK (tries >= 0);
