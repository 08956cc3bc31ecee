-- An edit or a delete of a thread's stored messages bumps the thread row's version, in the same statement's
-- transaction, whoever makes it. A process that holds a thread's history (pg-direct/history.ts) then knows it is
-- unchanged from the thread row alone (its version and event counter), without reading every message again; a new
-- message needs no bump (it is read as one with a later seq). One bump per thread per statement.
CREATE FUNCTION "studio_messages_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Thread" SET "version" = "version" + 1 WHERE "id" IN (SELECT DISTINCT "threadId" FROM "changed");
  RETURN NULL;
END
$$;

-- PostgreSQL allows transition tables only on single-event triggers: one trigger each.
CREATE TRIGGER "Message_updated_bumps_thread" AFTER UPDATE ON "Message"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "studio_messages_changed"();
CREATE TRIGGER "Message_deleted_bumps_thread" AFTER DELETE ON "Message"
  REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "studio_messages_changed"();
