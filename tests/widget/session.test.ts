// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { apiAnswer, testBoot } from "./boot";

// The session: one object holding the stored conversation, with typed events for what changes.
// A fresh module per test (the session is the page's one).

const KEY = "parley:site_1";
const load = async () => (await import("../../widget/src/shared/session")).session;

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe("the stored state", () => {
  test("a token that expired while the page was away is forgotten at start", async () => {
    localStorage.setItem(KEY, JSON.stringify({ t: "vt_old", x: Date.now() - 1000, c: "c1" }));
    const session = await load();
    session.start(testBoot());
    expect(session.state).toEqual({});
    expect(localStorage.getItem(KEY)).toBe("{}");
  });

  test("it keeps its one-letter keys in storage, which the loader reads to resume", async () => {
    const session = await load();
    session.start(testBoot());
    session.replace({ t: "vt_1", x: Date.now() + 1e6, c: "c1", s: 0 });
    expect(JSON.parse(localStorage.getItem(KEY)!)).toMatchObject({ t: "vt_1", c: "c1", s: 0 });
  });

  test("its object stays the same through replace and forget, so a module may hold it", async () => {
    const session = await load();
    session.start(testBoot());
    const held = session.state;
    session.replace({ t: "vt_1", c: "c1" });
    expect(held.c).toBe("c1");
    session.forget();
    expect(held).toEqual({});
    expect(session.state).toBe(held);
  });
});

describe("another tab's storage", () => {
  test("a different conversation switches to it; the same one takes its token and seen sequence", async () => {
    const session = await load();
    session.start(testBoot());
    session.replace({ t: "vt_1", x: 1, c: "c1", s: 3 });
    const heard: string[] = [];
    session.on("switched", () => heard.push("switched"));
    session.on("changed", () => heard.push("changed"));
    session.adopt({ t: "vt_2", x: 2, c: "c1", s: 5, e: 1 });
    expect(session.state).toMatchObject({ t: "vt_2", x: 2, s: 5, e: 1 });
    session.adopt({ t: "vt_3", c: "c2" });
    expect(session.state).toEqual({ t: "vt_3", c: "c2" });
    expect(heard).toEqual(["changed", "switched"]);
  });

  test("a conversation ended in another tab is forgotten here with a line saying so", async () => {
    const session = await load();
    session.start(testBoot());
    session.replace({ t: "vt_1", c: "c1" });
    const notes: unknown[] = [];
    session.on("forgotten", (note) => notes.push(note));
    session.adopt({});
    expect(notes).toEqual(["sessionEnded"]);
    expect(session.state).toEqual({});
  });
});

describe("a visitor-route call", () => {
  test("carries the token, and a 429 holds polling for its Retry-After", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => apiAnswer(429, { code: "rate_limited" }, { "Retry-After": "7" }));
    vi.stubGlobal("fetch", fetch);
    const session = await load();
    session.start(testBoot());
    session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1" });
    const before = Date.now();
    const answer = await session.call("GET", "/api/v1/chat/visitor/messages");
    expect(answer).toMatchObject({ ok: false, status: 429, code: "rate_limited", retryAfter: 7 });
    expect(fetch.mock.calls[0]![0]).toBe("https://chat.example/api/v1/chat/visitor/messages");
    expect(fetch.mock.calls[0]![1].headers).toMatchObject({ Authorization: "Bearer vt_1" });
    expect(session.holdUntil).toBeGreaterThanOrEqual(before + 7000);
  });

  test("a refused token forgets the conversation and says which one was refused", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => apiAnswer(401, { code: "unauthorized" })));
    const session = await load();
    session.start(testBoot());
    session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1" });
    const refused: string[] = [];
    const notes: unknown[] = [];
    session.on("refused", (id) => refused.push(id));
    session.on("forgotten", (note) => notes.push(note));
    const answer = await session.call("GET", "/api/v1/chat/visitor/messages");
    expect(answer.status).toBe(401);
    expect(refused).toEqual(["c1"]);
    expect(notes).toEqual(["sessionEnded"]);
    expect(session.state).toEqual({});
  });

  test("without a token nothing is sent", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const session = await load();
    session.start(testBoot());
    expect((await session.call("GET", "/api/v1/chat/visitor/messages")).status).toBe(0);
    expect(fetch).not.toHaveBeenCalled();
  });
});
