import type { ParsedMail } from "mailparser";
import { sqlExecutor } from "../../db/client";
import { bouncedEmailId } from "../links/bounce-address";
import { addSuppression } from "../suppression/suppressions";
import { readReport } from "./delivery-report";
import type { Judged } from "./inbound-record";

// Mail to a bounce address `b+<token>@MAIL_REPLY_DOMAIN` (bounce-address.ts): a hard bounce puts
// the email's recipient on the suppression list as `hard_bounce`, a spam complaint as `complaint`,
// and the email in the outbox says so (its last_error). A delay, or any other mail (a vacation
// reply to the envelope sender), changes nothing. The address bounced is the one the token's email
// was sent to, never one the report names: a report cannot suppress anyone else.

const MARK_EMAIL = `UPDATE "emails" SET "last_error" = $2 WHERE "id" = $1 RETURNING "recipient"`;

export async function judgeBounce(parsed: ParsedMail, tokens: string[]): Promise<Judged> {
  if (tokens.length > 1) return { outcome: "refused", reason: "several_bounce_addresses" };
  const emailId = await bouncedEmailId(tokens[0]!);
  if (!emailId) return { outcome: "refused", reason: "invalid_bounce_token" };
  const report = readReport(parsed);
  if (report.kind === "delayed") return { outcome: "ignored", reason: "bounce_delayed" };
  if (report.kind === "no_failure") return { outcome: "ignored", reason: "bounce_no_failure" };
  if (report.kind === "other_feedback") return { outcome: "ignored", reason: "feedback_not_abuse" };
  if (report.kind === "not_a_report") return { outcome: "ignored", reason: "not_a_report" };

  const reason = report.kind;
  const found = await (await sqlExecutor()).transaction(async (sql) => {
    const { rows } = await sql.executeSql(MARK_EMAIL, [emailId, report.kind === "hard_bounce" ? `bounced ${report.status}` : "complaint"]);
    const recipient = (rows as { recipient: string }[])[0]?.recipient;
    if (recipient !== undefined) await addSuppression(sql, { address: recipient, reason });
    return recipient !== undefined;
  });
  return found ? { outcome: "accepted", reason } : { outcome: "refused", reason: "bounce_email_unknown" };
}
