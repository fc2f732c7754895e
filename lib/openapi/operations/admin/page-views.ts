import { z } from "zod";
import { siteQuery } from "../../../contracts/sites";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const adminPageViews = routes({
  "v1/admin/page-views": {
    GET: {
      summary: "A site's page views, newest first",
      extension: true,
      query: siteQuery,
      answers: { 200: z.array(wire.pageView) },
      errors: ["site_not_found"],
    },
  },
});
