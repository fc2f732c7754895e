import type { PrivacySubject } from "../contracts/privacy";
import type { AuditSpec } from "./audit-change";

// The audit rows of privacy requests (docs/security.md): which kind of identifier, on which site,
// and for an erasure the counts. Never the identifier itself: the log must not keep what was erased.

const subjectDetails = (subject: PrivacySubject) => ({ kind: subject.kind, ...("siteId" in subject ? { site: subject.siteId } : {}) });

export const privacyExportAudit: AuditSpec<{ body: PrivacySubject }> = {
  action: "privacy.export",
  target: ({ body }) => `privacy:${body.kind}`,
  details: ({ body }) => subjectDetails(body),
};

export const privacyEraseAudit: AuditSpec<{ body: PrivacySubject }> = {
  action: "privacy.erase",
  target: ({ body }) => `privacy:${body.kind}`,
  details: ({ body }, counts) => ({ ...subjectDetails(body), counts }),
};
