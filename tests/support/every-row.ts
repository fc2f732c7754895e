// Every row of every table of a database, as text per table: two databases hold the same data
// exactly when these are equal (a backup and its restore).

type Query = <Row>(sql: string) => Promise<Row[]>;

export async function everyRow(query: Query): Promise<Record<string, string>> {
  const tables = await query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const rows: Record<string, string> = {};
  for (const { name } of tables) {
    const [dump] = await query<{ rows: string }>(`SELECT coalesce(json_agg(t ORDER BY t::text), '[]')::text AS rows FROM "${name}" t`);
    rows[name] = dump!.rows;
  }
  return rows;
}
