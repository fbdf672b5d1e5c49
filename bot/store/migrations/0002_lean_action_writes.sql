-- 0002: fewer b-trees written by each table action (every action's COMMIT writes the pages
-- it touched; see bench/service.py).
--
-- ledger_table served no query of the bot: the audit and a table's pot history go through
-- ledger_from / ledger_to (the pot account), a hand's rows through ledger_hand. A listing of
-- one table's rows (store.entries(table_id=...), diagnostics and tests only) now scans.
DROP INDEX ledger_table;

-- The hand log is only ever read by (hand_id, seq): keyed by it WITHOUT ROWID, one b-tree
-- instead of a rowid table plus the primary key's index. Rows are small (one event's JSON).
CREATE TABLE hand_events_keyed (
    hand_id     INTEGER NOT NULL REFERENCES hands (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT NOT NULL,
    visible_to  INTEGER,
    event       TEXT NOT NULL CHECK (json_valid(event)),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID, STRICT;

INSERT INTO hand_events_keyed (hand_id, seq, kind, visible_to, event, created_at)
SELECT hand_id, seq, kind, visible_to, event, created_at FROM hand_events ORDER BY hand_id, seq;

DROP TABLE hand_events;

ALTER TABLE hand_events_keyed RENAME TO hand_events;

CREATE TRIGGER hand_events_no_update BEFORE UPDATE ON hand_events
BEGIN
    SELECT RAISE(ABORT, 'hand events are append-only: UPDATE refused');
END;
