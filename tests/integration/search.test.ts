import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { db, sqlExecutor } from "../../lib/db/client";
import { visitorLook } from "../../lib/visitors/generated-name";
import { MAX_SNIPPET_LENGTH, searchQuery } from "../../lib/contracts/search";
import { search as searchService, widerScan, type SearchWindows } from "../../lib/search/search";
import { INDEXED_WINDOW_PAGE, SCAN_RANGE_PAGE, SCAN_WINDOW_PAGE } from "../../lib/search/statements";
import { OPERATOR } from "../../lib/teams/access";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, staffReply, startConversation, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { file, fileTicket, listTickets, ticket } from "../support/tickets";

// Search (decisions.md, round 3, "Search"; docs/search.md). This file runs on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL: every expectation is exact, so both give the same results.

interface Item {
  type: "conversation" | "ticket";
  id: string;
  site_id: string;
  title: string;
  snippet: string;
  matched_at: string;
  matched_in: "message" | "note" | "visitor" | "ticket" | "file";
  message_id: string | null;
}
interface Page {
  items: Item[];
  next_cursor: string | null;
  has_more: boolean;
}

let owner: Staff;
let siteA: string;
let siteB: string;
let cafe: Started;
let parcel: Started;
let jam: Started;
let note: { id: string };
let ticketId: string;
let ticketNumber: number;
const paged: string[] = [];

// Each write a few milliseconds after the last, so "newest first" has one answer.
const later = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  siteA = (await createSite()).id;
  siteB = (await createSite()).id;
  cafe = await startConversation(siteA, { body: "I ordered at the CAFÉ yesterday", client_id: "v1", name: "Zoë Quinn", email: "zoe@quinn.example" });
  await later();
  note = await staffReply(cafe.conversationId, owner.id, "Customer is running late on the payment", "note");
  await later();
  parcel = await startConversation(siteA, { body: "My parcel runs late, sadly", client_id: "v1", name: "Bob Marsh", email: "bob@marsh.example" });
  await later();
  jam = await startConversation(siteB, { body: "Is your strawberry jam vegan? <<not a marker>>", client_id: "v1" });
  await later();
  await fileTicket(siteA, ticket({ subject: "Broken lamp shade", body: "The lamp arrived cracked.", files: [file({ name: "invoice-march.pdf", content_type: "application/pdf" })] }));
  const [filed] = await listTickets(siteA);
  ticketId = filed!.id;
  ticketNumber = filed!.number;
  await later();
  const reply = await api.post(`/api/v1/admin/tickets/${ticketId}/replies`, { admin: true, body: { author_id: owner.id, body: "We shipped a replacement today." } });
  expect(reply.status).toBe(201);
  for (let i = 0; i < 5; i++) {
    await later();
    paged.push((await startConversation(siteB, { body: `Pagination check number ${i}`, client_id: "v1" })).conversationId);
  }
});

/** Searches through the inbox and the operator API, which must agree; the inbox's page. */
async function search(query: Record<string, string>): Promise<Page> {
  const qs = new URLSearchParams(query).toString();
  const inbox = await api.get(`/api/v1/inbox/search?${qs}`, as(owner));
  expect(inbox.status, JSON.stringify(inbox.json)).toBe(200);
  const admin = await api.get(`/api/v1/admin/search?${qs}`, { admin: true });
  expect(admin.json.result).toEqual(inbox.json.result);
  return inbox.json.result as Page;
}
const ids = (page: Page) => page.items.map((item) => item.id);

