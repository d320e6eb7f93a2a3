-- Every change counts the game's version up (a change made on an older version is refused);
-- the standing draw offer.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN draw_offer TEXT;
