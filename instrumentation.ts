// Next.js calls register() once per server start, before serving requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./lib/prepare-service")).prepareServerStart();
  // The hot routes' handlers as Next built them, for the front of `npm start` (lib/server/front.mjs),
  // which calls them without Next's per-request work. Unused where Next serves everything itself.
  (globalThis as { parleyHotRoutes?: Record<string, unknown> }).parleyHotRoutes = {
    "/api/v1/chat/visitor/messages": await import("./app/api/v1/chat/visitor/messages/route"),
    "/api/v1/chat/visitor/presence": await import("./app/api/v1/chat/visitor/presence/route"),
  };
}
