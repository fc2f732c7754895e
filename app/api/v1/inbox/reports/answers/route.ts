import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { answersReportQuery } from "@/lib/contracts/reports";
import { answerOutcomes } from "@/lib/answers/questions-report";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ role: "owner", query: answersReportQuery }, async ({ query }) => ok(await answerOutcomes(query))),
});
