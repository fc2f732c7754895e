import { request } from "../../shared/request";
import { session } from "../../shared/session";

// The widget's article routes (decisions.md round 4, "Help center"): suggestions for what the
// visitor types, one article (its view counted) and a vote. Origin-checked widget routes: no token.

/** GET …/articles: the contract's item. The snippet marks matches with << >> (a text's own < > arrive as ‹ ›). */
export interface ArticleItem {
  id: string;
  title: string;
  snippet: string;
  url: string;
  locale: string;
}

export interface Article {
  id: string;
  title: string;
  body_html: string;
  url: string;
  locale: string;
  updated_at: string;
}

/** The route's q: one line, at most 200 characters (MAX_ARTICLE_QUERY). */
export const MAX_QUERY = 200;
export const articleQuery = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, MAX_QUERY);

const route = () => session.boot.route + "/articles";

/** Up to `limit` matching published articles; null when the call failed (the help center off is a 404). */
export async function findArticles(q: string, limit: number): Promise<ArticleItem[] | null> {
  const answer = await request("GET", route() + "?limit=" + limit + "&q=" + encodeURIComponent(articleQuery(q)));
  const items = answer.ok ? (answer.result as { items?: ArticleItem[] } | null)?.items : null;
  return Array.isArray(items) ? items : null;
}

/** One published article (its view counted), or null. */
export async function readArticle(id: string): Promise<Article | null> {
  const answer = await request("GET", route() + "/" + encodeURIComponent(id));
  const article = answer.ok ? (answer.result as Article | null) : null;
  return article && typeof article.body_html === "string" ? article : null;
}

/** The visitor's vote; one per browser (its visitor id, when it has one) and article. */
export async function voteOnArticle(id: string, helpful: boolean): Promise<boolean> {
  const visitorId = session.boot.vid();
  const body = visitorId ? { helpful, visitor_id: visitorId } : { helpful };
  return (await request("POST", route() + "/" + encodeURIComponent(id) + "/feedback", { body })).ok;
}
