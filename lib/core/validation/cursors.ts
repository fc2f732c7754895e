import { z } from "zod";

// List cursors and the other integers of a query string: one codec for every route that pages.
// A query value is checked in full by the route's zod schema (400 invalid_request naming the
// field) before any service sees it, so no cursor a client can write reaches the database as a
// value it cannot hold. Issue 23, item 5: `cursor=99999999999999999999_x` matched the inbox's
// pattern, became an Invalid Date and answered 500.

/** The largest sequence number (PostgreSQL `integer`). */
export const MAX_SEQUENCE = 2_147_483_647;
/** The latest time a JavaScript Date can hold, in epoch milliseconds. */
export const MAX_EPOCH_MS = 8_640_000_000_000_000;
/**
 * The latest time a keyset cursor may name: 9999-12-31T23:59:59.999Z, the last a four-digit year
 * writes. Later ones (years 10000 to 275760) are valid Dates, but the embedded database's driver
 * sends them in ISO's extended-year form (`+010000-01-01T…`), which PostgreSQL refuses ("time zone
 * displacement out of range": a 500 before this bound).
 */
export const MAX_CURSOR_EPOCH_MS = 253_402_300_799_999;

/**
 * A non-negative integer written in plain digits — no sign, exponent, fraction, spaces or
 * non-ASCII digits — of at most `digits` digits, within [min, max].
 */
export const queryInteger = (min: number, max: number, digits = 10) =>
  z
    .string()
    .regex(new RegExp(`^[0-9]{1,${digits}}$`), "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** A cursor over a sequence (the visitor's message list): the last sequence seen, 0 for none. */
export const sequenceCursor = () => queryInteger(0, MAX_SEQUENCE);

/** Where a keyset page (newest first, by time then id) ends: the next page starts after it. */
export interface KeysetPosition {
  at: Date;
  id: string;
}

const KEYSET = /^([0-9]{1,15})_([A-Za-z0-9._-]{1,100})$/;
const KEYSET_PROBLEM = "must be a next_cursor from a previous page";

/** A keyset cursor as handed out: `<epoch ms>_<id>`. */
export const encodeKeysetCursor = (position: KeysetPosition) => `${position.at.getTime()}_${position.id}`;

/** The position a cursor names, or null when it is not one this service could have handed out. */
export function decodeKeysetCursor(cursor: string): KeysetPosition | null {
  const match = KEYSET.exec(cursor);
  if (!match) return null;
  const at = Number(match[1]);
  if (!Number.isSafeInteger(at) || at > MAX_CURSOR_EPOCH_MS) return null;
  return { at: new Date(at), id: match[2]! };
}

/** A keyset cursor in a query (`cursor=<epoch ms>_<id>`), decoded; anything else is 400. */
export const keysetCursor = () =>
  z
    .string()
    .regex(KEYSET, KEYSET_PROBLEM)
    .transform((value, context): KeysetPosition => {
      const position = decodeKeysetCursor(value);
      if (position) return position;
      context.issues.push({ code: "custom", message: `${KEYSET_PROBLEM} (a time up to 9999-12-31)`, input: value });
      return z.NEVER;
    });
