-- The audit log (issue 29 item 3, docs/security.md "Audit log"): every state change by a member or
-- the operator token, appended by lib/audit/. Append-only, held by the database itself: the trigger
-- below refuses every UPDATE and every DELETE, except the retention pruning's deletes of rows older
-- than the bound it names in the same transaction (lib/audit/prune.ts):
--   SELECT set_config('parley.audit_prune', 'on', true), set_config('parley.audit_keep_days', '<n>', true)
-- Both settings are transaction-local, so nothing a route does outside that function can delete.
-- actor_member_id has no foreign key: a member's rows outlive the member, and a foreign key's
-- ON DELETE action would be an UPDATE or DELETE that the trigger refuses.
CREATE TABLE "audit_events" (
  "id" TEXT NOT NULL DEFAULT ('aud_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)),
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
  "actor" TEXT NOT NULL,
  "actor_member_id" TEXT,
  "action" TEXT NOT NULL,
  "target" TEXT,
  "ip" TEXT,
  "details" JSONB NOT NULL DEFAULT '{}',
  CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_events_at_id_idx" ON "audit_events" ("at" DESC, "id" DESC);
CREATE INDEX "audit_events_action_at_idx" ON "audit_events" ("action", "at" DESC);
CREATE INDEX "audit_events_actor_at_idx" ON "audit_events" ("actor", "at" DESC);

CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'P0001';
END;
$$;

CREATE TRIGGER "audit_events_append_only"
  BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();

CREATE TRIGGER "audit_events_no_truncate"
  BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
