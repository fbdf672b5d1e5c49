-- 0005, the flop games (issue 13). First: a table's game is no longer listed in the schema (issue 13: Hold'em, Omaha, Stud
-- and the mixed games join Zoot, Wheelers and Razz; a ninth game should not need a
-- migration). The code's list (bot/store/models.py GAMES) decides which keys exist; the
-- schema keeps the key's shape: 1 to 32 of a-z, 0-9, '-' and '_'.
--
-- SQLite cannot change a CHECK in place, so the table is rebuilt. Other tables refer to
-- tables (id): with the foreign keys deferred to the commit, dropping the old table counts
-- their references as broken and inserting the same ids into the new one mends them, so
-- the commit checks that every reference still holds.
PRAGMA defer_foreign_keys = ON;

CREATE TABLE tables_copy AS SELECT * FROM tables;

DROP TABLE tables;

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    channel_id  INTEGER NOT NULL,
    game        TEXT NOT NULL
                CHECK (length(game) BETWEEN 1 AND 32 AND game NOT GLOB '*[^a-z0-9_-]*'),
    rules       TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'running', 'paused', 'closed')),
    host_id     INTEGER,
    snapshot    TEXT CHECK (snapshot IS NULL OR json_valid(snapshot)),
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    deadline    INTEGER,
    practice    INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1)),
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

INSERT INTO tables (id, guild_id, channel_id, game, rules, status, host_id, snapshot, version,
                    deadline, practice, created_at, updated_at)
SELECT id, guild_id, channel_id, game, rules, status, host_id, snapshot, version,
       deadline, practice, created_at, updated_at
FROM tables_copy ORDER BY id;

DROP TABLE tables_copy;

CREATE UNIQUE INDEX tables_one_live_per_channel ON tables (channel_id) WHERE status <> 'closed';
CREATE INDEX tables_live ON tables (status) WHERE status <> 'closed';

CREATE TRIGGER league_seats_close AFTER UPDATE OF status ON tables
WHEN NEW.status = 'closed'
BEGIN
    DELETE FROM league_seats WHERE table_id = NEW.id;
END;

-- Second: the ledger learns 'blind' (Hold'em and Omaha blinds: a forced bet into the pot,
-- as 'bring_in' is in stud games), so a hand's ledger rows say what the hand says. The
-- ledger is append-only and nothing refers to its rows: rebuilt the same way, its ids kept
-- (dropping a table removes its rows without running the no-delete trigger, which is
-- created again below).
CREATE TABLE ledger_copy AS SELECT * FROM ledger;

DROP TABLE ledger;

CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES leagues (guild_id),
    season_id     INTEGER NOT NULL REFERENCES seasons (id),
    from_account  INTEGER NOT NULL REFERENCES accounts (id),
    to_account    INTEGER NOT NULL REFERENCES accounts (id),
    amount        INTEGER NOT NULL CHECK (amount > 0),
    kind          TEXT NOT NULL CHECK (kind IN (
                      'start', 'grant', 'take', 'rebuy', 'ante', 'bring_in', 'blind', 'bet',
                      'match', 'award', 'refund', 'void', 'season_end', 'settle')),
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    actor_id      INTEGER,
    reason        TEXT,
    created_at    INTEGER NOT NULL,
    CHECK (from_account <> to_account)
) STRICT;

INSERT INTO ledger (id, guild_id, season_id, from_account, to_account, amount, kind, table_id,
                    hand_id, actor_id, reason, created_at)
SELECT id, guild_id, season_id, from_account, to_account, amount, kind, table_id,
       hand_id, actor_id, reason, created_at
FROM ledger_copy ORDER BY id;

DROP TABLE ledger_copy;

CREATE INDEX ledger_from ON ledger (from_account);
CREATE INDEX ledger_to ON ledger (to_account);
CREATE INDEX ledger_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_one_start ON ledger (to_account) WHERE kind = 'start';

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only: UPDATE refused');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only: DELETE refused');
END;
