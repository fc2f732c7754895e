import { db, sqlExecutor } from "../db/client";
import { AppError } from "../core/errors";
import type { ArticleStatus, ListArticlesQuery, WireArticle } from "../contracts/articles";
import type { Prisma } from "../generated/prisma/client";
import { searchSnippet } from "../search/snippet";
import { SEARCH_ARTICLES, type ArticleSearchRow } from "./statements";
import { articleUrl } from "./urls";

// Reading articles: staff lists (every member reads every site's, as the inbox's lists), one
// article, and the full-text search the widget, the help center and the bot share.

export const articleView = {
  id: true,
  siteId: true,
  title: true,
  body: true,
  locale: true,
  slug: true,
  collection: true,
  status: true,
  views: true,
  createdAt: true,
  updatedAt: true,
  publishedAt: true,
  _count: { select: { feedback: { where: { helpful: true } } } },
} as const;

export type ArticleRow = Prisma.ArticleGetPayload<{ select: typeof articleView }>;

export const articleNotFound = () => new AppError("not_found", "No article has this identifier.");

/** The article's feedback counts: helpful from the row's filtered count, the rest counted here. */
async function notHelpfulCounts(ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const groups = await (await db()).articleFeedback.groupBy({ by: ["articleId"], where: { articleId: { in: ids }, helpful: false }, _count: { _all: true } });
  return new Map(groups.map((group) => [group.articleId, group._count._all]));
}

export function toWireArticle(row: ArticleRow, notHelpful: number): WireArticle {
  return {
    id: row.id,
    site_id: row.siteId,
    title: row.title,
    body: row.body,
    locale: row.locale,
    slug: row.slug,
    collection: row.collection,
    status: row.status as ArticleStatus, // written only through ARTICLE_STATUSES (and a CHECK)
    url: articleUrl(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    views: row.views,
    helpful: row._count.feedback,
    not_helpful: notHelpful,
  };
}

export async function toWireArticles(rows: ArticleRow[]): Promise<WireArticle[]> {
  const notHelpful = await notHelpfulCounts(rows.map((row) => row.id));
  return rows.map((row) => toWireArticle(row, notHelpful.get(row.id) ?? 0));
}

export async function readArticle(id: string): Promise<WireArticle> {
  const row = await (await db()).article.findUnique({ where: { id }, select: articleView });
  if (!row) throw articleNotFound();
  return (await toWireArticles([row]))[0]!;
}

export interface ArticleMatch {
  id: string;
  siteId: string;
  title: string;
  locale: string;
  slug: string;
  /** ts_rank_cd normalised to 0..1. */
  rank: number;
  snippet: string;
}

export interface ArticleSearch {
  /** null: every site (staff). */
  siteId: string | null;
  q: string;
  locale?: string | null;
  status?: ArticleStatus | null;
  limit: number;
}

/** The best matches for q, best first, each with its `<<`/`>>` snippet (as the inbox search's). */
export async function searchArticles(search: ArticleSearch): Promise<ArticleMatch[]> {
  const sql = await sqlExecutor();
  const { rows } = await sql.executeSql(SEARCH_ARTICLES, [search.q, search.siteId, search.locale ?? null, search.status ?? null, search.limit]);
  return (rows as ArticleSearchRow[]).map((row) => ({
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    locale: row.locale,
    slug: row.slug,
    rank: Number(row.rank),
    snippet: searchSnippet(row.doc, row.folded, row.headline),
  }));
}

/** Articles of every site, or of the query's site, locale and status; with `q` best match first (each with a snippet), else last changed first. */
export async function listArticles(query: ListArticlesQuery): Promise<WireArticle[]> {
  const prisma = await db();
  const where = { siteId: query.site, locale: query.locale, status: query.status };
  if (query.q === undefined) {
    return toWireArticles(await prisma.article.findMany({ where, select: articleView, orderBy: [{ updatedAt: "desc" }, { id: "asc" }] }));
  }
  const matches = await searchArticles({ siteId: query.site ?? null, q: query.q, locale: query.locale, status: query.status, limit: LIST_SEARCH_LIMIT });
  const rows = await prisma.article.findMany({ where: { id: { in: matches.map((match) => match.id) } }, select: articleView });
  const byId = new Map((await toWireArticles(rows)).map((article) => [article.id, article]));
  return matches.flatMap((match) => {
    const article = byId.get(match.id);
    return article ? [{ ...article, snippet: match.snippet }] : [];
  });
}

/** A staff search answers at most this many articles. */
const LIST_SEARCH_LIMIT = 50;

/** The collections in use, by name (the editor offers them). */
export async function articleCollections(): Promise<string[]> {
  const rows = await (await db()).article.findMany({ where: { collection: { not: null } }, distinct: ["collection"], select: { collection: true }, orderBy: { collection: "asc" } });
  return rows.flatMap((row) => (row.collection ? [row.collection] : []));
}
