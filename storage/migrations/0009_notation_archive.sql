-- How a channel's moves are written back ('san', 'thai', 'playok'; NULL: the bot's default),
-- and the chat's archive of finished games, newest first.

-- Not CHECKed: the notations are the rules core's, and a new one must not need a table rebuild.
ALTER TABLE channel_settings ADD COLUMN notation TEXT;

-- A page of a chat's finished games reads just its rows; `games_channel` alone would step
-- over every challenge, game in play and aborted one (expired challenges pile up) on the way.
CREATE INDEX games_finished_per_channel ON games (platform, channel, id) WHERE status = 'finished';
