import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, openConversation, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { stateSnapshot } from "../support/state-snapshot";

// Issue 23, item 5: `GET /api/v1/inbox/conversations?cursor=99999999999999999999_x` answered 500
// (RangeError: Invalid time value): the cursor matched its pattern, and its time, past what a Date
// can hold, reached the database as an Invalid Date. Every route that takes a cursor answers a
// cursor it did not hand out with 400 invalid_request naming the field `cursor`, and changes
// nothing; the cursors it did hand out keep working.

let staff: Staff;
let started: Started;
let siteId: string;
const runs = { crafted: 0, arbitrary: 0 };

beforeAll(async () => {
  staff = await createStaff("agent", "Cora Cursor");
  const opened = await openConversation({ body: "Hello", client_id: "c-1" });
  started = opened;
  siteId = opened.site.id;
  for (let i = 0; i < 4; i++) await startConversation(siteId, { body: `q${i}`, client_id: `q${i}` });
});

afterAll(() => {
  process.stdout.write(`cursor cases: ${runs.crafted} crafted, ${runs.arbitrary} arbitrary\n`);
});

/** Every route that takes a cursor, as its caller calls it, with the cursors only it refuses. */
const ROUTES: Record<string, { send: (cursor: string) => Promise<ApiResponse>; crafted: string[] }> = {
  "GET /api/v1/inbox/conversations": {
    send: (cursor) => api.get(`/api/v1/inbox/conversations?cursor=${encodeURIComponent(cursor)}`, as(staff)),
    crafted: ["1", "0", "1_x.y~", "1_x y"],
  },
  "GET /api/v1/chat/visitor/messages": {
    send: (cursor) => api.get(`/api/v1/chat/visitor/messages?cursor=${encodeURIComponent(cursor)}`, visitor(started)),
    crafted: ["1_x", "0_a", "253402300799999_zzz"],
  },
};

// Past what a Date holds (8.64e15 ms) or a four-digit year writes (the embedded driver sends later
// years in a form PostgreSQL refuses), numbers JavaScript rounds, signs, exponents, fractions,
// spaces, separators, other digits and a missing half: none of these was ever handed out.
const CRAFTED = [
  "99999999999999999999_x",
  "8640000000000001_x",
  "8640000000000000_x",
  "253402300800000_x",
  "9007199254740993_x",
  "99999999999999999999",
  "-1_x",
  "+1_x",
  "1e3_x",
  "1.5_x",
  " 1_x",
  "1_x ",
  "_x",
  "1_",
  "_",
  "",
  "-1",
  "2147483648",
  "abc",
  "1_x/y",
  "1_x\u2028",
  "1_x\u0085",
  "\uFF11_x",
  "١_x",
  `1_${"x".repeat(101)}`,
  `${"9".repeat(400)}_x`,
];

describe("a cursor the service did not hand out is 400 invalid_request on every route that takes one", () => {
  test.each(Object.keys(ROUTES))("%s: each crafted cursor → 400, field `cursor`, nothing changed", async (route) => {
    for (const cursor of [...CRAFTED, ...ROUTES[route]!.crafted]) {
      const before = await stateSnapshot();
      const response = await ROUTES[route]!.send(cursor);
      runs.crafted += 1;
      expect({ cursor, status: response.status }).toEqual({ cursor, status: 400 });
      expectError(response, 400, "invalid_request");
      expect(response.json.result.fields, JSON.stringify(cursor)).toEqual([expect.objectContaining({ path: "cursor" })]);
      expect(await stateSnapshot()).toEqual(before);
    }
  });

  test.each(Object.keys(ROUTES))("%s: any string as the cursor is a 200 or a 400, never a 5xx", async (route) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 30 }).filter((cursor) => cursor.isWellFormed()),
          fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 22n }), fc.stringMatching(/^[A-Za-z0-9._-]{0,8}$/)).map(([at, id]) => `${at}_${id}`),
          fc.bigInt({ min: -(10n ** 12n), max: 10n ** 22n }).map(String),
        ),
        async (cursor) => {
          const response = await ROUTES[route]!.send(cursor);
          runs.arbitrary += 1;
          expect([200, 400], `${JSON.stringify(cursor)} → ${response.status}`).toContain(response.status);
          if (response.status === 400) expect(response.json.result.fields).toEqual([expect.objectContaining({ path: "cursor" })]);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("the cursors the service hands out keep working", () => {
  test("the inbox list pages through every conversation once, newest first, with next_cursor", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query: string = `site=${siteId}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const response = await api.get(`/api/v1/inbox/conversations?${query}`, as(staff));
      expect(response.status).toBe(200);
      seen.push(...response.json.result.items.map((item: { id: string }) => item.id));
      cursor = response.json.result.next_cursor;
      if (cursor === null) break;
      expect(cursor).toMatch(/^\d{1,16}_[A-Za-z0-9._-]{1,100}$/);
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  test("the oldest and the latest times a cursor can name are answered, not refused", async () => {
    for (const cursor of ["0_a", "253402300799999_zzz"]) {
      const response = await api.get(`/api/v1/inbox/conversations?site=${siteId}&cursor=${cursor}`, as(staff));
      expect(response.status, cursor).toBe(200);
    }
    const latest = await api.get(`/api/v1/inbox/conversations?site=${siteId}&cursor=253402300799999_zzz`, as(staff));
    expect(latest.json.result.items).toHaveLength(5);
    expect((await api.get(`/api/v1/chat/visitor/messages?cursor=2147483647`, visitor(started))).status).toBe(200);
  });

  test("a site without conversations pages to nothing", async () => {
    const empty = await createSite();
    const response = await api.get(`/api/v1/inbox/conversations?site=${empty.id}&cursor=1_x`, as(staff));
    expect(response.status).toBe(200);
    expect(response.json.result).toMatchObject({ items: [], next_cursor: null });
  });
});
