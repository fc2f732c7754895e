-- A stored webhook URL that no longer passes the target rules (WEBHOOK_ALLOW_PRIVATE_TARGETS,
-- WEBHOOK_ALLOWED_TARGETS, changed since it was registered): why, as every start finds it
-- (lib/webhooks/recheck-targets.ts). Null while it passes. Its deliveries wait meanwhile.
ALTER TABLE "webhooks" ADD COLUMN "url_refused" TEXT;
