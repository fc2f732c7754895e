import { z } from "zod";
import { article, articleFeedbackBody, createArticleBody, listArticlesQuery, updateArticleBody, widgetArticle, widgetArticleList, widgetArticlesQuery } from "../contracts/articles";
import type { Operation } from "./operation";

// Help center articles (decisions.md, round 4, "Help center (self-service)"; docs/api.md,
// "Articles"): the same operations in the inbox (members read, owners write) and the operator API.

const deletedArticle = z.object({ id: z.string(), deleted: z.literal(true) });

const LIST =
  "`?site=&locale=&status=` filter; `q` searches titles and bodies as the inbox search does (accents, English stemming, the last word as a prefix), " +
  "best match first (at most 50), each item then with a `snippet` whose matched words are wrapped in `<<` `>>`. Without `q`: last changed first.";
const CREATE =
  "`locale` defaults to the site's (else `en`), `slug` to one made from the title, `status` to `draft`. A slug already used by the site in that locale: 409 `already_exists`. An unknown `site_id`: 404 `site_not_found`.";

const operations = (family: "inbox" | "admin"): Operation[] => {
  const base = `/api/v1/${family}/articles`;
  const who = family === "inbox" ? " (owners)" : "";
  return [
    { method: "GET", path: base, family, summary: "Help center articles", description: LIST, extension: true, query: listArticlesQuery, answers: { 200: z.array(article) } },
    { method: "POST", path: base, family, summary: `Write an article${who}`, description: CREATE, extension: true, body: createArticleBody, answers: { 201: article }, errors: ["already_exists", "site_not_found"] },
    { method: "PATCH", path: `${base}/{id}`, family, summary: `Change an article${who}`, description: "Publishing sets `published_at` the first time.", extension: true, body: updateArticleBody, answers: { 200: article }, errors: ["not_found", "already_exists"] },
    { method: "DELETE", path: `${base}/{id}`, family, summary: `Delete an article${who}`, extension: true, answers: { 200: deletedArticle }, errors: ["not_found"] },
  ];
};

const WIDGET = "/api/v1/chat/widget/{siteID}/articles";
const WIDGET_NOTE = "Published articles of a site whose help center is enabled; otherwise (disabled, a draft, another site's article) 404 `not_found`. Limited per client IP (RATE_LIMIT_ARTICLES_PER_MINUTE, 120).";

const widgetOperations: Operation[] = [
  {
    method: "GET",
    path: WIDGET,
    family: "widget",
    summary: "Articles matching what the visitor types",
    description: `${WIDGET_NOTE} \`q\` as the inbox search (accents, stemming, the last word as a prefix; operators are words, never a syntax error), snippets with \`<<\` \`>>\`; an empty \`q\` lists the most viewed, each with its opening words.`,
    extension: true,
    query: widgetArticlesQuery,
    answers: { 200: widgetArticleList },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${WIDGET}/{id}`,
    family: "widget",
    summary: "One article, rendered (counts a view)",
    description: `${WIDGET_NOTE} \`body_html\` comes from the one sanitizing Markdown renderer (docs/answers.md).`,
    extension: true,
    answers: { 200: widgetArticle },
    errors: ["not_found"],
  },
  {
    method: "POST",
    path: `${WIDGET}/{id}/feedback`,
    family: "widget",
    summary: "The visitor's vote on an article",
    description: `${WIDGET_NOTE} One vote per \`visitor_id\` and article: a second replaces the first.`,
    extension: true,
    body: articleFeedbackBody,
    answers: { 201: null },
    errors: ["not_found"],
  },
];

export const articleOperations: Operation[] = [...operations("inbox"), ...operations("admin"), ...widgetOperations];
