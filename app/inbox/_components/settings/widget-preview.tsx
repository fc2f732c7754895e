"use client";

import { useEffect, useState } from "react";
import type { WidgetConfigShape } from "@/lib/contracts/widget-config-shape";
import styles from "../../inbox.module.css";

/**
 * The config the widget reads (GET /api/v1/chat/widget/{siteID}/config), as the designer previews
 * it: the one shape the service and the widget share, less what the preview leaves to the widget's
 * defaults (availability, answers, the help center).
 */
export type PreviewConfig = Omit<WidgetConfigShape, "team_available" | "answers" | "help_center" | "departments" | "prechat">;

const DEBOUNCE_MS = 300;

// The real widget.js in a sandbox without allow-same-origin: its origin is opaque, so nothing it
// could send is ever allowed by a site; and before it loads, fetch is replaced so that the config
// is the unsaved one and no request leaves the frame at all (no page view, no conversation).
function previewDocument(config: PreviewConfig, site: string, serviceOrigin: string): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Widget preview</title></head><body>
<script>
(function () {
  var config = ${json};
  window.fetch = function (url) {
    var body = String(url).slice(-7) === "/config" ? JSON.stringify({ success: true, result: config, message: "Preview." }) : "{}";
    return Promise.resolve(new Response(body, { status: body === "{}" ? 503 : 200, headers: { "Content-Type": "application/json" } }));
  };
  window.Parley = { q: [["open", []]] };
})();
</script>
<script src="${serviceOrigin}/widget.js" data-site="${site}" async></script>
</body></html>`;
}

/** The widget as visitors will see it with these values, reloaded shortly after each change. */
export function WidgetPreview({ config, site, serviceOrigin }: { config: PreviewConfig; site: string; serviceOrigin: string }) {
  const wanted = previewDocument(config, site, serviceOrigin);
  const [shown, setShown] = useState(wanted);
  useEffect(() => {
    const timer = setTimeout(() => setShown(wanted), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  return <iframe className={styles.widgetPreview} title={`Preview of the widget on ${site}`} sandbox="allow-scripts" loading="lazy" srcDoc={shown} data-testid="widget-preview" />;
}
