-- How a channel's moves are written back, and the chat's archive of finished games (SQLite's
-- 0009): notation 'san', 'thai' or 'playok' (NULL: the bot's default), not CHECKed, so a new
-- notation needs no migration; an index that reads a page of finished games only.

ALTER TABLE channel_settings ADD COLUMN notation text;

CREATE INDEX games_finished_per_channel ON games (platform, channel, id) WHERE status = 'finished';
