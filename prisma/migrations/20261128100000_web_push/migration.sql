-- Web Push (lib/push): one row per browser a member subscribed in the inbox. The endpoint is the
-- push service's URL for that browser; p256dh and auth are the browser's keys that payloads are
-- encrypted to (RFC 8291). Removed when the push service answers 404 or 410, or the member unsubscribes.
CREATE TABLE "push_subscriptions" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "member_id" TEXT NOT NULL REFERENCES "members"("id") ON DELETE CASCADE,
  "endpoint" TEXT NOT NULL,
  "p256dh" TEXT NOT NULL,
  "auth" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_pushed_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions" ("endpoint");
CREATE INDEX "push_subscriptions_member_id_idx" ON "push_subscriptions" ("member_id");
