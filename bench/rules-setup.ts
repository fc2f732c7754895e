import http from "node:http";
import type { SqlExecutor } from "../lib/db/client";
import { send } from "./load";
import { sessionCookie } from "./search-http";
import { BENCH_SITE, onPostgres } from "./seed";

// What `npm run bench -- --rules 50 --sla` installs before its second send scenario (issue 44,
// issue 43 item 5): `count` enabled rules and one SLA policy, written as an owner would, through
// /api/v1/inbox/rules and /api/v1/inbox/sla-policies (so each is checked as a save is). The rules
// are what a shop writes: keyword triage on visitors' messages, routing by page, notes on order
// numbers, locale and service-hours checks; most of them do not match the bench's message ("Is this
// in stock?"), a few do (as in life: every message is checked against all of them), and one
// matches only the latency probe's message (REFUND_PROBE), so its label marks when it acted.

/** The body the latency probe sends; only the "refund probe" rule matches it. */
export const REFUND_PROBE = "I would like a refund please, order 4711";
export const PROBE_LABEL_NAME = "Refund probe";

const KEYWORDS = ["invoice", "password", "broken", "cancel", "discount", "wholesale", "warranty", "delivery", "courier", "voucher", "gift card", "size chart", "colour", "exchange", "damaged", "missing", "tracking", "customs", "subscription", "login"];
const PAGES = ["/pricing", "/checkout", "/cart", "/account", "/returns", "/shipping", "/contact", "/blog", "/careers", "/help"];
const LOCALES = [["de", "at", "ch"], ["fr", "be"], ["es", "mx"], ["it"], ["nl"]];

interface Setup {
  port: number;
  url: string;
}

export async function installRules({ port, url }: Setup, count: number, sla: boolean): Promise<{ rules: number; slaPolicy: boolean }> {
  const cookie = await onPostgres(url, async (client) => {
    await client.query(`INSERT INTO members (id, name, email, role) VALUES ('bench-owner', 'Bench Owner', 'owner@bench.example', 'owner') ON CONFLICT (id) DO NOTHING`);
    const executor = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) } as unknown as SqlExecutor;
    return sessionCookie(executor, "bench-owner");
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = async (path: string, body: unknown) => {
    const answer = await send(port, { method: "POST", path, headers: { Cookie: cookie, Origin: `http://localhost:${port}`, "Content-Type": "application/json" }, body: JSON.stringify(body) }, agent);
    if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return JSON.parse(answer.body).result as { id: string };
  };
  try {
    const label = async (name: string, color = "#3366cc") => (await post("/api/v1/inbox/labels", { name, color })).id;
    const keywordLabels = await Promise.all(KEYWORDS.slice(0, 5).map((word) => label(`About ${word}`)));
    const stock = await label("Stock question");
    const probe = await label(PROBE_LABEL_NAME, "#cc3333");
    const breached = await label("SLA breached");
    const sales = (await post("/api/v1/inbox/teams", { name: "Sales" })).id;
    const support = (await post("/api/v1/inbox/teams", { name: "Support" })).id;
    const onSite = { field: "site", op: "eq", value: BENCH_SITE };
    const rules: unknown[] = [
      // The probe's rule first: the latency measured is the rules' machinery, not its place in the list.
      { name: "Refund probe", event: "message.created", conditions: [onSite, { field: "message.body", op: "contains", value: "refund please" }], actions: [{ type: "add_label", label_id: probe }] },
      // Matching the bench's message: a label (the first time) and the team (a no-op after that).
      { name: "Stock questions", event: "message.created", conditions: [onSite, { field: "message.body", op: "contains", value: "stock" }], actions: [{ type: "add_label", label_id: stock }] },
      { name: "Stock to sales", event: "message.created", conditions: [{ field: "message.body", op: "glob", value: "*in stock*" }, { field: "status", op: "eq", value: "open" }], actions: [{ type: "assign_team", team_id: sales }] },
      { name: "Breaches", event: "sla.breached", conditions: [], actions: [{ type: "add_label", label_id: breached }] },
      ...KEYWORDS.map((word, i) => ({
        name: `Keyword ${word}`,
        event: "message.created",
        conditions: [onSite, { field: "message.body", op: "contains", value: word }, ...(i % 3 === 0 ? [{ field: "label", op: "not_set" }] : [])],
        actions: [{ type: "add_label", label_id: keywordLabels[i % keywordLabels.length]! }, ...(i % 4 === 0 ? [{ type: "assign_team", team_id: support }] : [])],
      })),
      ...PAGES.map((page, i) => ({
        name: `Page ${page}`,
        event: i % 2 ? "conversation.created" : "message.created",
        conditions: [{ field: "page_url", op: "starts_with", value: page }, { field: "team", op: "not_set" }],
        actions: [{ type: "assign_team", team_id: i % 2 ? sales : support }],
      })),
      ...Array.from({ length: 6 }, (_, i) => ({
        name: `Order number ${i}`,
        event: "message.created",
        conditions: [{ field: "message.body", op: "glob", value: `*order #${i}*` }, { field: "within_hours", op: "eq", value: true }],
        actions: [{ type: "add_note", body: `Order question (pattern ${i}): look the order up before replying.` }],
      })),
      ...LOCALES.map((locales, i) => ({
        name: `Locale ${locales.join("/")}`,
        event: i % 2 ? "conversation.created" : "message.created",
        conditions: [{ field: "locale", op: "in", value: locales }, { field: "visitor.email", op: "set" }],
        actions: [{ type: "assign_team", team_id: support }],
      })),
      ...["conversation.closed", "conversation.reopened"].map((event) => ({
        name: `On ${event}`,
        event,
        conditions: [{ field: "message.body", op: "contains", value: "complaint" }],
        actions: [{ type: "add_label", label_id: keywordLabels[0]! }],
      })),
    ];
    for (let i = rules.length; i < count; i++) {
      rules.push({ name: `Spare ${i}`, event: "message.created", conditions: [{ field: "message.body", op: "starts_with", value: `urgent ${i}` }], actions: [{ type: "add_label", label_id: keywordLabels[i % 5]! }] });
    }
    for (const rule of rules.slice(0, count)) await post("/api/v1/inbox/rules", { enabled: true, ...(rule as object) });
    if (sla) {
      await post("/api/v1/inbox/sla-policies", { name: "Standard", first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 1440, business_hours: false });
    }
    return { rules: Math.min(count, rules.length), slaPolicy: sla };
  } finally {
    agent.destroy();
  }
}
