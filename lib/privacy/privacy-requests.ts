import { randomUUID } from "node:crypto";
import { AppError } from "../core/errors";
import { db, scrubErasedRows } from "../db/client";
import type { ErasureCounts, PrivacySubject } from "../contracts/privacy";
import { eraseRows, removeFiles, storedFilesOf } from "./erase-rows";
import { exportArchive } from "./export-data";
import { redactAuditAboutEmail } from "../audit/about-email";
import { subjectScope } from "./subject-scope";

// Privacy requests (decisions.md, round 3): export or erase everything about one person. The
// operator API and the owners' inbox both call these; docs/security.md describes what is matched.

async function assertSiteExists(subject: PrivacySubject): Promise<void> {
  if (subject.kind === "email") return;
  const site = await (await db()).site.findUnique({ where: { id: subject.siteId }, select: { id: true } });
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
}

/** The person's data as a zip; the same request twice answers the same data. */
export async function exportPersonalData(subject: PrivacySubject): Promise<Uint8Array> {
  await assertSiteExists(subject);
  const prisma = await db();
  // One snapshot: the rows and the list of files agree even while the person keeps chatting.
  return prisma.$transaction(async (tx) => exportArchive(tx, subject, await subjectScope(tx, subject)), {
    isolationLevel: "RepeatableRead",
    timeout: 60_000,
  });
}

/**
 * Erases the person's rows and files' bytes and answers the counts (zeros the second time). The
 * files go first: if a storage fails, the rows stay and a retry finds them. Records the erasure
 * (kind and counts only) as the subject of the `privacy.erased` webhook event.
 */
export async function erasePersonalData(subject: PrivacySubject): Promise<ErasureCounts> {
  await assertSiteExists(subject);
  const prisma = await db();
  const before = await prisma.$transaction(async (tx) => storedFilesOf(tx, await subjectScope(tx, subject)));
  await removeFiles(before);
  const removed = new Set(before.map((file) => file.storage_key));
  const touched = new Set<string>();
  const { counts, lateFiles } = await prisma.$transaction(
    async (tx) => {
      const scope = await subjectScope(tx, subject);
      // A file uploaded since the first look: its bytes go after the commit.
      const lateFiles = (await storedFilesOf(tx, scope)).filter((file) => !removed.has(file.storage_key));
      const counts: ErasureCounts = {
        ...(await eraseRows(tx, scope, touched)),
        audit_events: scope.recipientKey ? await redactAuditAboutEmail(tx, scope.recipientKey) : 0,
      };
      if (counts.audit_events > 0) touched.add("audit_events"); // the redacted rows' old versions
      const id = `era_${randomUUID()}`;
      await tx.privacyErasure.create({ data: { id, kind: subject.kind, siteId: subject.kind === "email" ? null : subject.siteId, counts } });
      await tx.notificationEvent.create({ data: { type: "privacy.erased", subjectId: id } });
      return { counts, lateFiles };
    },
    { timeout: 60_000 },
  );
  await removeFiles(lateFiles);
  await scrubErasedRows(touched);
  return counts;
}

/** The export as a download (not the envelope). */
export async function exportDownload(subject: PrivacySubject): Promise<Response> {
  const zip = await exportPersonalData(subject);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(zip as BodyInit, {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(zip.byteLength),
      "Content-Disposition": `attachment; filename="parley-export-${subject.kind}-${day}.zip"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
