import { z } from "zod";
import { createSiteBody, updateSiteBody } from "../../../contracts/sites";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const inboxSites = routes({
  "v1/inbox/sites": {
    GET: {
      summary: "Every site, by name",
      extension: true,
      answers: { 200: z.array(wire.site) },
    },
    POST: {
      summary: "Create a site (owners)",
      extension: true,
      body: createSiteBody,
      answers: { 201: wire.site },
      errors: ["already_exists"],
    },
  },
  "v1/inbox/sites/[siteID]": {
    PATCH: {
      summary: "Update a site (owners)",
      extension: true,
      body: updateSiteBody,
      answers: { 200: wire.site },
      errors: ["site_not_found"],
    },
  },
});
