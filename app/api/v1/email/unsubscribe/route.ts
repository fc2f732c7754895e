import { verifySiteUnsubscribe, verifyUnsubscribe } from "@/lib/email/links/unsubscribe-links";
import { escapeHtml } from "@/lib/email/templates";
import { unsubscribeConversation, unsubscribeEmail, unsubscribeTarget, type UnsubscribeScope } from "@/lib/email/suppression/unsubscribe";
import { defineRoute } from "@/lib/api/route";
import { log } from "@/lib/core/log";

// The one-click unsubscribe (RFC 8058) of a visitor's automatic emails. Not a JSON route: mail
// clients POST a form body ("List-Unsubscribe=One-Click") and people open the link in a browser. GET
// only shows buttons (link scanners follow GETs); POST records. `?email=<outbox id>&signature=`
// (lib/email/links/unsubscribe-links.ts `siteUnsubscribe`) lists the address for the email's site; `&scope=conversation`
// only stops a follow-up's conversation. `?conversation=<id>&signature=`: the links of follow-ups
// sent before, which stop that conversation's follow-ups.

const page = (status: number, text: string, forms = "") =>
  new Response(
    `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body style="font-family:system-ui,sans-serif">` +
      `<p>${escapeHtml(text)}</p>${forms}</body></html>`,
    { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } },
  );

const invalid = () => page(404, "This unsubscribe link is not valid.");

const button = (query: URLSearchParams, label: string) =>
  `<form method="post" action="?${escapeHtml(query.toString())}"><button type="submit">${escapeHtml(label)}</button></form>`;

type Signed = { email: string; scope: UnsubscribeScope } | { conversation: string };

/** The signed link's target, or null for anything this service did not sign. */
async function signed(request: Request): Promise<Signed | null> {
  const query = new URL(request.url).searchParams;
  const signature = query.get("signature") ?? "";
  const email = query.get("email");
  const conversation = query.get("conversation");
  if (!signature || (email ?? conversation ?? "").length > 200) return null;
  if (email) return (await verifySiteUnsubscribe(email, signature)) ? { email, scope: query.get("scope") === "conversation" ? "conversation" : "site" } : null;
  if (conversation) return (await verifyUnsubscribe(conversation, signature)) ? { conversation } : null;
  return null;
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
  const link = await signed(request);
  if (!link) return invalid();
  const query = new URL(request.url).searchParams;
  query.delete("scope");
  if ("conversation" in link) return page(200, "Stop emails about replies in this conversation?", button(query, "Unsubscribe"));
  const target = await unsubscribeTarget(link.email);
  if (!target) return invalid();
  const site = button(query, `Unsubscribe from all automatic emails from ${target.siteName}`);
  if (!target.conversationId) return page(200, `Stop automatic emails from ${target.siteName} to this address?`, site);
  query.set("scope", "conversation");
  return page(200, `Stop emails from ${target.siteName}?`, button(query, "Only emails about this conversation") + site);
});

export const POST = guarded(async (request) => {
  const link = await signed(request);
  if (!link) return invalid();
  if ("conversation" in link) {
    return (await unsubscribeConversation(link.conversation)) ? page(200, "Done: you will get no more emails about this conversation.") : invalid();
  }
  const covered = await unsubscribeEmail(link.email, link.scope);
  if (!covered) return invalid();
  return page(
    200,
    covered === "conversation"
      ? "Done: you will get no more emails about this conversation."
      : "Done: this address will get no more automatic emails from this site.",
  );
});

// Every other method: the API's usual 404 envelope, never Next's bare 405.
export const { PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {});
