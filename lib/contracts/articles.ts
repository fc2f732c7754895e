import { z } from "zod";
import { queryInteger } from "../core/validation/cursors";
import { clientId, localeTag, requiredText, singleLineText, singleLineValue } from "../core/validation/strings";

// Help center articles (decisions.md, round 4, "Help center (self-service)"; docs/answers.md).
// Owners write (and the operator token); every member reads.

export const ARTICLE_STATUSES = ["draft", "published"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const MAX_ARTICLE_TITLE = 160;
export const MAX_ARTICLE_BODY = 50_000;
export const MAX_ARTICLE_SLUG = 100;
export const MAX_COLLECTION = 60;
/** What a search over articles answers at most. */
export const MAX_ARTICLE_SEARCH_LIMIT = 20;
/** `q` as the inbox search's (decisions.md, round 3, "Search"). */
export const MAX_ARTICLE_QUERY = 200;

export const articleSlug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a-z, 0-9 and single '-' between them")
  .max(MAX_ARTICLE_SLUG);

const siteId = clientId(100);

const fields = {
  title: singleLineText(MAX_ARTICLE_TITLE),
  body: requiredText(MAX_ARTICLE_BODY),
  locale: localeTag(35).transform((tag) => Intl.getCanonicalLocales(tag)[0]!),
  slug: articleSlug,
  collection: singleLineText(MAX_COLLECTION).nullable(),
  status: z.enum(ARTICLE_STATUSES),
};

/** POST …/articles: `locale` defaults to the site's, `slug` to one made from the title, `status` to draft. */
export const createArticleBody = z.strictObject({
  site_id: siteId,
  title: fields.title,
  body: fields.body,
  locale: fields.locale.optional(),
  slug: fields.slug.optional(),
  collection: fields.collection.optional(),
  status: fields.status.optional(),
});
export type CreateArticleInput = z.output<typeof createArticleBody>;

/** PATCH …/articles/{id}: any of the fields but the site. */
export const updateArticleBody = z
  .strictObject({
    title: fields.title.optional(),
    body: fields.body.optional(),
    locale: fields.locale.optional(),
    slug: fields.slug.optional(),
    collection: fields.collection.optional(),
    status: fields.status.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "must change at least one of title, body, locale, slug, collection, status");
export type UpdateArticleInput = z.output<typeof updateArticleBody>;

/** A search box's words: 1..200 characters, not only spaces. */
export const articleQuery = singleLineText(MAX_ARTICLE_QUERY);

/** GET …/articles: filters; `q` searches (best match first, each item with a snippet). */
export const listArticlesQuery = z.strictObject({
  site: siteId.optional(),
  locale: fields.locale.optional(),
  status: fields.status.optional(),
  q: articleQuery.optional(),
});
export type ListArticlesQuery = z.output<typeof listArticlesQuery>;

/** An article as staff read it. */
export const article = z.object({
  id: z.string(),
  site_id: z.string(),
  title: z.string(),
  body: z.string(),
  locale: z.string(),
  slug: z.string(),
  collection: z.string().nullable(),
  status: z.enum(ARTICLE_STATUSES),
  url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  published_at: z.string().nullable(),
  views: z.number().int(),
  helpful: z.number().int(),
  not_helpful: z.number().int(),
  /** Only in a list with `q`: the match, words wrapped in << >>. */
  snippet: z.string().optional(),
});
export type WireArticle = z.infer<typeof article>;

/** GET /chat/widget/{siteID}/articles */
export const widgetArticlesQuery = z.strictObject({
  q: singleLineValue(MAX_ARTICLE_QUERY).optional(),
  locale: fields.locale.optional(),
  limit: queryInteger(1, MAX_ARTICLE_SEARCH_LIMIT).default(5),
});
export type WidgetArticlesQuery = z.output<typeof widgetArticlesQuery>;

export const widgetArticleItem = z.object({ id: z.string(), title: z.string(), snippet: z.string(), url: z.string(), locale: z.string() });
export const widgetArticleList = z.object({ items: z.array(widgetArticleItem) });
export const widgetArticle = z.object({ id: z.string(), title: z.string(), body_html: z.string(), url: z.string(), locale: z.string(), updated_at: z.string() });

/** POST /chat/widget/{siteID}/articles/{id}/feedback */
export const articleFeedbackBody = z.strictObject({ helpful: z.boolean(), visitor_id: clientId(100).optional() });
export type ArticleFeedbackInput = z.output<typeof articleFeedbackBody>;
