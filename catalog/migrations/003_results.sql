-- Results of the experts' own statements, kept so that a later run need
-- not send again a statement over tables whose change signals did not
-- move (package querycache). key hashes the statement, its bounds and the
-- signals of the tables it names; run_id is the last run that used it, so
-- that a finished run can drop what it no longer sends.
CREATE TABLE results (
    key    TEXT PRIMARY KEY CHECK (key <> ''),
    run_id TEXT NOT NULL,
    result TEXT NOT NULL
);

CREATE INDEX results_run ON results (run_id);

-- What a run's findings rest on (package incremental's basis: a signal per
-- table, half a megabyte at 3,000 tables), written once when the run
-- starts. A table of its own: SQLite rewrites a whole row on UPDATE, and
-- runs.state is saved after every task.
CREATE TABLE run_bases (
    run_id TEXT PRIMARY KEY REFERENCES runs (id),
    basis  TEXT NOT NULL
);
