import { z } from "zod";
import { article, createArticleBody, listArticlesQuery, updateArticleBody } from "../../../contracts/articles";
import { routes, type RouteOperations } from "../../operation";
import { ownersOnly, type StaffApi } from "./owners";

// Help center articles (decisions.md, round 4, "Help center (self-service)"; docs/api.md,
// "Articles"): the same operations in the inbox (members read, owners write) and the operator API.

const deletedArticle = z.object({ id: z.string(), deleted: z.literal(true) });

const LIST =
  "`?site=&locale=&status=` filter; `q` searches titles and bodies as the inbox search does (accents, English stemming, the last word as a prefix), " +
  "best match first (at most 50), each item then with a `snippet` whose matched words are wrapped in `<<` `>>`. Without `q`: last changed first.";
const CREATE =
  "`locale` defaults to the site's (else `en`), `slug` to one made from the title, `status` to `draft`. A slug already used by the site in that locale: 409 `already_exists`. An unknown `site_id`: 404 `site_not_found`.";

const articles = (api: StaffApi): RouteOperations => ({
  [`v1/${api}/articles`]: {
    GET: { summary: "Help center articles", description: LIST, extension: true, query: listArticlesQuery, answers: { 200: z.array(article) } },
    POST: { summary: `Write an article${ownersOnly(api)}`, description: CREATE, extension: true, body: createArticleBody, answers: { 201: article }, errors: ["already_exists", "site_not_found"] },
  },
  [`v1/${api}/articles/[id]`]: {
    PATCH: { summary: `Change an article${ownersOnly(api)}`, description: "Publishing sets `published_at` the first time.", extension: true, body: updateArticleBody, answers: { 200: article }, errors: ["not_found", "already_exists"] },
    DELETE: { summary: `Delete an article${ownersOnly(api)}`, extension: true, answers: { 200: deletedArticle }, errors: ["not_found"] },
  },
});

export const articleOperations = routes({ ...articles("inbox"), ...articles("admin") });
