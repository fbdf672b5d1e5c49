-- 0008, the verifiable shuffle (issue 18 item 10). A table opened with `verifiable:on`
-- deals each hand from a deck that is a documented function of a secret seed
-- (bot/engine/shuffle.py); the table shows the seed's SHA-256 before the hand and
-- publishes the seed when it closes (docs/hand-history.md).
--
-- tables.verifiable: the table's option (0 off, the default for every existing table).
-- hands.seed: the hand's seed, 64 lowercase hex digits, written when the hand is dealt (so
-- a restart keeps it) and shown only once the table is closed: the seed shows every card
-- of the hand, folded and mucked ones too. NULL for a hand of a table that is not
-- verifiable (every existing hand). Adding columns keeps every row as it is.
ALTER TABLE tables ADD COLUMN verifiable INTEGER NOT NULL DEFAULT 0
    CHECK (verifiable IN (0, 1));

ALTER TABLE hands ADD COLUMN seed TEXT
    CHECK (seed IS NULL OR (length(seed) = 64 AND seed NOT GLOB '*[^0-9a-f]*'));
