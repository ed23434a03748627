-- Placeholder on branch ptrain only, so that 0013 follows without a gap: branch tstore's
-- 0012_tournaments.sql takes this number when both are merged (keep theirs).
SELECT 1;
