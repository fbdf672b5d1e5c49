-- 0008, the verifiable shuffle (issue 18 item 10). A table opened with `verifiable:on`
-- deals each hand from a deck that is a documented function of a secret seed
-- (bot/engine/shuffle.py); the table shows the seed's SHA-256 before the hand and
-- publishes the seed when it closes (docs/hand-history.md).
--
-- Two tables of their own, so no existing row changes and the secret seeds live apart
-- from the hand rows every other query reads (`SELECT * FROM hands` shows no seed):
-- verifiable_tables: the tables opened with the option (none before this migration).
-- hand_seeds: a verifiable table's hand's seed, 64 lowercase hex digits, written when the
-- hand is dealt (so a restart keeps it) and shown only once its table is closed: the seed
-- shows every card of the hand, folded and mucked ones too.
-- IF NOT EXISTS: applying it again (a database whose version was set back) changes nothing.
CREATE TABLE IF NOT EXISTS verifiable_tables (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id)
) STRICT;

CREATE TABLE IF NOT EXISTS hand_seeds (
    hand_id     INTEGER PRIMARY KEY REFERENCES hands (id),
    seed        TEXT NOT NULL
                CHECK (length(seed) = 64 AND seed NOT GLOB '*[^0-9a-f]*')
) STRICT;