describe("what search finds", () => {
  test("accents and case do not matter; the snippet shows the original text with the match marked", async () => {
    for (const q of ["cafe", "Café", "CAFE"]) {
      const page = await search({ q });
      expect(page.items).toEqual([
        {
          type: "conversation",
          id: cafe.conversationId,
          site_id: siteA,
          title: "Zoë Quinn",
          snippet: "I ordered at the <<CAFÉ>> yesterday",
          matched_at: expect.any(String),
          matched_in: "message",
          message_id: expect.any(String),
        },
      ]);
      expect(page).toMatchObject({ next_cursor: null, has_more: false });
    }
  });

  test("English stemming: running finds runs; newest match first", async () => {
    const page = await search({ q: "running" });
    expect(ids(page)).toEqual([parcel.conversationId, cafe.conversationId]);
    expect(page.items.map((item) => item.snippet)).toEqual(["My parcel <<runs>> late, sadly", "Customer is <<running>> late on the payment"]);
    const [first, second] = page.items;
    expect(Date.parse(first!.matched_at)).toBeGreaterThan(Date.parse(second!.matched_at));
  });

  test("the last word is matched as a prefix, the others whole", async () => {
    expect(ids(await search({ q: "straw" }))).toEqual([jam.conversationId]);
    expect(ids(await search({ q: "jam straw" }))).toEqual([jam.conversationId]);
    expect(ids(await search({ q: "straw jam" }))).toEqual([]);
  });

  test("notes are searched (staff search) and the item names the matching message", async () => {
    const page = await search({ q: "payment" });
    expect(page.items).toMatchObject([
      { type: "conversation", id: cafe.conversationId, message_id: note.id, matched_in: "note", snippet: "Customer is running late on the <<payment>>" },
    ]);
  });

  test("a newer matching note never hides the visitor's own matching message; alone, it is marked as a note", async () => {
    const kettle = await startConversation(siteA, { body: "The kettle whistles all night", client_id: "v1" });
    await later();
    const kettleNote = await staffReply(kettle.conversationId, owner.id, "Kettle whistle is a known fault", "note");
    const [item] = (await search({ q: "kettle" })).items;
    expect(item).toMatchObject({ id: kettle.conversationId, matched_in: "message", snippet: "The <<kettle>> whistles all night" });
    expect(item!.message_id).not.toBe(kettleNote.id);
    expect((await search({ q: "fault" })).items).toMatchObject([{ id: kettle.conversationId, matched_in: "note", message_id: kettleNote.id }]);
  });

  test("an anonymous visitor is found by the name the inbox shows, which is the item's title", async () => {
    const willow = await startConversation(siteB, { body: "Hello from nobody in particular", client_id: "v1", visitor_id: randomUUID() });
    const row = await (await db()).conversation.findUniqueOrThrow({ where: { id: willow.conversationId } });
    const shown = visitorLook(null, row.browserVisitorId ?? row.visitorId).display_name;
    const listed = await api.get(`/api/v1/inbox/conversations/${willow.conversationId}`, as(owner));
    expect(JSON.stringify(listed.json.result)).toContain(shown);
    const page = await search({ q: shown, limit: "50" });
    expect(page.items).toContainEqual(expect.objectContaining({ id: willow.conversationId, title: shown, matched_in: "visitor", message_id: null }));
    // The given name wins over the generated one, as in the inbox.
    expect((await search({ q: "quinn" })).items[0]!.title).toBe("Zoë Quinn");
  });

  test("the generated name in SQL is the inbox's, for any seed", async () => {
    const seeds = [...Array.from({ length: 200 }, () => randomUUID()), "a", "ünïcode-séed", "x".repeat(300)];
    const { rows } = await (await sqlExecutor()).executeSql("SELECT s AS seed, parley_generated_name(s) AS name FROM unnest($1::text[]) AS s", [seeds]);
    expect(rows.map((r: { seed: string; name: string }) => [r.seed, r.name])).toEqual(seeds.map((seed) => [seed, visitorLook(null, seed).display_name]));
  });

  test("visitor names and emails", async () => {
    expect((await search({ q: "quinn" })).items).toMatchObject([{ id: cafe.conversationId, message_id: null, matched_in: "visitor", snippet: "Zoë <<Quinn>> zoe@quinn.example" }]);
    expect((await search({ q: "zoë" })).items).toMatchObject([{ id: cafe.conversationId, snippet: "<<Zoë>> Quinn <<zoe@quinn.example>>" }]);
    expect(ids(await search({ q: "bob@marsh.example" }))).toEqual([parcel.conversationId]);
  });

  test("tickets: #number, subject, body, a staff reply and a file name; the title is #number and subject", async () => {
    const expected = { type: "ticket", id: ticketId, site_id: siteA, title: `#${ticketNumber} Broken lamp shade`, message_id: null };
    for (const q of [`#${ticketNumber}`, "shade", "cracked", "replacement", "march", "invoice-march.pdf"]) {
      expect((await search({ q })).items, q).toEqual([expect.objectContaining(expected)]);
    }
    expect((await search({ q: "replacement" })).items[0]!.matched_in).toBe("ticket");
    expect((await search({ q: "march" })).items[0]!.matched_in).toBe("file");
    expect((await search({ q: "replacement" })).items[0]!.snippet).toBe("We shipped a <<replacement>> today.");
    expect((await search({ q: "shade" })).items[0]!.snippet).toContain("Broken lamp <<shade>>");
    // "#1" is the ticket, not every text with a 1 in it (the pagination messages have one).
    expect((await search({ q: "1" })).items.length).toBeGreaterThan(0);
  });

  test("a text's own << >> never looks like a marker", async () => {
    expect((await search({ q: "vegan" })).items[0]!.snippet).toBe("Is your strawberry jam <<vegan>>? ‹‹not a marker››");
  });

  test("a long message gives at most 240 characters around the match", async () => {
    const long = `${"filler words here ".repeat(30)}the needle sits here ${"and more words after ".repeat(30)}`;
    await staffReply(jam.conversationId, owner.id, long);
    const [item] = (await search({ q: "needle" })).items;
    expect(item!.snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
    expect(item!.snippet).toContain("<<needle>>");
  });

  test("only stop words or operators: nothing, never an error", async () => {
    for (const q of ["the", "!!", "a & | ! ( ) :* <->", "'\\"]) expect(ids(await search({ q })), q).toEqual([]);
  });
});

describe("filters and pages", () => {
  test("site: only that site's matches; an unknown site gives nothing", async () => {
    expect(ids(await search({ q: "late", site: siteA }))).toEqual([parcel.conversationId, cafe.conversationId]);
    expect(ids(await search({ q: "late", site: siteB }))).toEqual([]);
    expect(ids(await search({ q: "late", site: "no-such-site" }))).toEqual([]);
  });

  test("status: conversations in that status, tickets left out", async () => {
    expect((await api.post(`/api/v1/admin/conversations/${parcel.conversationId}/close`, { admin: true })).status).toBe(200);
    expect(ids(await search({ q: "late", status: "closed" }))).toEqual([parcel.conversationId]);
    expect(ids(await search({ q: "late", status: "open" }))).toEqual([cafe.conversationId]);
    expect(ids(await search({ q: "shade", status: "open" }))).toEqual([]);
    expect(ids(await search({ q: "shade", status: "all" }))).toEqual([ticketId]);
  });

  test("label: conversations that carry it; an unknown label gives nothing", async () => {
    const label = await api.post("/api/v1/inbox/labels", as(owner, { body: { name: "VIP", color: "#aa0000" } }));
    const labelId = label.json.result.id as string;
    const applied = await api.put(`/api/v1/inbox/conversations/${cafe.conversationId}/labels`, as(owner, { body: { labels: [labelId] } }));
    expect(applied.status).toBe(200);
    expect(ids(await search({ q: "late", label: labelId }))).toEqual([cafe.conversationId]);
    expect(ids(await search({ q: "shade", label: labelId }))).toEqual([]);
    expect(ids(await search({ q: "late", label: "no-such-label" }))).toEqual([]);
  });

  test("pages follow next_cursor, newest first, each item once", async () => {
    const whole = await search({ q: "pagination", limit: "50" });
    expect(ids(whole)).toEqual([...paged].reverse());
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const page: Page = await search({ q: "pagination", limit: "2", ...(cursor ? { cursor } : {}) });
      seen.push(...ids(page));
      sizes.push(page.items.length);
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(ids(whole));
  });
});

const WHOLE: SearchWindows = { scan: [], indexed: [] };

describe("the first page's look at the newest conversations", () => {
  test("gives the same pages as the whole index, however few conversations it looks at", async () => {
    // The newest activity is now the café conversation's, whose "late" match is old: inside a
    // small window sit older matches, outside it newer ones. Its visitor's name (Zoë Quinn) is
    // matched at that newest activity; its first message ("CAFÉ") is the better, older match, so
    // a window with newer "quokka" matches beside it must not take the name for its best match.
    for (let i = 0; i < 3; i++) {
      await startConversation(siteB, { body: `A quokka jar, number ${i}`, client_id: "v1" });
      await later();
    }
    await staffReply(cafe.conversationId, owner.id, "Any news?");
    const queries = [
      { q: "pagination", limit: "2" },
      { q: "pagination", limit: "4" },
      { q: "late", limit: "1" },
      { q: "late or pagination or shade", limit: "1" },
      { q: "vegan or late or shade", limit: "2" },
      { q: "check", limit: "3", site: siteB },
      { q: "quinn or quokka or cafe", limit: "2" },
      { q: "quinn or quokka or cafe", limit: "4" },
      // The café's note ("payment") is newer than its visitor's message ("CAFÉ"), the better match.
      { q: "cafe or payment", limit: "1" },
      { q: "cafe or payment or quokka", limit: "2" },
    ];
    for (const query of queries) {
      const whole = await searchService(OPERATOR, searchQuery.parse(query), WHOLE);
      expect(whole.items.length, JSON.stringify(query)).toBeGreaterThan(0);
      for (const size of [1, 2, 3, 1000]) {
        for (const windows of [{ scan: [size], indexed: [] }, { scan: [], indexed: [size] }, { scan: [1], indexed: [size] }]) {
          expect(await searchService(OPERATOR, searchQuery.parse(query), windows), `${JSON.stringify(query)} windows ${JSON.stringify(windows)}`).toEqual(whole);
        }
      }
    }
  });

  test("words that part fill the first page's scanned window get a wider scan, not the indexes; rare ones go to the indexes", async () => {
    // One conversation in four says "narwhal": the newest 4 hold one, the newest 32 eight.
    const site = (await createSite()).id;
    for (let i = 0; i < 24; i++) {
      await startConversation(site, { body: i % 4 === 0 ? `A narwhal question, number ${i}` : `Something else, number ${i}`, client_id: "v1" });
      await later();
    }
    const windows = { scan: [4], indexed: [10_000] };
    const common = searchQuery.parse({ q: "narwhal", limit: "3", site });
    const { result, statements } = await statementsRun(() => searchService(OPERATOR, common, windows));
    expect(result).toEqual(await searchService(OPERATOR, common, WHOLE));
    expect(result.items).toHaveLength(3);
    expect(statements).toEqual([SCAN_WINDOW_PAGE, SCAN_WINDOW_PAGE]);
    // A later page's range is not widened (what a range below the cursor found says little about a wider one).
    const next = searchQuery.parse({ q: "narwhal", limit: "3", site, cursor: result.next_cursor });
    const second = await statementsRun(() => searchService(OPERATOR, next, windows));
    expect(second.result).toEqual(await searchService(OPERATOR, next, WHOLE));
    expect(second.statements.filter((text) => text === SCAN_RANGE_PAGE)).toHaveLength(1);
    // Nothing in the scanned window: straight to the indexes.
    const rare = searchQuery.parse({ q: "number 0", limit: "3", site });
    expect((await statementsRun(() => searchService(OPERATOR, rare, windows))).statements).toEqual([SCAN_WINDOW_PAGE, INDEXED_WINDOW_PAGE]);
  });

  test("widerScan: twice what the share found suggests, at most WIDEST_SCAN; none when nothing was found", () => {
    expect(widerScan(100, 10, 20)).toBe(420);
    expect(widerScan(100, 20, 20)).toBe(210);
    expect(widerScan(100, 0, 20)).toBeNull();
    expect(widerScan(100, 4, 20)).toBeNull(); // 1,050 conversations: the indexes
    expect(widerScan(4, 1, 3)).toBe(32);
    expect(widerScan(600, 20, 20)).toBeNull();
  });

  test("later pages look at ranges of time below the cursor and give the whole search's pages, each item once", async () => {
    // Matches on both sides of every range's edges: an item whose newest match was on an earlier
    // page has older matches in later ranges; a note newer than its conversation's older public
    // match; a visitor's name matched at a recent activity while the better match is old.
    for (let i = 0; i < 3; i++) {
      await startConversation(siteB, { body: `Another quokka jar, number ${i}`, client_id: "v1" });
      await later();
    }
    await staffReply(cafe.conversationId, owner.id, "Any news today?");
    // An item with an older match of the same rank in a later range (zebra: P's newest match came
    // first); a note newer than its conversation's public match (yak: N); a visitor's name matched
    // at a recent activity while the message is older (walrus: V). Each between other matches.
    const say = async (body: string, name?: string) => {
      const started = await startConversation(siteA, { body, client_id: "v1", ...(name ? { name } : {}) });
      await later();
      return started.conversationId;
    };
    await say("zebra R");
    const p = await say("zebra P, first");
    const n = await say("yak N, public");
    const v = await say("walrus V", "Walrus Person");
    await say("zebra Q");
    await say("yak M1");
    await say("walrus W1");
    await staffReply(n, owner.id, "yak N, a note", "note");
    await later();
    await staffReply(v, owner.id, "Looking into it");
    await later();
    await say("zebra S");
    await say("yak M2 and walrus W2");
    await staffReply(p, owner.id, "zebra P, again");
    await later();
    await say("yak M3 and walrus W3 and zebra T");
    const queries: Record<string, string>[] = [
      { q: "zebra", limit: "1" },
      { q: "yak", limit: "1" },
      { q: "walrus", limit: "1" },
      { q: "zebra or yak or walrus", limit: "2" },
      { q: "pagination or late or quokka", limit: "1" },
      { q: "pagination or late or quokka or shade or replacement", limit: "2" },
      { q: "cafe or payment or quokka or pagination", limit: "1" },
      { q: "quinn or quokka or cafe or any", limit: "1" },
      { q: "check or news", limit: "1", site: siteB },
      { q: "late or any or check", limit: "2", status: "open" },
    ];
    for (const query of queries) {
      const pages = await allPages(query, WHOLE);
      const items = pages.flatMap((page) => page.items);
      expect(pages.length, JSON.stringify(query)).toBeGreaterThan(2);
      expect(new Set(items.map((item) => `${item.type} ${item.id}`)).size, JSON.stringify(query)).toBe(items.length);
      const whole = await searchService(OPERATOR, searchQuery.parse({ ...query, limit: "50" }), WHOLE);
      expect(whole.has_more).toBe(false);
      expect(items, JSON.stringify(query)).toEqual(whole.items);
      for (const size of [1, 2, 1000]) {
        for (const windows of [{ scan: [size], indexed: [] }, { scan: [], indexed: [size] }, { scan: [1], indexed: [size] }]) {
          expect(await allPages(query, windows), `${JSON.stringify(query)} windows ${JSON.stringify(windows)}`).toEqual(pages);
        }
      }
    }
  }, 180_000);
});

describe("any cursor a client can write", () => {
  test("the latest and the earliest are pages like any other: the same with ranges as with the whole search", async () => {
    for (const cursor of ["253402300799999_zzz", "0_a", `${Date.now()}_-`]) {
      for (const q of ["late or pagination or quokka", "pagination"]) {
        const query = searchQuery.parse({ q, limit: "2", cursor });
        expect(await searchService(OPERATOR, query), `${q} ${cursor}`).toEqual(await searchService(OPERATOR, query, WHOLE));
      }
    }
    expect((await search({ q: "pagination", cursor: "0_a" })).items).toEqual([]);
    expect((await search({ q: "pagination", cursor: "253402300799999_zzz", limit: "50" })).items.length).toBeGreaterThan(0);
  });
});

/** Every page of a search, following next_cursor (the service's, with these windows). */
async function allPages(query: Record<string, string>, windows: SearchWindows): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await searchService(OPERATOR, searchQuery.parse({ ...query, ...(cursor ? { cursor } : {}) }), windows);
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor && pages.length < 100);
  return pages;
}

