import * as wire from "../../../contracts/widget-wire";
import { routes } from "../../operation";

// The widget's site config (docs/api.md, "The widget's site config").

export const widgetConfig = routes({
  "v1/chat/widget/[siteID]/config": {
    GET: {
      summary: "The widget's site config (title, greeting, brand colour, locale, team faces, team_available)",
      description:
        "Rate-limited as page views. Answers `Cache-Control: private, max-age=60`, the only API answer a browser may reuse (for a minute), " +
        "or fewer seconds when the site's service hours open or close sooner (round 3: `open`, `next_open_at`, `away_message`).",
      extension: true,
      answers: { 200: wire.widgetConfig },
    },
  },
});
