-- The inbox's ticket list (issue #25): keyset pages newest first with ties by id, so each filter's
-- index ends in (created_at, id); and live updates: a ticket filed or changed (status, assignee,
-- priority, or a reply moving updated_at) NOTIFYs the inbox channel as `k <ticket id> created|updated`
-- (lib/realtime/events.ts), whoever wrote it: the widget, the inbox, the filer's emailed reply.
DROP INDEX "tickets_site_id_created_at_idx";
DROP INDEX "tickets_status_created_at_idx";
DROP INDEX "tickets_assignee_id_created_at_idx";
CREATE INDEX "tickets_site_id_created_at_id_idx" ON "tickets"("site_id", "created_at", "id");
CREATE INDEX "tickets_status_created_at_id_idx" ON "tickets"("status", "created_at", "id");
CREATE INDEX "tickets_assignee_id_created_at_id_idx" ON "tickets"("assignee_id", "created_at", "id");
CREATE INDEX "tickets_created_at_id_idx" ON "tickets"("created_at", "id");

CREATE FUNCTION "parley_inbox_ticket"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_inbox', 'k ' || NEW."id" || ' ' || CASE WHEN TG_OP = 'INSERT' THEN 'created' ELSE 'updated' END);
  RETURN NULL;
END $$;
CREATE TRIGGER "tickets_inbox_insert" AFTER INSERT ON "tickets"
    FOR EACH ROW EXECUTE FUNCTION "parley_inbox_ticket"();
CREATE TRIGGER "tickets_inbox_update" AFTER UPDATE OF "status", "assignee_id", "priority", "updated_at" ON "tickets"
    FOR EACH ROW
    WHEN (OLD."status" IS DISTINCT FROM NEW."status"
          OR OLD."assignee_id" IS DISTINCT FROM NEW."assignee_id"
          OR OLD."priority" IS DISTINCT FROM NEW."priority"
          OR OLD."updated_at" IS DISTINCT FROM NEW."updated_at")
    EXECUTE FUNCTION "parley_inbox_ticket"();
