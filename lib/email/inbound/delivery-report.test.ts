import { simpleParser } from "mailparser";
import { expect, test } from "vitest";
import { readReport } from "./delivery-report";

// Reading the structured part of a report (RFC 3464 DSN, RFC 5965 ARF) as the inbound pipeline
// parses it (mailparser with keepDeliveryStatus). tests/integration/email-bounces.test.ts sends
// whole reports end to end; these are the shapes MTAs differ in.

const report = async (type: string, partType: string, part: string, contentType = `multipart/report; report-type=${type}; boundary="b"`) =>
  readReport(
    await simpleParser(
      Buffer.from(
        [`Content-Type: ${contentType}`, "MIME-Version: 1.0", "", "--b", "Content-Type: text/plain", "", "Report.", "--b", `Content-Type: ${partType}`, "", part, "--b--", ""].join("\r\n"),
      ),
      { keepDeliveryStatus: true },
    ),
  );

const dsn = (...recipients: string[]) => report("delivery-status", "message/delivery-status", ["Reporting-MTA: dns; mx.example", "", ...recipients.flatMap((block) => [block, ""])].join("\r\n"));

test("a failed recipient with a 5.x.x status is a hard bounce; names and values are read without case, folded lines unfolded", async () => {
  expect(await dsn("Final-Recipient: rfc822; a@x.example\r\nACTION: Failed\r\nStatus:\r\n 5.1.1")).toEqual({ kind: "hard_bounce", status: "5.1.1" });
  expect(await dsn("Action: failed\r\nStatus: 5.2.2 (mailbox full)")).toEqual({ kind: "hard_bounce", status: "5.2.2" });
});

test("delays and 4.x.x failures are delayed; delivered or relayed is no failure; a failure beside a delivery still counts", async () => {
  expect(await dsn("Action: delayed\r\nStatus: 4.4.7")).toEqual({ kind: "delayed" });
  expect(await dsn("Action: failed\r\nStatus: 4.2.2")).toEqual({ kind: "delayed" });
  expect(await dsn("Action: delivered\r\nStatus: 2.0.0", "Action: relayed\r\nStatus: 2.0.0")).toEqual({ kind: "no_failure" });
  expect(await dsn("Action: delivered\r\nStatus: 2.0.0", "Action: failed\r\nStatus: 5.0.0")).toEqual({ kind: "hard_bounce", status: "5.0.0" });
  expect(await dsn("Action: failed\r\nStatus: 5.x.1")).toEqual({ kind: "no_failure" });
});

test("an ARF report is a complaint only for Feedback-Type abuse", async () => {
  const arf = (type: string) => report("feedback-report", "message/feedback-report", `Feedback-Type: ${type}\r\nUser-Agent: X/1\r\nVersion: 1`);
  expect(await arf("abuse")).toEqual({ kind: "complaint" });
  expect(await arf("Abuse")).toEqual({ kind: "complaint" });
  expect(await arf("not-spam")).toEqual({ kind: "other_feedback" });
});

test("anything else is no report: another report type, a report without its part, a plain email", async () => {
  expect(await report("disposition-notification", "message/disposition-notification", "Disposition: manual-action/MDN-sent-manually; displayed")).toEqual({ kind: "not_a_report" });
  expect(await report("delivery-status", "text/plain", "Action: failed\r\nStatus: 5.1.1")).toEqual({ kind: "not_a_report" });
  expect(await report("delivery-status", "message/delivery-status", "Action: failed", 'multipart/mixed; report-type=delivery-status; boundary="b"')).toEqual({ kind: "not_a_report" });
});
