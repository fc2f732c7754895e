-- Trust leftovers (issue 29): what the daily retention prunes and what a privacy erasure redacts.
--
-- 1. visitor_tokens are pruned by expiry (lib/privacy/retention.ts): an index to find them.
CREATE INDEX "visitor_tokens_expires_at_idx" ON "visitor_tokens" ("expires_at");

-- 2. Audit rows are found by what they name: a privacy request looks up the keyed hash of an email.
CREATE INDEX "audit_events_target_idx" ON "audit_events" ("target");

-- 3. The append-only trigger gains one more exception, a redaction (lib/audit/redact.ts): inside a
--    transaction that set `parley.audit_redact` to `on` (transaction-local), an UPDATE may change
--    only `target` and `details`, and only to a row that says it was redacted
--    (details.redacted = true). Who acted, what, when and from where stay as they were.
CREATE OR REPLACE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  keep_days integer;
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('parley.audit_prune', true) = 'on' THEN
    BEGIN
      keep_days := nullif(current_setting('parley.audit_keep_days', true), '')::integer;
    EXCEPTION WHEN others THEN
      keep_days := NULL;
    END;
    IF keep_days IS NOT NULL AND keep_days >= 1 AND OLD."at" < now() - make_interval(days => keep_days) THEN
      RETURN OLD;
    END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND current_setting('parley.audit_redact', true) = 'on'
     AND NEW."id" = OLD."id" AND NEW."at" = OLD."at" AND NEW."actor" = OLD."actor"
     AND NEW."actor_member_id" IS NOT DISTINCT FROM OLD."actor_member_id"
     AND NEW."action" = OLD."action" AND NEW."ip" IS NOT DISTINCT FROM OLD."ip"
     AND NEW."details" ->> 'redacted' = 'true' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'P0001';
END;
$$;

-- 4. Failed sign-ins no longer keep the email typed (docs/security.md, "Audit log"): rows written
--    before name the member when the address is a member's, and are redacted otherwise (the keyed
--    hash new rows carry needs the service's key, which the database does not hold).
SELECT set_config('parley.audit_redact', 'on', true);
UPDATE "audit_events" a
   SET "target" = coalesce((SELECT 'member:' || m."id" FROM "members" m WHERE m."email" = substr(a."target", 7)), 'redacted'),
       "details" = a."details" || '{"redacted": true}'::jsonb
 WHERE a."action" = 'staff.sign_in_failed' AND a."target" LIKE 'email:%';
