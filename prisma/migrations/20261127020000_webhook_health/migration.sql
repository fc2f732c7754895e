-- A webhook's health (issue 28): its last attempt's result and when, the failures since its last
-- success, and when that was. Written with the attempts' answers (lib/webhooks/delivery-loop.ts).
ALTER TABLE "webhooks"
  ADD COLUMN "last_attempt_at" TIMESTAMPTZ(3),
  ADD COLUMN "last_result" TEXT,
  ADD COLUMN "last_response_status" INTEGER,
  ADD COLUMN "last_error" TEXT,
  ADD COLUMN "last_success_at" TIMESTAMPTZ(3),
  ADD COLUMN "failures_in_a_row" INTEGER NOT NULL DEFAULT 0;
