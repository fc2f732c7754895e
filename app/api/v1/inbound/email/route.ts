import { defineRoute, inboundRoute } from "@/lib/api/route";
import { ok } from "@/lib/http/envelope";
import { readRawBody } from "@/lib/http/input";
import { INBOUND_DISCARD_BYTES, MAX_INBOUND_BYTES, receiveInboundEmail } from "@/lib/email/inbound/receive-email";

// Providers that forward raw MIME (docs/notifications.md): the body is the email as received.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbound", {
  POST: inboundRoute({ discardUpTo: INBOUND_DISCARD_BYTES }, async ({ request }) => {
    const raw = Buffer.from(await readRawBody(request, MAX_INBOUND_BYTES, { discardUpTo: INBOUND_DISCARD_BYTES }));
    const received = await receiveInboundEmail(raw, { via: "http" });
    return ok(received, received.outcome === "accepted" ? "The reply was posted." : `The email was ${received.outcome}.`);
  }),
});

// A literal: Next.js reads route segment config statically. A 25 MB email takes a moment to parse.
export const maxDuration = 60;
