import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { signInBody } from "@/lib/contracts/staff";
import { endSession, sessionCookie } from "@/lib/staff/sessions";
import { signIn } from "@/lib/staff/sign-in";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({}, async ({ staff }) => ok(staff.member, "Signed in.")),
  POST: inboxRoute({ role: "public", body: signInBody }, async ({ body, request }) => {
    const { memberId, token } = await signIn(body, request);
    return { ...ok({ member_id: memberId }, "Signed in."), headers: { "Set-Cookie": sessionCookie(token) } };
  }),
  DELETE: inboxRoute({ audit: { action: "staff.sign_out", target: ({ staff }) => `member:${staff.member.id}` } }, async ({ staff }) => {
    await endSession(staff.sessionId);
    return { ...ok(null, "Signed out."), headers: { "Set-Cookie": sessionCookie(null) } };
  }),
});
