// The schema's enumerated columns (an execution's outcome; a message's side, direction and kind) are checked
// with `column = 'a' OR column = 'b' …`, not `column IN ('a', 'b' …)`. SQLite codes a CHECK's IN list as an
// ephemeral B-tree that it builds again for every row it inserts (EXPLAIN shows OpenEphemeral and one
// IdxInsert per value), about 0.7 µs per constraint: a sixth of a message row's insert on 2 cores (12 → 10
// µs), and 13 of them per recorded tools/call with message capture ([path-speed]). The OR form accepts and
// refuses exactly the same values (the columns are NOT NULL TEXT) and compiles to a few comparisons.
//
// Files created before this change hold the IN form. They are rewritten in place when opened for writing,
// by the procedure SQLite documents for changing a CHECK constraint (lang_altertable.html, "making other
// kinds of table schema changes": edit sqlite_schema under writable_schema, bump schema_version, one
// transaction), which touches no row. The version stays 4: both forms are the same schema to every build, so
// an older build still opens a rewritten file, and this one a file it has not rewritten yet.
import type Database from 'better-sqlite3';

interface EnumeratedColumn {
  table: 'executions' | 'messages';
  column: string;
  values: readonly string[];
}

/**
 * Literals, not MESSAGE_SIDES and the like: checkInList must reproduce, character for character, what the
 * migrations wrote into files that exist, whatever those lists become.
 */
const ENUMERATED: readonly EnumeratedColumn[] = [
  { table: 'executions', column: 'outcome', values: ['allow', 'blocked', 'mutated', 'error'] },
  { table: 'messages', column: 'side', values: ['client', 'backend', 'interceptor'] },
  { table: 'messages', column: 'direction', values: ['in', 'out'] },
  { table: 'messages', column: 'kind', values: ['request', 'response', 'error', 'notification', 'connect-error'] },
];

function enumerated(table: EnumeratedColumn['table'], column: string): EnumeratedColumn {
  const found = ENUMERATED.find((e) => e.table === table && e.column === column);
  if (!found) throw new Error(`no enumerated column ${table}.${column}`);
  return found;
}

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** `CHECK (…)` for a migration's column definition: the OR form (see the file comment). */
export function checkOneOf(table: EnumeratedColumn['table'], column: string): string {
  const { values } = enumerated(table, column);
  return `CHECK (${values.map((v) => `${column} = ${quoted(v)}`).join(' OR ')})`;
}

/** The IN form that files created before this change hold. */
function checkInList({ column, values }: EnumeratedColumn): string {
  return `CHECK (${column} IN (${values.map(quoted).join(', ')}))`;
}

/** Each table whose definition still holds an IN list, with its definition as it should read (none when current). */
function rewrittenDefinitions(db: Database.Database): Map<string, string> {
  const read = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck();
  const out = new Map<string, string>();
  for (const e of ENUMERATED) {
    const sql = out.get(e.table) ?? (read.get(e.table) as string | undefined);
    const inList = checkInList(e);
    if (sql === undefined || !sql.includes(inList)) continue;
    out.set(e.table, sql.replace(inList, checkOneOf(e.table, e.column)));
  }
  return out;
}

/**
 * Rewrites IN-list CHECK constraints of a file created before this change (see the file comment); returns
 * the tables rewritten (none when the file is current). Runs on a connection that may write, after the
 * migrations. Any failure rolls the whole change back and is thrown: the file is then as it was.
 */
export function rewriteInListChecks(db: Database.Database): string[] {
  if (rewrittenDefinitions(db).size === 0) return [];
  const rewrite = db.transaction(() => {
    // Read again under the write lock: another process may have rewritten the file meanwhile.
    const changed = rewrittenDefinitions(db);
    if (changed.size === 0) return [];
    const version = db.pragma('schema_version', { simple: true }) as number;
    db.pragma('writable_schema = ON');
    try {
      const update = db.prepare(`UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?`);
      for (const [table, sql] of changed) update.run(sql, table);
      // Other connections see a new schema version and read the schema again before their next statement.
      db.pragma(`schema_version = ${version + 1}`);
    } finally {
      db.pragma('writable_schema = OFF');
    }
    // Parsed again here, inside the transaction: a definition SQLite could not read would roll back.
    for (const table of changed.keys()) db.prepare(`SELECT * FROM ${table} WHERE 0`).all();
    return [...changed.keys()];
  });
  // better-sqlite3 opens every connection in SQLite's defensive mode, which forbids writing sqlite_schema.
  db.unsafeMode(true);
  try {
    return rewrite.immediate();
  } finally {
    db.unsafeMode(false);
  }
}
