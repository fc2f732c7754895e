import { articleFeedbackBody, widgetArticle, widgetArticleList, widgetArticlesQuery } from "../../../contracts/articles";
import { routes } from "../../operation";

const WIDGET_NOTE = "Published articles of a site whose help center is enabled; otherwise (disabled, a draft, another site's article) 404 `not_found`. Limited per client IP (RATE_LIMIT_ARTICLES_PER_MINUTE, 120).";

export const widgetArticles = routes({
  "v1/chat/widget/[siteID]/articles": {
    GET: {
      summary: "Articles matching what the visitor types",
      description: `${WIDGET_NOTE} \`q\` as the inbox search (accents, stemming, the last word as a prefix; operators are words, never a syntax error), snippets with \`<<\` \`>>\`; an empty \`q\` lists the most viewed, each with its opening words.`,
      extension: true,
      query: widgetArticlesQuery,
      answers: { 200: widgetArticleList },
      errors: ["not_found"],
    },
  },
  "v1/chat/widget/[siteID]/articles/[id]": {
    GET: {
      summary: "One article, rendered (counts a view)",
      description: `${WIDGET_NOTE} \`body_html\` comes from the one sanitizing Markdown renderer (docs/answers.md).`,
      extension: true,
      answers: { 200: widgetArticle },
      errors: ["not_found"],
    },
  },
  "v1/chat/widget/[siteID]/articles/[id]/feedback": {
    POST: {
      summary: "The visitor's vote on an article",
      description: `${WIDGET_NOTE} One vote per \`visitor_id\` and article: a second replaces the first.`,
      extension: true,
      body: articleFeedbackBody,
      answers: { 201: null },
      errors: ["not_found"],
    },
  },
});
