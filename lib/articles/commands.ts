import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { AppError } from "../core/errors";
import type { CreateArticleInput, UpdateArticleInput, WireArticle } from "../contracts/articles";
import { articleNotFound, articleView, readArticle, toWireArticles } from "./views";
import { slugFromTitle } from "./slug";
import { forgetSiteSuggestions } from "./suggestion-cache";

// Writing articles (owners and the operator token; the routes check who). A slug is unique per
// site and locale by one unique index: a taken one is 409 `already_exists`, nothing changed.
// `published_at` is the first publication's time, kept when an article goes back to draft and out
// again (the help center dates it by `updated_at`).

const slugTaken = () => new AppError("already_exists", "Another article of this site and locale already has this slug.");
/** The site's language when set (the widget's), else English. */
const DEFAULT_LOCALE = "en";

async function siteLocale(siteId: string): Promise<string> {
  const site = await (await db()).site.findUnique({ where: { id: siteId }, select: { locale: true } });
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
  return site.locale ?? DEFAULT_LOCALE;
}

const publishedAtFor = (status: string | undefined, now: Date) => (status === "published" ? now : undefined);

export async function createArticle(input: CreateArticleInput): Promise<WireArticle> {
  const locale = input.locale ?? (await siteLocale(input.site_id));
  if (input.locale) await siteLocale(input.site_id); // the site must exist either way
  const now = new Date();
  try {
    const row = await (await db()).article.create({
      data: {
        id: `art_${randomUUID()}`,
        siteId: input.site_id,
        title: input.title,
        body: input.body,
        locale,
        slug: input.slug ?? slugFromTitle(input.title),
        collection: input.collection ?? null,
        status: input.status ?? "draft",
        publishedAt: publishedAtFor(input.status, now) ?? null,
        createdAt: now,
        updatedAt: now,
      },
      select: articleView,
    });
    forgetSiteSuggestions(input.site_id);
    return (await toWireArticles([row]))[0]!;
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
}

export async function updateArticle(id: string, input: UpdateArticleInput): Promise<WireArticle> {
  const prisma = await db();
  const now = new Date();
  let siteId: string | null = null;
  try {
    await prisma.$transaction(async (tx) => {
      const existing = await tx.article.findUnique({ where: { id }, select: { publishedAt: true, siteId: true } });
      if (!existing) throw articleNotFound();
      siteId = existing.siteId;
      await tx.article.update({
        where: { id },
        data: {
          title: input.title,
          body: input.body,
          locale: input.locale,
          slug: input.slug,
          collection: input.collection,
          status: input.status,
          publishedAt: existing.publishedAt ? undefined : publishedAtFor(input.status, now),
          updatedAt: now,
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  } finally {
    // After the commit (or a rollback: forgetting too much costs one lookup).
    if (siteId) forgetSiteSuggestions(siteId);
  }
  return readArticle(id);
}

export async function deleteArticle(id: string) {
  const prisma = await db();
  const article = await prisma.article.findUnique({ where: { id }, select: { siteId: true } });
  const { count } = await prisma.article.deleteMany({ where: { id } });
  if (!article || count === 0) throw articleNotFound();
  forgetSiteSuggestions(article.siteId);
  return { id, deleted: true as const };
}