describe("refusals", () => {
  test("bad q, limit, cursor, status or an unknown parameter → 400 invalid_request naming it", async () => {
    const bad: [string, string][] = [
      ["", "q"],
      ["q=", "q"],
      ["q=%20%20", "q"],
      [`q=${"a".repeat(201)}`, "q"],
      ["q=x&limit=0", "limit"],
      ["q=x&limit=51", "limit"],
      ["q=x&limit=ten", "limit"],
      ["q=x&limit=-1", "limit"],
      ["q=x&cursor=nope", "cursor"],
      ["q=x&cursor=99999999999999999_x", "cursor"],
      ["q=x&status=pending", "status"],
      ["q=x&site=", "site"],
      ["q=x&sort=new", "sort"],
    ];
    for (const [qs, field] of bad) {
      for (const response of [await api.get(`/api/v1/inbox/search?${qs}`, as(owner)), await api.get(`/api/v1/admin/search?${qs}`, { admin: true })]) {
        expectError(response, 400, "invalid_request");
        expect(response.json.result.fields.map((entry: { path: string }) => entry.path), qs).toContain(field);
      }
    }
    expect((await search({ q: "x".repeat(200) })).items).toEqual([]);
  });

  test("no session, or no operator token → 401; a session is not an operator token, nor the other way", async () => {
    expectError(await api.get("/api/v1/inbox/search?q=late", as(null)), 401, "unauthorized");
    expectError(await api.get("/api/v1/admin/search?q=late"), 401, "unauthorized");
    expectError(await api.get("/api/v1/admin/search?q=late", as(owner)), 401, "unauthorized");
    expectError(await api.get("/api/v1/inbox/search?q=late", { admin: true }), 401, "unauthorized");
  });

  test("a deactivated member's session → 401", async () => {
    const agent = await createStaff("agent", "Andy Agent");
    expect((await api.get("/api/v1/inbox/search?q=late", as(agent))).status).toBe(200);
    const off = await api.post(`/api/v1/inbox/members/${agent.id}/deactivate`, as(owner));
    expect(off.status, JSON.stringify(off.json)).toBe(200);
    expectError(await api.get("/api/v1/inbox/search?q=late", as(agent)), 401, "unauthorized");
  });
});

