import { ok } from "@/lib/http/envelope";
import { defineRoute, widgetRoute } from "@/lib/api/route";
import { readWidgetConfig } from "@/lib/widget-config/widget-config";

// Cacheable privately for a minute, or until the site next opens or closes (decisions.md,
// docs/service-hours.md); Vary: Origin comes with every API response.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("widget", {
  GET: widgetRoute({ rateLimit: "page_views" }, async ({ site }) => {
    const { config, maxAgeSeconds } = await readWidgetConfig(site);
    return { ...ok(config, "Widget configuration."), headers: { "Cache-Control": `private, max-age=${maxAgeSeconds}` } };
  }),
});
