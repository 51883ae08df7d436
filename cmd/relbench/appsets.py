"""What relbench's generated application sets (webapps/, apps/) share: the
check of each documented reference against the data, as shared/'s
FK_CHECK.tsv has it, and writing a set's databases, MANIFEST.tsv and
FK_CHECK.tsv. Standard library only."""
import os
import sqlite3
import sys


def check(c, fks):
    """Each reference's status in the data: a row counts when none of its columns is NULL (nor 0, for a
    single column where the application writes 0 for none). A reference is (child, fcols, parent, tcols,
    zero_none), columns comma-separated."""
    out = []
    for child, fcols, parent, tcols, zero_none in fks:
        f, t = fcols.split(","), tcols.split(",")
        where = " AND ".join(f'c."{x}" IS NOT NULL' for x in f) + (f' AND c."{f[0]}" <> 0' if zero_none else "")
        on = " AND ".join(f'p."{y}" = c."{x}"' for x, y in zip(f, t))
        n, orphans = c.execute(
            f'SELECT count(*), count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM "{parent}" p WHERE {on})) FROM "{child}" c WHERE {where}').fetchone()
        status = "EMPTY" if n == 0 else ("HOLDS" if orphans == 0 else "ORPHANS")
        out.append((child, fcols, parent, tcols, status, orphans, n))
    return out


def main(makers):
    """generate.py OUT_DIR: builds each (name, make) of makers, where make(path) writes the database and
    returns its connection and references, and writes MANIFEST.tsv and FK_CHECK.tsv beside them."""
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUT_DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    manifest, checks = [], []
    for name, make in makers:
        path = os.path.join(out, name + ".db")
        if os.path.exists(path):
            os.remove(path)
        c, fks = make(path)
        tables = [r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        rows = sum(c.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables)
        result = check(c, fks)
        c.close()
        manifest.append((name, name + ".db", len(tables)))
        checks += [(name,) + r for r in result]
        held = sum(1 for r in result if r[4] == "HOLDS")
        print(f"{name}: {len(tables)} tables, {rows} rows, {len(fks)} references, {held} hold", file=sys.stderr)
        for r in result:
            if r[4] != "HOLDS":
                print(f"  {r[0]}({r[1]}) -> {r[2]}({r[3]}): {r[4]}, {r[5]} orphans of {r[6]}", file=sys.stderr)
    with open(os.path.join(out, "MANIFEST.tsv"), "w") as f:
        f.write("name\tpath\ttables\n")
        for r in manifest:
            f.write("\t".join(str(x) for x in r) + "\n")
    with open(os.path.join(out, "FK_CHECK.tsv"), "w") as f:
        f.write("name\tchild\tfcols\tparent\ttcols\tstatus\torphans\tnonnull\n")
        for r in checks:
            f.write("\t".join(str(x) for x in r) + "\n")


def lake(make):
    """The same database as a lake holds it: every table copied with its columns' types and rows, no key of any kind."""
    def build(path):
        keyed = path[:-3] + ".keyed.tmp"
        if os.path.exists(keyed):
            os.remove(keyed)
        src, fks = make(keyed)
        c = sqlite3.connect(path)
        for name, in src.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"):
            cols = src.execute(f'PRAGMA table_info("{name}")').fetchall()
            c.execute(f'CREATE TABLE "{name}" (' + ", ".join(f'"{col[1]}" {col[2]}' for col in cols) + ")")
            rows = src.execute(f'SELECT * FROM "{name}"').fetchall()
            c.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(cols))})', rows)
        src.close()
        os.remove(keyed)
        c.commit()
        return c, fks
    return build
