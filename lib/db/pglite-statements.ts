import type { PGlite, Results } from "@electric-sql/pglite";

// PGlite's query() parses, plans and describes its statement anew on every call (Parse, Describe,
// Bind, Describe, Execute, Sync, each a separate trip into the WebAssembly backend): on an idle
// poll that was most of PGlite's CPU. Here a statement is parsed once under a name, as node-postgres
// does on PostgreSQL, and each later call is one trip: Bind, Execute, Sync. The statement's row
// description (its columns' names and types) is kept from the first trip, not asked for again:
// on an idle poll's token lookup, generating and parsing it was a fifth of PGlite's work.

type PGliteModule = typeof import("@electric-sql/pglite");
type BackendMessage = Parameters<PGliteModule["parse"]["parseResults"]>[0][number];

export interface NamedStatements {
  /** Runs `text` as a named prepared statement; `inTransaction` when the caller already holds PGlite's transaction. */
  run<Row>(name: string, text: string, values: unknown[], inTransaction?: boolean): Promise<Results<Row>>;
  /** A name for a statement known only by its text (the job queue's), or null past MAX_TEXT_NAMES. */
  nameFor(text: string): string | null;
}

// pg-boss builds a fixed set of texts; the cap only bounds memory against a caller that builds many.
const MAX_TEXT_NAMES = 200;

export function namedStatements(pglite: PGlite, { protocol, parse }: Pick<PGliteModule, "protocol" | "parse">): NamedStatements {
  const { serialize } = protocol;
  const described = new Map<string, { parameterTypes: number[]; rowDescription: BackendMessage[] }>();
  const textNames = new Map<string, string>();

  const exchange = (...messages: Uint8Array[]) => pglite.execProtocolStream(concat(messages), { syncToFs: false });

  async function runExclusively<Row>(name: string, text: string, values: unknown[]): Promise<Results<Row>> {
    let statement = described.get(name);
    if (!statement) {
      const answer = await exchange(serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync());
      // A statement that returns no rows describes itself with NoData, not a row description.
      statement = { parameterTypes: parse.parseDescribeStatementResults(answer), rowDescription: answer.filter((message) => message.name === "rowDescription") };
      described.set(name, statement);
    }
    const types = statement.parameterTypes;
    const parameters = values.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[types[index]!];
      return serializer ? serializer(value) : String(value);
    });
    // An error still runs the Sync (the backend skips to it), so the session is ready for the next.
    const messages = await exchange(serialize.bind({ statement: name, values: parameters }), serialize.execute({}), serialize.sync());
    return parse.parseResults([...statement.rowDescription, ...messages], pglite.parsers)[0] as Results<Row>;
  }

  return {
    run: async <Row>(name: string, text: string, values: unknown[], inTransaction = false) => {
      if (inTransaction) return pglite._runExclusiveQuery(() => runExclusively<Row>(name, text, values));
      return pglite._runExclusiveTransaction(() =>
        pglite._runExclusiveQuery(async () => {
          const results = await runExclusively<Row>(name, text, values);
          await pglite.syncToFs(); // as query() does outside a transaction
          return results;
        }),
      );
    },
    nameFor: (text) => {
      const known = textNames.get(text);
      if (known) return known;
      if (textNames.size >= MAX_TEXT_NAMES) return null;
      const name = `text_${textNames.size + 1}`;
      textNames.set(text, name);
      return name;
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}
