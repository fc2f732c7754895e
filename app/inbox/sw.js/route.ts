// The inbox's service worker (registered by _components/push-toggle.tsx, scope /inbox): shows each
// Web Push as a notification and opens, or focuses, the inbox page it names. Same-origin pages only.
const WORKER = `
self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(data.title || "Parley", { body: data.body || "", tag: data.tag, data: { url: data.url } }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/inbox", self.location.origin);
  const url = target.origin === self.location.origin && target.pathname.startsWith("/inbox") ? target.href : self.location.origin + "/inbox";
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = tabs.find((client) => new URL(client.url).pathname.startsWith("/inbox"));
    if (!tab) return self.clients.openWindow(url);
    await tab.focus();
    return tab.navigate(url);
  })());
});
`;

export function GET() {
  return new Response(WORKER, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
      // The script lives at /inbox/sw.js; its scope is the whole inbox, /inbox included.
      "Service-Worker-Allowed": "/inbox",
    },
  });
}
