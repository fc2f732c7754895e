import { randomUUID } from "node:crypto";
import { db, sqlExecutor } from "../db/client";
import type { ArticleFeedbackInput, WidgetArticlesQuery } from "../contracts/articles";
import { MAX_SNIPPET_LENGTH } from "../contracts/search";
import { helpCenterNotFound, helpCenterSite, popularArticles, searchPublished } from "./help-center";
import { excerpt } from "./plain-text";
import { renderMarkdown } from "./render-markdown";
import { COUNT_VIEW } from "./statements";
import { cachedSuggestions, suggestionKey, type Suggestions } from "./suggestion-cache";
import { articleUrl } from "./urls";
import type { WidgetSite } from "../sites/find-site";

// The widget's article routes (decisions.md, round 4): suggestions as the visitor types, one
// article to read inside the panel (a view counted), and a vote. All 404 while the help center is
// off; only published articles of the site exist for them.

/**
 * Matches for q (each with its << >> snippet), or with an empty q the most viewed (each with its
 * opening words); the same answer for a while, per site (suggestion-cache.ts). The help center's
 * switch is the one the widget route read with the site in this request, so turning it off is a
 * 404 at once.
 */
export async function suggestArticles(site: Pick<WidgetSite, "id" | "helpCenterEnabled">, query: WidgetArticlesQuery): Promise<Suggestions> {
  if (!site.helpCenterEnabled) throw helpCenterNotFound();
  const siteId = site.id;
  const q = query.q?.trim() ?? "";
  return cachedSuggestions(suggestionKey(siteId, q, query.limit, query.locale), () => lookUpSuggestions(siteId, q, query));
}

async function lookUpSuggestions(siteId: string, q: string, query: WidgetArticlesQuery): Promise<Suggestions> {
  if (q) {
    const found = await searchPublished(siteId, q, query.limit, query.locale);
    return { items: found.map(({ id, title, snippet, url, locale }) => ({ id, title, snippet: snippet ?? "", url, locale })) };
  }
  const popular = await popularArticles(siteId, query.limit, query.locale);
  const bodies = new Map(
    (await (await db()).article.findMany({ where: { id: { in: popular.map((a) => a.id) } }, select: { id: true, body: true } })).map((row) => [row.id, row.body]),
  );
  return { items: popular.map(({ id, title, url, locale }) => ({ id, title, snippet: excerpt(bodies.get(id) ?? "", MAX_SNIPPET_LENGTH), url, locale })) };
}

/** A published article of the site, rendered; its view counted. */
export async function readWidgetArticle(siteId: string, id: string) {
  await helpCenterSite(siteId);
  const sql = await sqlExecutor();
  const { rowCount } = await sql.executeSql(COUNT_VIEW, [id, siteId]);
  if (rowCount === 0) throw helpCenterNotFound();
  const row = await (await db()).article.findUniqueOrThrow({ where: { id } });
  return { id: row.id, title: row.title, body_html: renderMarkdown(row.body), url: articleUrl(row), locale: row.locale, updated_at: row.updatedAt.toISOString() };
}

/** A visitor's vote: one per visitor_id and article (a second replaces the first); without a visitor_id, a vote of its own. */
export async function recordArticleFeedback(siteId: string, id: string, input: ArticleFeedbackInput): Promise<null> {
  await helpCenterSite(siteId);
  const prisma = await db();
  const article = await prisma.article.findFirst({ where: { id, siteId, status: "published" }, select: { id: true } });
  if (!article) throw helpCenterNotFound();
  if (input.visitor_id === undefined) {
    await prisma.articleFeedback.create({ data: { id: `af_${randomUUID()}`, articleId: id, helpful: input.helpful } });
  } else {
    await prisma.articleFeedback.upsert({
      where: { articleId_visitorId: { articleId: id, visitorId: input.visitor_id } },
      create: { id: `af_${randomUUID()}`, articleId: id, visitorId: input.visitor_id, helpful: input.helpful },
      update: { helpful: input.helpful, createdAt: new Date() },
    });
  }
  return null;
}
