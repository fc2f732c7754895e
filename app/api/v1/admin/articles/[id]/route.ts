import { ok } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { updateArticleBody } from "@/lib/contracts/articles";
import { deleteArticle, updateArticle } from "@/lib/articles/commands";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  PATCH: adminRoute({ body: updateArticleBody, audit: { action: "article.updated" } }, async ({ params, body }) => ok(await updateArticle(params.id!, body), "Article updated.")),
  DELETE: adminRoute({ audit: { action: "article.deleted" } }, async ({ params }) => ok(await deleteArticle(params.id!), "Article deleted.")),
});
