import { created, ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { createArticleBody, listArticlesQuery } from "@/lib/contracts/articles";
import { createArticle } from "@/lib/articles/commands";
import { listArticles } from "@/lib/articles/views";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  GET: adminRoute({ query: listArticlesQuery }, async ({ query }) => ok(await listArticles(query))),
  POST: adminRoute({ body: createArticleBody, audit: { action: "article.created" } }, async ({ body }) => created(await createArticle(body), "Article created.")),
});
