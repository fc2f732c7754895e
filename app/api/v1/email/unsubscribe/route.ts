import { unsubscribeConversation } from "@/lib/email/follow-ups";
import { verifyUnsubscribe } from "@/lib/email/links";
import { escapeHtml } from "@/lib/email/templates";
import { defineRoute } from "@/lib/api/route";
import { log } from "@/lib/core/log";

// The one-click unsubscribe of visitor follow-ups (RFC 8058). Not a JSON route: mail clients
// POST a form body ("List-Unsubscribe=One-Click") and people open the link in a browser. GET only
// shows a button (link scanners follow GETs); POST records it.

const page = (status: number, text: string, form?: string) =>
  new Response(
    `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body style="font-family:system-ui,sans-serif">` +
      `<p>${escapeHtml(text)}</p>${form ?? ""}</body></html>`,
    { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
  );

async function signedConversation(request: Request): Promise<string | null> {
  const url = new URL(request.url);
  const conversation = url.searchParams.get("conversation") ?? "";
  const signature = url.searchParams.get("signature") ?? "";
  if (!conversation || conversation.length > 200 || !signature) return null;
  return (await verifyUnsubscribe(conversation, signature)) ? conversation : null;
}

/** A database outage is a 503 page, never a stack trace. */
const guarded =
  (handler: (request: Request) => Promise<Response>) =>
  async (request: Request): Promise<Response> => {
    try {
      return await handler(request);
    } catch (error) {
      log.error("unsubscribe_failed", { error });
      return page(503, "This did not work just now. Please try again in a minute.");
    }
  };

export const GET = guarded(async (request) => {
  if (!(await signedConversation(request))) return page(404, "This unsubscribe link is not valid.");
  const action = escapeHtml(new URL(request.url).search);
  return page(
    200,
    "Stop emails about replies in this conversation?",
    `<form method="post" action="${action}"><button type="submit">Unsubscribe</button></form>`,
  );
});

export const POST = guarded(async (request) => {
  const conversation = await signedConversation(request);
  if (!conversation || !(await unsubscribeConversation(conversation))) return page(404, "This unsubscribe link is not valid.");
  return page(200, "Done: you will get no more emails about this conversation.");
});

// Every other method: the API's usual 404 envelope, never Next's bare 405.
export const { PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {});
