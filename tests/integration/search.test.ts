import { beforeAll, describe, expect, test } from "vitest";
import { MAX_SNIPPET_LENGTH, searchQuery } from "../../lib/contracts/search";
import { search as searchService, type SearchWindows } from "../../lib/search/search";
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
    expect(page.items).toMatchObject([{ type: "conversation", id: cafe.conversationId, message_id: note.id, snippet: "Customer is running late on the <<payment>>" }]);
  });

  test("visitor names and emails", async () => {
    expect((await search({ q: "quinn" })).items).toMatchObject([{ id: cafe.conversationId, message_id: null, snippet: "Zoë <<Quinn>> zoe@quinn.example" }]);
    expect((await search({ q: "zoë" })).items).toMatchObject([{ id: cafe.conversationId, snippet: "<<Zoë>> Quinn <<zoe@quinn.example>>" }]);
    expect(ids(await search({ q: "bob@marsh.example" }))).toEqual([parcel.conversationId]);
  });

  test("tickets: #number, subject, body, a staff reply and a file name; the title is #number and subject", async () => {
    const expected = { type: "ticket", id: ticketId, site_id: siteA, title: `#${ticketNumber} Broken lamp shade`, message_id: null };
    for (const q of [`#${ticketNumber}`, "shade", "cracked", "replacement", "march", "invoice-march.pdf"]) {
      expect((await search({ q })).items, q).toEqual([expect.objectContaining(expected)]);
    }
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
    ];
    for (const query of queries) {
      const whole = await searchService(searchQuery.parse(query), WHOLE);
      expect(whole.items.length, JSON.stringify(query)).toBeGreaterThan(0);
      for (const size of [1, 2, 3, 1000]) {
        for (const windows of [{ scan: [size], indexed: [] }, { scan: [], indexed: [size] }, { scan: [1], indexed: [size] }]) {
          expect(await searchService(searchQuery.parse(query), windows), `${JSON.stringify(query)} windows ${JSON.stringify(windows)}`).toEqual(whole);
        }
      }
    }
  });
});

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
        expect.objectContaining({ type: "conversation", id: chat.conversationId, message_id: message.id, snippet: expect.stringMatching(/quarterly.statement.2026\.xlsx/) }),
      ]);
    }
    expect((await search({ q: "gizmo" })).items).toEqual([]);
    // The same through the whole index (no recent window).
    const parsed = searchQuery.parse({ q: "quarterly" });
    expect((await searchService(parsed, WHOLE)).items.map((item) => [item.id, item.message_id])).toEqual([[chat.conversationId, message.id]]);
  });
});
