import { AppError } from "@/lib/core/errors";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { auditRequest } from "@/lib/api/audit-change";
import { sessionCookie } from "@/lib/staff/sessions";
import { attemptCookie, finishSso, ssoConfigured, SsoRefused } from "@/lib/staff/sso";

// GET: where the provider sends the browser back. Signed in → the inbox; refused → the sign-in page
// saying why (?sso=<reason>). The attempt's cookie is cleared either way: it serves once.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "public" }, async ({ request }) => {
    if (!ssoConfigured()) throw new AppError("not_found", "Single sign-on is not configured.");
    const redirect = (location: string, ...cookies: string[]) => {
      const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
      for (const cookie of [attemptCookie(null), ...cookies]) headers.append("Set-Cookie", cookie);
      return new Response(null, { status: 302, headers });
    };
    try {
      const { memberId, token, linked } = await finishSso(new URL(request.url).search, request.headers.get("cookie"));
      const member = `member:${memberId}` as const;
      if (linked) await auditRequest(request, { actor: member, action: "sso.linked", target: member });
      await auditRequest(request, { actor: member, action: "staff.sign_in", target: member, details: { method: "sso" } });
      return redirect("/inbox", sessionCookie(token));
    } catch (error) {
      if (!(error instanceof SsoRefused)) throw error;
      await auditRequest(request, { actor: "anonymous", action: "staff.sign_in_failed", details: { method: "sso", reason: error.reason } });
      return redirect(`/inbox/sign-in?sso=${error.reason}`);
    }
  }),
});
