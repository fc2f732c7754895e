-- Visitor attributes and the pre-chat form (decisions.md, round 4; docs/attributes.md).
-- Definitions are typed (text, number, date, boolean, list, link); a conversation's values live
-- in one JSONB object keyed by definition, each value typed as its definition says (the service
-- checks it; rules and SLAs read `conversations.attributes`). A deleted definition takes its
-- values off every conversation (the service does it in the same transaction).
CREATE TABLE "attribute_definitions" (
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "options" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "attribute_definitions_pkey" PRIMARY KEY ("key"),
    CONSTRAINT "attribute_definitions_key_check" CHECK ("key" ~ '^[a-z0-9_]{1,40}$'),
    CONSTRAINT "attribute_definitions_type_check" CHECK ("type" IN ('text', 'number', 'date', 'boolean', 'list', 'link'))
);

ALTER TABLE "conversations" ADD COLUMN "attributes" JSONB NOT NULL DEFAULT '{}';
-- The consent the visitor gave in the pre-chat form: {text, at}, the exact text agreed to; null: none.
ALTER TABLE "conversations" ADD COLUMN "consent" JSONB;

-- The pre-chat form: {fields: [{key, required}], consent: {text, required} | null}; null: no form.
ALTER TABLE "sites" ADD COLUMN "prechat" JSONB;
