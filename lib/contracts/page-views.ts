import { z } from "zod";
import { clientId, singleLineOptionalText, singleLineValue } from "../core/validation/strings";

const isHttpUrl = (value: string) => {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
};

/** A page's address as the widget reports it. */
export const httpUrl = singleLineValue(2000).refine(isHttpUrl, "must be an absolute http(s) URL");

/** POST /widget/{siteID}/visitors. */
export const pageViewBody = z
  .strictObject({
    page_url: httpUrl,
    visitor_id: clientId(100).optional(),
    page_title: singleLineOptionalText(300).optional(),
    referrer: singleLineOptionalText(2000).optional(),
  })
  .transform(({ page_url, visitor_id, page_title, referrer }) => ({
    pageUrl: page_url,
    visitorId: visitor_id,
    pageTitle: page_title,
    referrer,
  }));

export type PageViewInput = z.output<typeof pageViewBody>;
