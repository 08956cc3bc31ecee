/**
 * Prisma's schema engine writes `Json @default("[]")` on SQLite as `DEFAULT []`, unquoted, which SQLite rejects
 * (`unrecognized token: "{"`; prisma/orm#26571). This quotes such defaults as SQL string literals, which is what the
 * engine itself reads back from a database, so a migration fixed here still diffs clean against the schema.
 * Applied to the SQL the engine generates for SQLite (new migrations and `db:diff`).
 */
const JSON_DEFAULT = /(\bJSONB(?: NOT NULL)? DEFAULT )([[{].*?)(,?)$/gm;

export function quoteSqliteJsonDefaults(sql: string): string {
  return sql.replace(JSON_DEFAULT, (whole, head: string, value: string, comma: string) => {
    // `ALTER TABLE ... ADD COLUMN ... DEFAULT {};` ends with a semicolon rather than a comma.
    const semicolon = value.endsWith(";") ? ";" : "";
    const json = semicolon ? value.slice(0, -1) : value;
    try {
      JSON.parse(json);
    } catch {
      return whole; // not a bare JSON literal: leave it as the engine wrote it
    }
    return `${head}'${json.replace(/'/g, "''")}'${semicolon}${comma}`;
  });
}
