-- 0005: the games a table may play are the code's list (bot/store/models.py GAMES, checked
-- by create_table), no longer a CHECK listing 'zoot', 'wheelers', 'razz': issue 13 adds
-- Stud (and more games), and each new game would otherwise rebuild `tables`. A rebuild is
-- what SQLite asks for to change a CHECK, but `tables` is the parent of six foreign keys,
-- and with foreign keys on (they are, before migrations run) dropping it fails them.
-- SQLite's documented shortcut for *removing* a CHECK (lang_altertable.html, "making other
-- kinds of table schema changes") edits the stored CREATE TABLE text instead; no row
-- changes and the on-disk format is the same. RESET makes this connection read the new
-- schema; the CREATE/DROP after it bumps the schema cookie for every other connection, and
-- its CHECK fails the migration (rolled back) if the old CHECK text was not found.
PRAGMA writable_schema = ON;

UPDATE sqlite_schema
SET sql = replace(
    sql,
    'game        TEXT NOT NULL CHECK (game IN (''zoot'', ''wheelers'', ''razz'')),',
    'game        TEXT NOT NULL CHECK (game <> ''''),'
)
WHERE type = 'table' AND name = 'tables';

PRAGMA writable_schema = RESET;

CREATE TABLE migration_0005_check (edited INTEGER NOT NULL CHECK (edited = 1)) STRICT;
INSERT INTO migration_0005_check (edited)
SELECT NOT EXISTS (
    SELECT 1 FROM sqlite_schema WHERE name = 'tables' AND sql LIKE '%CHECK (game IN (%'
);
DROP TABLE migration_0005_check;
