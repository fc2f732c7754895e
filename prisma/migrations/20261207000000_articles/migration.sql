-- Help center articles (decisions.md, round 4, "Help center (self-service)"; docs/answers.md).
-- An article belongs to a site; its slug is unique per site and locale (a duplicate is 409
-- already_exists). `views` is an atomic counter bumped by the widget's article read; votes live
-- in article_feedback, one per visitor_id and article (a second vote replaces the first).
CREATE TABLE "articles" (
    "id" TEXT NOT NULL,
    "site_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "collection" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "views" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    CONSTRAINT "articles_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "articles_status_check" CHECK ("status" IN ('draft', 'published'))
);
CREATE UNIQUE INDEX "articles_site_id_locale_slug_key" ON "articles"("site_id", "locale", "slug");
ALTER TABLE "articles" ADD CONSTRAINT "articles_site_id_fkey"
    FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Article search matches the title and body with the inbox search's own functions (migration
-- 20261127030000): the same folding, stemming and query syntax.
CREATE INDEX "articles_search_idx" ON "articles" USING GIN (parley_search_vector("title" || ' ' || "body"));

CREATE TABLE "article_feedback" (
    "id" TEXT NOT NULL,
    "article_id" TEXT NOT NULL,
    "visitor_id" TEXT,
    "helpful" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "article_feedback_pkey" PRIMARY KEY ("id")
);
-- NULLs stay distinct: a vote without a visitor_id is a vote of its own.
CREATE UNIQUE INDEX "article_feedback_article_id_visitor_id_key" ON "article_feedback"("article_id", "visitor_id");
ALTER TABLE "article_feedback" ADD CONSTRAINT "article_feedback_article_id_fkey"
    FOREIGN KEY ("article_id") REFERENCES "articles"("id") ON DELETE CASCADE ON UPDATE CASCADE;
