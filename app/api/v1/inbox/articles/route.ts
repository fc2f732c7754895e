import { created, ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { createArticleBody, listArticlesQuery } from "@/lib/contracts/articles";
import { createArticle } from "@/lib/articles/commands";
import { listArticles } from "@/lib/articles/views";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  GET: inboxRoute({ query: listArticlesQuery }, async ({ query }) => ok(await listArticles(query))),
  POST: inboxRoute({ role: "owner", body: createArticleBody, audit: { action: "article.created" } }, async ({ body }) => created(await createArticle(body), "Article created.")),
});
