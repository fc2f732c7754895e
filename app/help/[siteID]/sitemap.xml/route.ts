import { AppError } from "@/lib/core/errors";
import { helpCenterSitemapXml } from "@/lib/articles/sitemap";
import { decodeSegment } from "../../help-params";

// A public XML document, not an API answer: a plain 404 (as the help pages) when the help center is off.
export async function GET(_request: Request, { params }: { params: Promise<{ siteID: string }> }): Promise<Response> {
  const siteId = decodeSegment((await params).siteID);
  try {
    if (siteId === null) throw new AppError("not_found", "Malformed path.");
    const xml = await helpCenterSitemapXml(siteId);
    return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" } });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw error;
  }
}
