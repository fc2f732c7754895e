import { AppError } from "@/lib/core/errors";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { beginSso, ssoConfigured } from "@/lib/staff/sso";

// GET: the sign-in page's "Sign in with single sign-on" link; on to the provider (lib/staff/sso.ts).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "public" }, async () => {
    if (!ssoConfigured()) throw new AppError("not_found", "Single sign-on is not configured.");
    const { location, cookie } = await beginSso();
    return new Response(null, { status: 302, headers: { Location: location, "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  }),
});
