// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { apiAnswer, testBoot } from "./boot";

// An article read inside the panel (widget/src/chunks/answers/article-view.ts, article-html.ts):
// it takes the chat's place, its HTML checked again against the renderer's allowlist; "Back"
// returns with the typed text kept, "Chat with us" sends it; a vote is one POST.

const ARTICLE = {
  id: "a1",
  title: "Shipping times",
  body_html: '<p>Shipping takes <strong>2 to 4</strong> days. <a href="https://shop.example/track">Track it</a></p>',
  url: "https://chat.example/help/site_1/en/shipping-times",
  locale: "en",
  updated_at: "2026-11-01T10:00:00.000Z",
};

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
  document.body.replaceChildren();
});
afterEach(() => vi.unstubAllGlobals());

async function panel(answer: (url: string, init?: RequestInit) => Response = () => apiAnswer(200, ARTICLE)) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => answer(url, init));
  vi.stubGlobal("fetch", fetch);
  const { session } = await import("../../widget/src/shared/session");
  session.start(testBoot());
  const { addStrings } = await import("../../widget/src/shared/strings");
  addStrings("answers", (await import("../../widget/src/strings/answers")).ANSWERS_EN); // as the chunk's entry does
  const view = await import("../../widget/src/chunks/answers/article-view");
  const chat = document.createElement("div");
  const form = document.createElement("form");
  const input = document.createElement("textarea");
  form.append(input);
  chat.append(form);
  document.body.append(chat);
  const elements = { v: chat, c: form, tx: input };
  const sent: string[] = [];
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sent.push(input.value);
  });
  const button = (text: string) => Array.from(document.querySelectorAll<HTMLButtonElement>(".aw button")).find((el) => el.textContent === text)!;
  return { ...view, elements, chat, input, sent, fetch, button, shown: () => document.querySelector<HTMLElement>(".aw") };
}

test("an article opens in place of the chat, its view counted by the read; Back returns with the typed text kept and unsent", async () => {
  const { openArticle, elements, chat, input, sent, fetch, button, shown } = await panel();
  input.value = "how long does shipping take?";
  expect(await openArticle(elements, "a1")).toBe(true);
  expect(fetch.mock.calls[0]![0]).toBe("https://chat.example/api/v1/chat/widget/site_1/articles/a1");
  expect(chat.hidden).toBe(true);
  expect(shown()!.hidden).toBe(false);
  expect(shown()!.querySelector("h2")!.textContent).toBe("Shipping times");
  expect(shown()!.querySelector(".ak strong")!.textContent).toBe("2 to 4");
  const link = shown()!.querySelector<HTMLAnchorElement>(".ak a")!;
  expect(link.getAttribute("href")).toBe("https://shop.example/track");
  expect(link.target).toBe("_blank");
  button("Back").click();
  expect(chat.hidden).toBe(false);
  expect(shown()!.hidden).toBe(true);
  expect(input.value).toBe("how long does shipping take?");
  expect(sent).toEqual([]);
});

test('"Chat with us" goes on to the chat and sends what the visitor typed', async () => {
  const { openArticle, elements, chat, sent, input, button } = await panel();
  input.value = "it has been two weeks";
  await openArticle(elements, "a1");
  button("Chat with us").click();
  expect(chat.hidden).toBe(false);
  expect(sent).toEqual(["it has been two weeks"]);
});

test('with nothing typed, "Chat with us" only returns to the chat', async () => {
  const { openArticle, elements, chat, sent, button } = await panel();
  await openArticle(elements, "a1");
  button("Chat with us").click();
  expect(chat.hidden).toBe(false);
  expect(sent).toEqual([]);
});

test("an article that is not there (unpublished, help center off) leaves the chat as it was", async () => {
  const { openArticle, elements, chat, shown } = await panel(() => apiAnswer(404, { code: "not_found" }));
  expect(await openArticle(elements, "gone")).toBe(false);
  expect(chat.hidden).toBe(false);
  expect(shown()).toBeNull();
});

test("a vote is one POST with this browser's visitor id, then a thank-you in place of the question", async () => {
  const { openArticle, elements, fetch, button } = await panel((url) => (url.endsWith("/feedback") ? apiAnswer(201, null) : apiAnswer(200, ARTICLE)));
  await openArticle(elements, "a1");
  button("No").click();
  await vi.waitFor(() => expect(document.querySelector<HTMLElement>(".fbk[role=status]")!.hidden).toBe(false));
  const [url, init] = fetch.mock.calls[1]!;
  expect(url).toBe("https://chat.example/api/v1/chat/widget/site_1/articles/a1/feedback");
  expect(init!.method).toBe("POST");
  expect(JSON.parse(init!.body as string)).toEqual({ helpful: false, visitor_id: "visitor-1" });
});

test("hostile HTML stays inert even if it reached the widget: no script, handler, javascript: link or http image", async () => {
  const { fillArticle } = await import("../../widget/src/chunks/answers/article-html");
  const target = document.createElement("div");
  fillArticle(
    target,
    '<p onclick="alert(1)">Hi<script>alert(2)</script></p><a href="javascript:alert(3)">bad</a><a href="mailto:help@shop.example">mail</a>' +
      '<img src="http://tracker.example/x.png" alt="pixel"><img src="https://cdn.example/box.png" alt="box" onerror="alert(4)">' +
      '<iframe src="https://evil.example"></iframe><div style="position:fixed">styled</div><svg><a href="javascript:alert(5)">s</a></svg>',
  );
  expect(target.querySelector("script, iframe, svg, div, [onclick], [onerror], [style]")).toBeNull();
  expect(target.textContent).not.toContain("alert(2)");
  const links = Array.from(target.querySelectorAll("a"));
  expect(links.map((a) => a.getAttribute("href"))).toEqual([null, "mailto:help@shop.example"]);
  const images = Array.from(target.querySelectorAll("img"));
  expect(images.map((img) => img.getAttribute("src"))).toEqual(["https://cdn.example/box.png"]);
  expect(images[0]!.getAttribute("referrerpolicy")).toBe("no-referrer");
  expect(target.textContent).toContain("pixel"); // the http image's alt text stays
  expect(target.textContent).toContain("styled");
});
