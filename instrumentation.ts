// Next.js calls register() once per server start, before serving requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./lib/prepare-service")).prepareServerStart();
  // The hot routes' handlers as Next built them, for the front of `npm start` (lib/server/front.mjs),
  // which calls them without Next's per-request work, and the front's settings (parsed here, by
  // lib/env.ts, like every other). Unused where Next serves everything itself.
  const shared = globalThis as { parleyHotRoutes?: Record<string, unknown>; parleyFrontSettings?: { requestTimeoutMs: number } };
  shared.parleyFrontSettings = { requestTimeoutMs: (await import("./lib/env")).env().REQUEST_TIMEOUT_MS };
  shared.parleyHotRoutes = {
    "/api/v1/chat/visitor/messages": await import("./app/api/v1/chat/visitor/messages/route"),
    "/api/v1/chat/visitor/presence": await import("./app/api/v1/chat/visitor/presence/route"),
    "/api/v1/chat/widget/[siteID]/conversations": await import("./app/api/v1/chat/widget/[siteID]/conversations/route"),
  };
}
