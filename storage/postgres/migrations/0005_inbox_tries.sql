-- How many times each inbox event was taken (SQLite's 0010): an event whose process died
-- before it finished is taken again; one taken too often is given up rather than stall its chat.
ALTER TABLE inbox ADD COLUMN tries integer NOT NULL DEFAULT 0 CHECK (tries >= 0);
