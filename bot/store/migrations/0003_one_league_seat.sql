-- 0003: a member sits at most at one live league table per server (issue 11). The service
-- checked it in memory under one table's lock, so two Joins at two tables arriving
-- together both passed. league_seats holds one row per live league seat, kept by the
-- triggers below; its primary key refuses a second one for the same (server, member).
-- Practice tables and computer players are not league seats.
CREATE TABLE league_seats (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID, STRICT;

-- a database that already holds a member at two tables keeps the older seat as the league
-- seat (the other table still seats them until they leave or it closes)
INSERT OR IGNORE INTO league_seats (guild_id, user_id, table_id)
SELECT t.guild_id, s.user_id, s.table_id
FROM seats s JOIN tables t ON t.id = s.table_id
WHERE t.status <> 'closed' AND t.practice = 0 AND s.is_computer = 0
ORDER BY s.joined_at, s.table_id;

CREATE TRIGGER league_seats_sit AFTER INSERT ON seats
WHEN NEW.is_computer = 0
BEGIN
    INSERT INTO league_seats (guild_id, user_id, table_id)
    SELECT t.guild_id, NEW.user_id, NEW.table_id FROM tables t
    WHERE t.id = NEW.table_id AND t.practice = 0 AND t.status <> 'closed';
END;

CREATE TRIGGER league_seats_leave AFTER DELETE ON seats
BEGIN
    DELETE FROM league_seats WHERE table_id = OLD.table_id AND user_id = OLD.user_id;
END;

CREATE TRIGGER league_seats_close AFTER UPDATE OF status ON tables
WHEN NEW.status = 'closed'
BEGIN
    DELETE FROM league_seats WHERE table_id = NEW.id;
END;
