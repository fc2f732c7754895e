import { db } from "../db/client";
import { AppError } from "../core/errors";
import { helpCenterTitle } from "../sites/help-center-title";
import { renderMarkdown } from "./render-markdown";
import { searchArticles } from "./views";
import { articleUrl, helpCenterUrl } from "./urls";

// The public help center (app/help/, the widget's article routes): published articles of a site
// whose help center is on. Everything else — an unknown site, a disabled help center, a draft,
// another site's article — is one 404, so nothing tells them apart.

export const helpCenterNotFound = () => new AppError("not_found", "No help center page is here.");

/** Popular articles on the home page; the widget's list when `q` is empty. */
const POPULAR = 5;
/** A help center search answers at most this many articles. */
const SEARCH_LIMIT = 20;

export interface HelpCenterSite {
  id: string;
  title: string;
  brandColor: string | null;
  locale: string;
  answers: string;
}

export async function helpCenterSite(siteId: string): Promise<HelpCenterSite> {
  const site = await (await db()).site.findUnique({
    where: { id: siteId },
    select: { id: true, name: true, title: true, brandColor: true, locale: true, helpCenterEnabled: true, helpCenterTitle: true, answers: true },
  });
  if (!site?.helpCenterEnabled) throw helpCenterNotFound();
  return { id: site.id, title: helpCenterTitle(site), brandColor: site.brandColor, locale: site.locale ?? "en", answers: site.answers };
}

export interface ArticleLink {
  id: string;
  title: string;
  locale: string;
  slug: string;
  url: string;
  snippet?: string;
}

const linkSelect = { id: true, siteId: true, title: true, locale: true, slug: true } as const;
const toLink = (row: { id: string; siteId: string; title: string; locale: string; slug: string }): ArticleLink => ({
  id: row.id,
  title: row.title,
  locale: row.locale,
  slug: row.slug,
  url: articleUrl(row),
});

/** The most viewed published articles (of one locale when given). */
export async function popularArticles(siteId: string, limit = POPULAR, locale?: string): Promise<ArticleLink[]> {
  const rows = await (await db()).article.findMany({
    where: { siteId, status: "published", locale },
    select: linkSelect,
    orderBy: [{ views: "desc" }, { title: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map(toLink);
}

/** Published matches for q, best first, each with its `<<`/`>>` snippet. */
export async function searchPublished(siteId: string, q: string, limit = SEARCH_LIMIT, locale?: string): Promise<ArticleLink[]> {
  const matches = await searchArticles({ siteId, q, locale, status: "published", limit });
  return matches.map((match) => ({ ...toLink(match), snippet: match.snippet }));
}

export interface Collection {
  name: string | null;
  articles: ArticleLink[];
}

/** The home page: the published articles by collection (named ones by name, then the rest), and the most viewed. */
export async function helpCenterHome(siteId: string) {
  const site = await helpCenterSite(siteId);
  const rows = await (await db()).article.findMany({
    where: { siteId, status: "published" },
    select: { ...linkSelect, collection: true },
    orderBy: [{ title: "asc" }, { locale: "asc" }, { id: "asc" }],
  });
  const byName = new Map<string | null, ArticleLink[]>();
  for (const row of rows) byName.set(row.collection, [...(byName.get(row.collection) ?? []), toLink(row)]);
  const collections: Collection[] = [...byName.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([name, articles]) => ({ name, articles }));
  return { site, collections, popular: await popularArticles(siteId), url: helpCenterUrl(siteId) };
}

/** One published article as its page shows it, with the other locales of the same slug. */
export async function helpCenterArticle(siteId: string, locale: string, slug: string) {
  const site = await helpCenterSite(siteId);
  const prisma = await db();
  const row = await prisma.article.findFirst({ where: { siteId, locale, slug, status: "published" } });
  if (!row) throw helpCenterNotFound();
  const others = await prisma.article.findMany({
    where: { siteId, slug, status: "published", NOT: { locale } },
    select: linkSelect,
    orderBy: { locale: "asc" },
  });
  return {
    site,
    article: { id: row.id, title: row.title, locale: row.locale, collection: row.collection, updatedAt: row.updatedAt, html: renderMarkdown(row.body), url: articleUrl(row) },
    alternates: others.map(toLink),
  };
}

/** Every published article's URL and last change, for the sitemap. */
export async function helpCenterSitemap(siteId: string) {
  await helpCenterSite(siteId);
  const rows = await (await db()).article.findMany({
    where: { siteId, status: "published" },
    select: { ...linkSelect, updatedAt: true },
    orderBy: [{ locale: "asc" }, { slug: "asc" }],
  });
  return { home: helpCenterUrl(siteId), articles: rows.map((row) => ({ url: articleUrl(row), updatedAt: row.updatedAt })) };
}
