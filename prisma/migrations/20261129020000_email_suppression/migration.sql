-- The suppression list (issue 28): addresses automatic emails are no longer sent to. An
-- unsubscribe is per site (the visitor left that site's emails); a hard bounce or a complaint is
-- about the address itself, so it is global (site_id NULL). Staff replies ignore the list.
CREATE TABLE "email_suppressions" (
  "id" TEXT NOT NULL,
  "address_key" TEXT NOT NULL,
  "reason" TEXT NOT NULL,
  "site_id" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "email_suppressions_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "email_suppressions_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "email_suppressions_address_key_idx" ON "email_suppressions"("address_key");
CREATE INDEX "email_suppressions_created_at_idx" ON "email_suppressions"("created_at");
