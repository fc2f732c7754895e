import { randomBytes } from "node:crypto";
import type { RequestSpec } from "./load";
import { BENCH_ORIGIN, BENCH_SITE, HISTORY_CONVERSATIONS, type Widget } from "./seed";

// The request scenarios of the bench, each a function from (worker, iteration) to the next request.
// Idle polls and sends use disjoint conversations; history reads the long ones seeded for it.

export type Scenario = (worker: number, iteration: number) => RequestSpec;

export function scenarios(widgets: Widget[]): Record<string, Scenario> {
  const visitor = (widget: Widget) => ({ Origin: BENCH_ORIGIN, Authorization: `Bearer ${widget.token}` });
  const idle = widgets.slice(100, 1100);
  const senders = widgets.slice(1100, 2100);
  const history = widgets.slice(0, HISTORY_CONVERSATIONS);
  const pick = <T>(list: T[], worker: number, iteration: number) => list[(worker * 7919 + iteration) % list.length]!;
  return {
    "idle poll": (w, i) => {
      const widget = pick(idle, w, i);
      return { method: "GET", path: `/api/v1/chat/visitor/messages?cursor=${widget.cursor}`, headers: visitor(widget) };
    },
    "presence poll": (w, i) => ({ method: "GET", path: "/api/v1/chat/visitor/presence", headers: visitor(pick(idle, w, i)) }),
    send: (w, i) => ({
      method: "POST",
      path: "/api/v1/chat/visitor/messages",
      headers: { ...visitor(pick(senders, w, i)), "Content-Type": "application/json" },
      body: JSON.stringify({ body: "Is this in stock?", client_id: `bench-${w}-${i}-${randomBytes(4).toString("hex")}` }),
    }),
    start: () => ({
      method: "POST",
      path: `/api/v1/chat/widget/${BENCH_SITE}/conversations`,
      headers: { Origin: BENCH_ORIGIN, "Content-Type": "application/json" },
      body: "{}",
    }),
    history: (w, i) => ({ method: "GET", path: "/api/v1/chat/visitor/messages?cursor=0&limit=50", headers: visitor(pick(history, w, i)) }),
  };
}
