package postgres

import "github.com/discover-db/discover/warehouse"

// Grammar is what the lexical SQL guard knows of PostgreSQL: nested
// comments, dollar quotes, E'…' strings, backslashes whose meaning
// standard_conforming_strings decides, TABLE t, and the functions that touch
// server files, run other SQL, change state, take locks or stall.
var Grammar = &warehouse.Grammar{
	NestedComments: true, DollarQuotes: true, EscapeStrings: true, SettingsVary: true,
	Table: true,
	Dangerous: []warehouse.DangerousFunction{
		{Name: "pg_read_file", Why: "reads a server file"},
		{Name: "pg_read_binary_file", Why: "reads a server file"},
		{Name: "pg_ls_*", Why: "lists server directories"},
		{Name: "pg_stat_file", Why: "inspects a server file"},
		{Name: "pg_file_*", Why: "writes server files (adminpack)"},
		{Name: "lo_import", Why: "reads a server file"},
		{Name: "lo_export", Why: "writes a server file"},
		{Name: "lo_unlink", Why: "deletes a large object"},
		{Name: "lo_create", Why: "creates a large object"},
		{Name: "lo_creat", Why: "creates a large object"},
		{Name: "lo_from_bytea", Why: "creates a large object"},
		{Name: "lo_put", Why: "writes a large object"},
		{Name: "dblink*", Why: "runs SQL on another connection"},
		{Name: "query_to_xml", Why: "runs arbitrary SQL"},
		{Name: "query_to_xml_and_xmlschema", Why: "runs arbitrary SQL"},
		{Name: "query_to_xmlschema", Why: "runs arbitrary SQL"},
		{Name: "pg_sleep", Why: "stalls the connection"},
		{Name: "pg_sleep_for", Why: "stalls the connection"},
		{Name: "pg_sleep_until", Why: "stalls the connection"},
		{Name: "pg_terminate_backend", Why: "kills a session"},
		{Name: "pg_cancel_backend", Why: "cancels a query"},
		{Name: "pg_reload_conf", Why: "reloads the server configuration"},
		{Name: "pg_rotate_logfile", Why: "rotates the server log"},
		{Name: "set_config", Why: "changes a setting"},
		{Name: "nextval", Why: "advances a sequence"},
		{Name: "setval", Why: "sets a sequence"},
		{Name: "pg_advisory_*", Why: "takes a lock"},
		{Name: "pg_try_advisory_*", Why: "takes a lock"},
		{Name: "txid_current", Why: "assigns a transaction id"},
		{Name: "pg_current_xact_id", Why: "assigns a transaction id"},
		{Name: "pg_switch_wal", Why: "switches the WAL file"},
		{Name: "pg_create_*", Why: "creates a restore point or replication slot"},
		{Name: "pg_drop_replication_slot", Why: "drops a replication slot"},
		{Name: "pg_promote", Why: "promotes a standby"},
		{Name: "pg_notify", Why: "sends a notification"},
		{Name: "pg_stat_reset*", Why: "resets statistics"},
	},
}

// Grammar returns the package's Grammar.
func (Dialect) Grammar() *warehouse.Grammar { return Grammar }
