-- Findings. document, tags and evidence are JSON text kept exactly as the
-- caller gave them (callers compare document bytes to detect change).
-- created_at is fixed-width RFC 3339 UTC so text order is time order.
CREATE TABLE entries (
    id         INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind <> ''),
    key        TEXT    NOT NULL CHECK (key <> ''),
    document   TEXT    NOT NULL,
    tags       TEXT    NOT NULL DEFAULT '[]',
    expert     TEXT    NOT NULL DEFAULT '',
    confidence REAL    NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    evidence   TEXT    NOT NULL DEFAULT '[]',
    run_id     TEXT    NOT NULL DEFAULT '',
    iteration  INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL,
    UNIQUE (kind, key)
);

-- Lookup(key) does not know the kind, so the (kind, key) index cannot serve it.
CREATE INDEX entries_key ON entries (key);
CREATE INDEX entries_run ON entries (run_id, kind, key);

CREATE TABLE runs (
    id          TEXT PRIMARY KEY CHECK (id <> ''),
    dsn         TEXT NOT NULL DEFAULT '',
    dialect     TEXT NOT NULL DEFAULT '',
    database    TEXT NOT NULL DEFAULT '',
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    stop_reason TEXT NOT NULL DEFAULT '',
    state       TEXT,
    options     TEXT
);

CREATE INDEX runs_started ON runs (started_at);

-- External content: the text lives once, in entries; the triggers keep the
-- index in the same transaction as the write, so a crash cannot split them.
CREATE VIRTUAL TABLE entries_fts USING fts5 (
    key, tags, document,
    content = 'entries',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
    INSERT INTO entries_fts (rowid, key, tags, document)
    VALUES (new.id, new.key, new.tags, new.document);
END;

CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, key, tags, document)
    VALUES ('delete', old.id, old.key, old.tags, old.document);
END;

CREATE TRIGGER entries_fts_update AFTER UPDATE ON entries BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, key, tags, document)
    VALUES ('delete', old.id, old.key, old.tags, old.document);
    INSERT INTO entries_fts (rowid, key, tags, document)
    VALUES (new.id, new.key, new.tags, new.document);
END;
