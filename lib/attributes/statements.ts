import type { PreparedStatement } from "../db/client";

// The SQL of visitor attributes (docs/attributes.md). Every key and value is a bound parameter:
// keys are only ever looked up with `->` / `@>` on a parameter, never spliced into the text.

/**
 * The conversation list's attribute filters over row alias `c`: $11 a JSON object every
 * conversation must contain (the equalities, typed), $12 a JSON array of `{key, op: gt|lt, value}`
 * (numbers and dates; compared only against a stored value of the same JSON type). Null: none.
 */
export const ATTRIBUTE_FILTER_SQL = `($11::jsonb IS NULL OR c.attributes @> $11::jsonb)
        AND ($12::jsonb IS NULL OR NOT EXISTS (
          SELECT 1 FROM jsonb_array_elements($12::jsonb) f
          WHERE NOT COALESCE(
            jsonb_typeof(c.attributes -> (f ->> 'key')) = jsonb_typeof(f -> 'value')
            AND CASE f ->> 'op' WHEN 'gt' THEN c.attributes -> (f ->> 'key') > f -> 'value' ELSE c.attributes -> (f ->> 'key') < f -> 'value' END,
            false)))`;

/** $1 conversation id: its attributes, locked until the transaction ends. No row: no such conversation. */
export const LOCK_CONVERSATION_ATTRIBUTES = `SELECT attributes FROM conversations WHERE id = $1 FOR UPDATE`;

/** $1 conversation id, $2 a JSON object of values set, $3 a JSON array of the keys removed. */
export const UPDATE_CONVERSATION_ATTRIBUTES = `
  UPDATE conversations SET attributes = (attributes || $2::jsonb) - ARRAY(SELECT jsonb_array_elements_text($3::jsonb))
  WHERE id = $1 RETURNING attributes`;

/** $1 a definition's key: takes its values off every conversation that has one. */
export const REMOVE_ATTRIBUTE_VALUES: PreparedStatement = {
  name: "remove_attribute_values",
  text: `UPDATE conversations SET attributes = attributes - $1::text WHERE attributes -> $1::text IS NOT NULL`,
};
