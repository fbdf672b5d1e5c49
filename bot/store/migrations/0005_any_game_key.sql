-- foreign_keys: off
-- 0005: a table's game is any game key the service knows (issue 13): Hold'em, Omaha, Stud,
-- HORSE and dealer's choice beside Zoot, Wheelers and Razz, and a ninth game later without
-- a migration. The service validates the key (bot/tables/games.py make_family); the column
-- keeps only a shape check. SQLite cannot change a CHECK in place, so the table is rebuilt
-- (sqlite.org/lang_altertable.html, "other kinds of table schema changes"): the runner
-- turns foreign keys off for this file (the first line above) and runs
-- PRAGMA foreign_key_check before the commit. The trigger on seats that reads `tables` is
-- dropped and made again around the rename (a rename re-checks every trigger's body).
DROP TRIGGER league_seats_sit;

CREATE TABLE tables_new (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    channel_id  INTEGER NOT NULL,
    game        TEXT NOT NULL CHECK (length(game) BETWEEN 1 AND 32),
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

INSERT INTO tables_new (id, guild_id, channel_id, game, rules, status, host_id, snapshot,
                        version, deadline, practice, created_at, updated_at)
SELECT id, guild_id, channel_id, game, rules, status, host_id, snapshot,
       version, deadline, practice, created_at, updated_at
FROM tables;

DROP TABLE tables;

ALTER TABLE tables_new RENAME TO tables;

CREATE UNIQUE INDEX tables_one_live_per_channel ON tables (channel_id) WHERE status <> 'closed';
CREATE INDEX tables_live ON tables (status) WHERE status <> 'closed';

CREATE TRIGGER league_seats_sit AFTER INSERT ON seats
WHEN NEW.is_computer = 0
BEGIN
    INSERT INTO league_seats (guild_id, user_id, table_id)
    SELECT t.guild_id, NEW.user_id, NEW.table_id FROM tables t
    WHERE t.id = NEW.table_id AND t.practice = 0 AND t.status <> 'closed';
END;

CREATE TRIGGER league_seats_close AFTER UPDATE OF status ON tables
WHEN NEW.status = 'closed'
BEGIN
    DELETE FROM league_seats WHERE table_id = NEW.id;
END;
