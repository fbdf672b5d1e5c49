-- 0004: a night and the settle-up (issue 13, item 7).
--
-- The league's chip value: what one chip is worth in a currency, a decimal kept as text
-- (never a float: 0.005 EUR must stay 0.005), validated by bot/league/settle.py. Both
-- NULL: the settle-up is in chips only.
ALTER TABLE leagues ADD COLUMN chip_value TEXT
    CHECK (chip_value IS NULL OR (length(chip_value) BETWEEN 1 AND 20
                                  AND chip_value NOT GLOB '*[^0-9.]*'));
ALTER TABLE leagues ADD COLUMN currency TEXT
    CHECK (currency IS NULL OR (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'));

-- A night brackets play in a server: /night start .. /night end. One open at a time.
CREATE TABLE nights (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    season_id   INTEGER NOT NULL REFERENCES seasons (id),
    host_id     INTEGER NOT NULL,
    channel_id  INTEGER,
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER,
    ended_by    INTEGER,
    UNIQUE (guild_id, number),
    CHECK (ended_at IS NULL OR ended_at >= started_at)
) STRICT;

CREATE UNIQUE INDEX nights_one_open ON nights (guild_id) WHERE ended_at IS NULL;

-- A recorded settle-up: the transfers (JSON [{"payer", "payee", "chips"}]) and the chip
-- value they were priced at. Its chips moved as ledger rows of kind 'settle', one per
-- transfer, from the payee's wallet back to the payer's (the payer paid in money, so the
-- chips they lost return to them): every net of the period is 0 afterwards.
CREATE TABLE settlements (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES leagues (guild_id),
    season_id   INTEGER NOT NULL REFERENCES seasons (id),
    period      TEXT NOT NULL CHECK (period IN ('night', 'season')),
    night_id    INTEGER REFERENCES nights (id),
    actor_id    INTEGER,
    chip_value  TEXT,
    currency    TEXT,
    transfers   TEXT NOT NULL CHECK (json_valid(transfers)),
    -- a night's results as they were settled (each player's net and hands, the hand count,
    -- the biggest pot), so the night reads the same later, whatever its time window meets
    results     TEXT CHECK (results IS NULL OR json_valid(results)),
    created_at  INTEGER NOT NULL,
    CHECK ((period = 'night') = (night_id IS NOT NULL))
) STRICT;

-- a night is settled once
CREATE UNIQUE INDEX settlements_one_per_night ON settlements (night_id)
    WHERE night_id IS NOT NULL;

-- The ledger learns the kind 'settle'. SQLite cannot change a CHECK in place: the table
-- is rebuilt with the same rows and ids (nothing references the ledger), then its
-- indexes and append-only triggers are made again.
CREATE TABLE ledger_new (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES leagues (guild_id),
    season_id     INTEGER NOT NULL REFERENCES seasons (id),
    from_account  INTEGER NOT NULL REFERENCES accounts (id),
    to_account    INTEGER NOT NULL REFERENCES accounts (id),
    amount        INTEGER NOT NULL CHECK (amount > 0),
    kind          TEXT NOT NULL CHECK (kind IN (
                      'start', 'grant', 'take', 'rebuy', 'ante', 'bring_in', 'bet',
                      'match', 'award', 'refund', 'void', 'season_end', 'settle')),
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    actor_id      INTEGER,
    reason        TEXT,
    created_at    INTEGER NOT NULL,
    CHECK (from_account <> to_account)
) STRICT;

INSERT INTO ledger_new (id, guild_id, season_id, from_account, to_account, amount, kind,
                        table_id, hand_id, actor_id, reason, created_at)
SELECT id, guild_id, season_id, from_account, to_account, amount, kind,
       table_id, hand_id, actor_id, reason, created_at
FROM ledger ORDER BY id;

DROP TABLE ledger;

ALTER TABLE ledger_new RENAME TO ledger;

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