describe("files sent in a chat", () => {
  test("are found by name (whole, or a part split at - _ .), as their message: the thread opens at it, the snippet is the name", async () => {
    const chat = await startConversation(siteB, { body: "Here is what I was billed", client_id: "v1" });
    const message = await staffReply(chat.conversationId, owner.id, "Thanks, looking at it");
    const prisma = await (await import("../../lib/db/client")).db();
    await prisma.messageAttachment.create({
      data: {
        id: "file-quarterly",
        conversationId: chat.conversationId,
        messageId: message.id,
        uploaderType: "staff",
        name: "quarterly_statement-2026.xlsx",
        contentType: "application/pdf",
        bytes: 10,
        storage: "local",
        storageKey: "search-test-quarterly",
      },
    });
    // A file uploaded but never sent belongs to no message: not found.
    await prisma.messageAttachment.create({
      data: { id: "file-unsent", conversationId: chat.conversationId, uploaderType: "visitor", name: "unsent-gizmo.png", contentType: "image/png", bytes: 10, storage: "local", storageKey: "search-test-unsent" },
    });
    for (const q of ["quarterly", "statement", "quarterly_statement-2026.xlsx"]) {
      expect((await search({ q })).items, q).toEqual([
        expect.objectContaining({ type: "conversation", id: chat.conversationId, message_id: message.id, matched_in: "file", snippet: expect.stringMatching(/quarterly.statement.2026\.xlsx/) }),
      ]);
    }
    expect((await search({ q: "gizmo" })).items).toEqual([]);
    // The same through the whole index (no recent window).
    const parsed = searchQuery.parse({ q: "quarterly" });
    expect((await searchService(OPERATOR, parsed, WHOLE)).items.map((item) => [item.id, item.message_id])).toEqual([[chat.conversationId, message.id]]);
  });
});

