import { helpCenterSitemap } from "./help-center";

// GET /help/{siteID}/sitemap.xml (sitemaps.org 0.9): the home page and every published article.

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const xml = (text: string) => text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character]!);

export async function helpCenterSitemapXml(siteId: string): Promise<string> {
  const { home, articles } = await helpCenterSitemap(siteId);
  const entries = [
    `  <url><loc>${xml(home)}</loc></url>`,
    ...articles.map((article) => `  <url><loc>${xml(article.url)}</loc><lastmod>${article.updatedAt.toISOString()}</lastmod></url>`),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
}
