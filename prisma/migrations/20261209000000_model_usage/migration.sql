-- Calls to the owner's model (AI_BASE_URL; decisions.md, round 4, "Answers and the human handoff";
-- docs/answers.md): one row per site and UTC day, counted before each call (the daily cap,
-- AI_DAILY_CALLS, is checked and taken in one UPDATE) and given the answer's `usage` tokens after.
CREATE TABLE "model_usage" (
    "site_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "model_usage_pkey" PRIMARY KEY ("site_id", "day")
);
ALTER TABLE "model_usage" ADD CONSTRAINT "model_usage_site_id_fkey"
    FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
