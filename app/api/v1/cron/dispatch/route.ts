import { cronRoute, defineRoute } from "@/lib/api/route";
import { ok } from "@/lib/http/envelope";
import { drainDeliveries } from "@/lib/notifications/round";

// Vercel Cron calls this every minute (vercel.json): it delivers what the rounds after requests
// left (retries falling due, follow-ups, work of a function that ended mid-round).
// Rounds start while DRAIN_BUDGET_MS lasts; the last may take a webhook timeout (10 s) more.
const DRAIN_BUDGET_MS = 40_000;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("cron", {
  GET: cronRoute(async () => ok(await drainDeliveries(DRAIN_BUDGET_MS), "Delivered what was due.")),
});

// A literal: Next.js reads route segment config statically.
export const maxDuration = 60;
