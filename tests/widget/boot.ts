import { vi } from "vitest";
import { createStore } from "../../widget/src/loader/store";
import type { Boot, SiteConfig } from "../../widget/src/shared/types";

/** The loader's hand-over to the panel, in a happy-dom page: a real store, spies for the page-facing calls. */
export function testBoot(overrides: Partial<Boot> = {}): Boot {
  const host = document.createElement("parley-chat");
  document.body.append(host);
  const root = host.attachShadow({ mode: "open" });
  const frame = document.createElement("div");
  const launcher = document.createElement("button");
  const badge = document.createElement("span");
  root.append(frame);
  frame.append(launcher, badge);
  return {
    site: "site_1",
    api: "https://chat.example",
    route: "https://chat.example/api/v1/chat/widget/site_1",
    root,
    frame,
    launcher,
    badge,
    title: null,
    sound: false,
    store: createStore(true),
    me: {},
    config: () => Promise.resolve(null as SiteConfig | null),
    inject: vi.fn(),
    locale: null,
    quiet: vi.fn(),
    consent: vi.fn(),
    vid: () => "visitor-1",
    off: () => false,
    label: vi.fn(),
    ...overrides,
  };
}

/** An answer of the API as fetch gives it: the envelope, a status, headers. */
export const apiAnswer = (status: number, result: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ success: status < 400, result, message: status < 400 ? "OK." : "Refused." }), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
