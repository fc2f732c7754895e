import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { privacyRequestBody } from "@/lib/contracts/privacy";
import { privacyEraseAudit } from "@/lib/api/privacy-audit";
import { erasePersonalData } from "@/lib/privacy/privacy-requests";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  POST: inboxRoute({ role: "owner", body: privacyRequestBody, audit: privacyEraseAudit }, async ({ body }) => ok(await erasePersonalData(body), "Everything about this person is erased.")),
});
