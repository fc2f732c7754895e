// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { apiAnswer, testBoot } from "./boot";

// Articles as the visitor types a first message (widget/src/chunks/answers/suggestions.ts): one
// request per pause in typing, up to three, the latest text's answer only, nothing once a
// conversation is open, every title and snippet set as text.

const item = (id: string, title: string, snippet = "") => ({ id, title, snippet, url: `https://chat.example/help/site_1/en/${id}`, locale: "en" });

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  localStorage.clear();
  document.body.replaceChildren();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function composer(typedBefore = "") {
  const { session } = await import("../../widget/src/shared/session");
  session.start(testBoot());
  const { addStrings } = await import("../../widget/src/shared/strings");
  addStrings("answers", (await import("../../widget/src/strings/answers")).ANSWERS_EN); // as the chunk's entry does
  const suggestions = await import("../../widget/src/chunks/answers/suggestions");
  const form = document.createElement("form");
  const input = document.createElement("textarea");
  form.append(input);
  document.body.append(form);
  input.value = typedBefore;
  const elements = { c: form, tx: input };
  const opened: string[] = [];
  suggestions.wireSuggestions(elements, (id) => opened.push(id));
  const type = (text: string) => {
    input.value = text;
    input.dispatchEvent(new Event("input"));
  };
  const box = () => document.querySelector<HTMLElement>(".sg");
  const titles = () => Array.from(document.querySelectorAll(".sg li b")).map((el) => el.textContent);
  return { session, suggestions, form, input, type, box, titles, opened };
}

test("a pause in typing asks once for three articles of what was typed; they show over the composer and one opens", async () => {
  const fetch = vi.fn(async (_url: string) => apiAnswer(200, { items: [item("a1", "Shipping times", "How long does <<shipping>> take?"), item("a2", "Returns")] }));
  vi.stubGlobal("fetch", fetch);
  const { type, box, titles, opened } = await composer();
  type("how long");
  await vi.advanceTimersByTimeAsync(100);
  type("how long does shipping take?");
  await vi.advanceTimersByTimeAsync(100);
  expect(fetch).not.toHaveBeenCalled(); // still typing
  await vi.advanceTimersByTimeAsync(300);
  expect(fetch).toHaveBeenCalledTimes(1);
  const url = new URL(fetch.mock.calls[0]![0]);
  expect(url.origin + url.pathname).toBe("https://chat.example/api/v1/chat/widget/site_1/articles");
  expect(url.searchParams.get("q")).toBe("how long does shipping take?");
  expect(url.searchParams.get("limit")).toBe("3");
  expect(box()!.hidden).toBe(false);
  expect(titles()).toEqual(["Shipping times", "Returns"]);
  expect(document.querySelector(".sg mark")!.textContent).toBe("shipping");
  expect(document.querySelector(".sg li span")!.textContent).toBe("How long does shipping take?");
  document.querySelector<HTMLButtonElement>(".sg li button")!.click();
  expect(opened).toEqual(["a1"]);
});

test("titles and snippets are text: markup in them never becomes elements", async () => {
  vi.stubGlobal("fetch", vi.fn(async () => apiAnswer(200, { items: [item("a1", '<img src=x onerror="alert(1)">', "‹script› <<x>> <b>bold</b>")] })));
  const { type, titles } = await composer();
  type("hostile words");
  await vi.advanceTimersByTimeAsync(300);
  expect(titles()).toEqual(['<img src=x onerror="alert(1)">']);
  expect(document.querySelector(".sg img, .sg script, .sg li span b")).toBeNull();
});

test("short text asks nothing, and neither does typing in an open conversation", async () => {
  const fetch = vi.fn(async () => apiAnswer(200, { items: [item("a1", "Shipping times")] }));
  vi.stubGlobal("fetch", fetch);
  const { session, type } = await composer();
  type("hi");
  await vi.advanceTimersByTimeAsync(1000);
  expect(fetch).not.toHaveBeenCalled();
  session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1" });
  type("how long does shipping take?");
  await vi.advanceTimersByTimeAsync(1000);
  expect(fetch).not.toHaveBeenCalled();
  session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1", e: 1 }); // closed: the next message starts a new one
  type("how long does shipping take?");
  await vi.advanceTimersByTimeAsync(1000);
  expect(fetch).toHaveBeenCalledTimes(1);
});

test("an earlier, slower answer never replaces the answer to what is typed now", async () => {
  const answers: Record<string, { delay: number; items: ReturnType<typeof item>[] }> = {
    shipping: { delay: 2000, items: [item("a1", "Shipping times")] },
    returns: { delay: 10, items: [item("a2", "Returns")] },
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const answer = answers[new URL(url).searchParams.get("q")!]!;
      await new Promise((done) => setTimeout(done, answer.delay));
      return apiAnswer(200, { items: answer.items });
    }),
  );
  const { type, titles } = await composer();
  type("shipping");
  await vi.advanceTimersByTimeAsync(300); // asked, slow
  type("returns");
  await vi.advanceTimersByTimeAsync(300); // asked, fast: shown
  expect(titles()).toEqual(["Returns"]);
  await vi.advanceTimersByTimeAsync(3000); // the first answer arrives late
  expect(titles()).toEqual(["Returns"]);
});

test("sending the message, or a conversation starting, puts the suggestions away; no match shows nothing", async () => {
  let items = [item("a1", "Shipping times")];
  vi.stubGlobal("fetch", vi.fn(async () => apiAnswer(200, { items })));
  const { session, form, type, box } = await composer();
  type("shipping");
  await vi.advanceTimersByTimeAsync(300);
  expect(box()!.hidden).toBe(false);
  form.dispatchEvent(new Event("submit"));
  expect(box()!.hidden).toBe(true);
  type("shipping");
  await vi.advanceTimersByTimeAsync(300);
  expect(box()!.hidden).toBe(false);
  session.emit("started");
  expect(box()!.hidden).toBe(true);
  session.replace({});
  items = [];
  type("zeppelin");
  await vi.advanceTimersByTimeAsync(300);
  expect(box()!.hidden).toBe(true);
});

test("a failed call (the help center turned off: 404) shows nothing", async () => {
  vi.stubGlobal("fetch", vi.fn(async () => apiAnswer(404, { code: "not_found" })));
  const { type, box } = await composer();
  type("shipping");
  await vi.advanceTimersByTimeAsync(300);
  expect(box()).toBeNull();
});

test("what the visitor typed while the chunk was loading is looked up once it is there", async () => {
  const fetch = vi.fn(async () => apiAnswer(200, { items: [item("a1", "Shipping times")] }));
  vi.stubGlobal("fetch", fetch);
  const { titles } = await composer("how long does shipping take?");
  await vi.advanceTimersByTimeAsync(300);
  expect(fetch).toHaveBeenCalledTimes(1);
  expect(titles()).toEqual(["Shipping times"]);
});
