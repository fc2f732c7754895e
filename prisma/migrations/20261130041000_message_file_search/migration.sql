-- Search finds chat files by name (issue #25, docs/search.md): the same expression GIN index as
-- ticket_attachments_search_idx (migration 20261127030000), on the files sent in conversations.
-- An expression index, which schema.prisma cannot declare (the schema-drift test skips these).
CREATE INDEX "message_attachments_search_idx" ON "message_attachments"
    USING GIN (parley_search_vector("name" || ' ' || translate("name", '-_.', '   ')));
