import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { createSite, ORIGIN } from "../support/fixtures";
import { file, fileTicket, filesUnder, PNG_BYTES, ticket } from "../support/tickets";

// Issue 9, item 11: a client hanging up in the middle of an upload PUT was logged as
// `database_unavailable` with a stack (its ECONNRESET read like a lost database) and answered 503.
process.env.LOG_LEVEL = "info";

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    lines.push(String(chunk));
    return typeof rest[0] === "function" ? write(chunk, rest[0] as () => void) : true;
  });
});
afterEach(() => vi.restoreAllMocks());

/** A body that delivers `sent` bytes and then fails the way Node reports a peer's hang-up. */
function hangingUp(sent: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(sent);
      controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    },
  });
}

describe("a client that hangs up in the middle of an upload PUT", () => {
  test("is a client abort: a 400 if anyone reads it, one info line without a stack, nothing stored", async () => {
    const site = await createSite();
    const reply = await fileTicket(site.id, ticket({ files: [file()] }));
    const upload = reply.uploads[0]!;
    const before = filesUnder(process.env.UPLOADS_DIR!);
    const { PUT } = await import("../../app/api/v1/uploads/[attachmentId]/route");
    const request = new Request(upload.upload_url, {
      method: "PUT",
      headers: { Origin: ORIGIN, "Content-Type": "image/png", "Content-Length": String(PNG_BYTES.length) },
      body: hangingUp(PNG_BYTES.subarray(0, 10)),
      duplex: "half",
    } as RequestInit);
    const response = await PUT(request, { params: Promise.resolve({ attachmentId: upload.attachment_id }) });

    expect(response.status).toBe(400);
    expect((await response.json()).result).toEqual({ code: "invalid_request" });
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((event) => event.event)).toEqual(["client_aborted"]);
    expect(events[0]).toMatchObject({ level: "info", method: "PUT", path: `/api/v1/uploads/${upload.attachment_id}` });
    expect(lines.join("")).not.toMatch(/stack|database_unavailable|signature=/);

    const attachment = await (await db()).ticketAttachment.findUniqueOrThrow({ where: { id: upload.attachment_id } });
    expect(attachment.uploadedAt).toBeNull();
    expect(filesUnder(process.env.UPLOADS_DIR!)).toEqual(before);
  });
});