describe("a later page's work", () => {
  test("is bounded: a later page of a word in every message reads a window's messages, not every match", async () => {
    // 1,000 conversations of 3 messages, each saying "wombat", older than everything else here.
    const site = await createSite();
    const sql = await sqlExecutor();
    await sql.executeSql(
      `INSERT INTO conversations (id, site_id, inbox_id, status, origin, visitor_id, last_sequence, created_at, last_activity_at)
       SELECT 'wc' || s, $1, $2, 'open', 'https://shop.example', 'wv' || s, 3, now() - interval '1 day' - (s || ' minutes')::interval,
              now() - interval '1 day' - (s || ' minutes')::interval + interval '30 seconds'
         FROM generate_series(1, 1000) AS s`,
      [site.id, site.inbox_id],
    );
    // Without the per-message triggers (notifications: nobody listens here), as the bench seeds.
    await sql.transaction(async (tx) => {
      await tx.executeSql("SET LOCAL session_replication_role = replica");
      await tx.executeSql("SET LOCAL statement_timeout = 0");
      await tx.executeSql(
        `INSERT INTO messages (id, conversation_id, sequence, note_number, client_id, author_type, author_id, kind, body, created_at)
         SELECT 'wm' || s || '_' || n, 'wc' || s, n, 0, 'c' || n, 'visitor', 'wv' || s, 'message', 'a wombat, number ' || n,
                now() - interval '1 day' - (s || ' minutes')::interval + (n || ' seconds')::interval
           FROM generate_series(1, 1000) AS s, generate_series(1, 3) AS n`,
      );
    });
    await sql.executeSql("ANALYZE messages");
    await sql.executeSql("ANALYZE conversations");
    const query = { q: "wombat", limit: "20" };
    let cursor: string | null = null;
    for (let page = 1; page < 10; page++) cursor = (await searchService(OPERATOR, searchQuery.parse({ ...query, ...(cursor ? { cursor } : {}) }))).next_cursor;
    const tenth = searchQuery.parse({ ...query, cursor });
    const { result, messagesRead } = await countMessagesRead(() => searchService(OPERATOR, tenth));
    expect(result).toEqual(await searchService(OPERATOR, tenth, WHOLE));
    expect(result.items.map((item) => item.id)).toEqual(Array.from({ length: 20 }, (_, i) => `wc${181 + i}`));
    // The whole search reads every match (3,000); the tenth page, about its window's (SEARCH_WINDOWS.scan: 100 conversations).
    expect((await countMessagesRead(() => searchService(OPERATOR, tenth, WHOLE))).messagesRead).toBeGreaterThanOrEqual(3_000);
    expect(messagesRead).toBeLessThan(600);
  });
});

