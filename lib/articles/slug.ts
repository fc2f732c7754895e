import { MAX_ARTICLE_SLUG } from "../contracts/articles";

// A slug made from a title when none is given: letters folded to a-z (accents dropped by Unicode
// decomposition), runs of anything else one `-`. A title of no Latin letters or digits ("Über" is
// fine, "配送" is not) gets "article"; a taken slug is a 409 the writer resolves by choosing one.

export function slugFromTitle(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_ARTICLE_SLUG)
    .replace(/^-+|-+$/g, "");
  return slug || "article";
}
