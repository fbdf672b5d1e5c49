-- 0010, what home games play (issue 18 item 14): the ledger learns 'seven_deuce', the
-- payment to whoever wins a Hold'em pot with 7-2 offsuit and shows it. Each player dealt
-- in pays it into the table's pot and the winner takes it out, in the hand's own action
-- (so the pot is empty again and the hand's result counts it): two ways through the pot,
-- both of kind 'seven_deuce', so the ledger says what was paid and why.
--
-- SQLite cannot change a CHECK in place: the ledger is rebuilt as in 0005 and 0009 (whose
-- tournament kinds it keeps), its rows and ids kept (nothing refers to its rows; dropping
-- it removes them without running the no-delete trigger, which is created again below).
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
                      'match', 'award', 'refund', 'void', 'season_end', 'settle',
                      'tournament_buy_in', 'tournament_bounty', 'tournament_rebuy',
                      'tournament_add_on', 'prize', 'bounty', 'tournament_refund',
                      'tournament_chips', 'tournament_chips_back', 'seven_deuce')),
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