/** Runs a search and answers the page statements it ran (statements.ts's texts), in order. */
async function statementsRun<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const sql = await sqlExecutor();
  const statements: string[] = [];
  const transaction = sql.transaction.bind(sql);
  const spy = vi.spyOn(sql, "transaction").mockImplementation((inner) =>
    transaction((tx) =>
      inner({
        executeSql: (text, values) => {
          if (/^\s*WITH/.test(text)) statements.push(text);
          return tx.executeSql(text, values);
        },
      }),
    ),
  );
  try {
    return { result: await work(), statements };
  } finally {
    spy.mockRestore();
  }
}

/**
 * Runs a search and counts the rows of `messages` its statements read (EXPLAIN ANALYZE of each
 * statement it ran, with its values: every plan node on that table, its rows times its loops).
 */
async function countMessagesRead<T>(work: () => Promise<T>): Promise<{ result: T; messagesRead: number }> {
  const sql = await sqlExecutor();
  const ran: [string, unknown[]][] = [];
  const transaction = sql.transaction.bind(sql);
  const spy = vi.spyOn(sql, "transaction").mockImplementation((inner) =>
    transaction((tx) =>
      inner({
        executeSql: (text, values) => {
          if (/^\s*WITH/.test(text)) ran.push([text, values ?? []]);
          return tx.executeSql(text, values);
        },
      }),
    ),
  );
  let result: T;
  try {
    result = await work();
  } finally {
    spy.mockRestore();
  }
  let messagesRead = 0;
  for (const [text, values] of ran) {
    const [row] = (await sql.executeSql(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values)).rows;
    const plan = Object.values(row as object)[0];
    messagesRead += rowsOf(typeof plan === "string" ? JSON.parse(plan)[0].Plan : plan[0].Plan);
  }
  return { result, messagesRead };
}

interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  Plans?: PlanNode[];
}
const rowsOf = (node: PlanNode): number =>
  (node["Relation Name"] === "messages" ? node["Actual Rows"] * node["Actual Loops"] : 0) + (node.Plans ?? []).reduce((sum, child) => sum + rowsOf(child), 0);
