-- A re-run that reuses an earlier run's findings moves them to the new run
-- (Catalog.Adopt: UPDATE of run_id only). The index holds key, tags and
-- document, so only an update of those needs it refreshed; re-indexing
-- every adopted entry would make a reused run as slow as the writes were.
DROP TRIGGER entries_fts_update;

CREATE TRIGGER entries_fts_update AFTER UPDATE OF key, tags, document ON entries BEGIN
    INSERT INTO entries_fts (entries_fts, rowid, key, tags, document)
    VALUES ('delete', old.id, old.key, old.tags, old.document);
    INSERT INTO entries_fts (rowid, key, tags, document)
    VALUES (new.id, new.key, new.tags, new.document);
END;
