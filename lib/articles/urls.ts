import { serviceOrigin } from "../core/env";

// Where an article and its help center live publicly (app/help/): absolute, for links from the
// widget, bot answers, emails and the sitemap.

export const helpCenterUrl = (siteId: string) => `${serviceOrigin()}/help/${encodeURIComponent(siteId)}`;

export const articleUrl = (article: { siteId: string; locale: string; slug: string }) =>
  `${helpCenterUrl(article.siteId)}/${encodeURIComponent(article.locale)}/${article.slug}`;
