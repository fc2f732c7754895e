import { ok } from "@/lib/http/envelope";
import { defineRoute, inboxRoute } from "@/lib/api/route";
import { updateArticleBody } from "@/lib/contracts/articles";
import { deleteArticle, updateArticle } from "@/lib/articles/commands";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("inbox", {
  PATCH: inboxRoute({ role: "owner", body: updateArticleBody, audit: { action: "article.updated" } }, async ({ params, body }) => ok(await updateArticle(params.id!, body), "Article updated.")),
  DELETE: inboxRoute({ role: "owner", audit: { action: "article.deleted" } }, async ({ params }) => ok(await deleteArticle(params.id!), "Article deleted.")),
});
