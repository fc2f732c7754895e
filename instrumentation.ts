// Next.js calls register() once per server start, before serving requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { closeServerResources, prepareServerStart } = await import("./lib/prepare-service");
  await prepareServerStart();
  // For the front of `npm start` (lib/runtime/README.md), which waits for this before it listens:
  // the hot route files, whose pipelines it calls without Next's per-request work
  // (lib/core/reply-handlers.mjs), and how to close the service at shutdown. Unused where Next
  // serves everything itself.
  const { provideApp } = await import("./lib/core/lifecycle.mjs");
  provideApp({
    hotRoutes: {
      "/api/v1/chat/visitor/messages": await import("./app/api/v1/chat/visitor/messages/route"),
      "/api/v1/chat/visitor/presence": await import("./app/api/v1/chat/visitor/presence/route"),
      "/api/v1/chat/widget/[siteID]/conversations": await import("./app/api/v1/chat/widget/[siteID]/conversations/route"),
      // the widget's article suggestions: a request per pause in a visitor's typing (docs/answers.md)
      "/api/v1/chat/widget/[siteID]/articles": await import("./app/api/v1/chat/widget/[siteID]/articles/route"),
    },
    close: closeServerResources,
  });
}
