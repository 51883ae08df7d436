// Parses a DBML file with @dbml/core (the parser dbdiagram.io uses) and
// prints what it read as JSON, or the parser's errors on stderr and exit 1.
// Run with NODE_PATH set to the node_modules that holds @dbml/core.
const { Parser } = require('@dbml/core');
const fs = require('fs');
let db;
try {
  db = new Parser().parse(fs.readFileSync(process.argv[2], 'utf8'), 'dbmlv2');
} catch (e) {
  const diags = e && e.diags ? e.diags.map(d => `${d.message} at ${d.location.start.line}:${d.location.start.column}`) : [String(e)];
  process.stderr.write(diags.join('\n') + '\n');
  process.exit(1);
}
const out = { tables: [], refs: [], enums: [] };
for (const s of db.schemas) {
  for (const e of s.enums) {
    out.enums.push({ schema: s.name, name: e.name, values: e.values.map(v => v.name) });
  }
  for (const t of s.tables) {
    out.tables.push({
      schema: s.name, name: t.name, note: t.note || '',
      fields: t.fields.map(f => ({
        name: f.name, type: f.type.type_name, type_schema: f.type.schemaName || '', pk: !!f.pk, unique: !!f.unique, not_null: !!f.not_null,
        default: f.dbdefault ? `${f.dbdefault.type}:${f.dbdefault.value}` : '', note: f.note || '',
      })),
      indexes: t.indexes.map(i => ({ columns: i.columns.map(c => c.value), kinds: i.columns.map(c => c.type), pk: !!i.pk, unique: !!i.unique, name: i.name || '', note: i.note || '' })),
    });
  }
  for (const r of s.refs) {
    out.refs.push({
      name: r.name || '', onDelete: r.onDelete || '',
      endpoints: r.endpoints.map(e => ({ schema: e.schemaName || 'public', table: e.tableName, fields: e.fieldNames, relation: e.relation })),
    });
  }
}
process.stdout.write(JSON.stringify(out));
