import { z } from "zod";
import { createSiteBody, updateSiteBody } from "../../../contracts/sites";
import * as widgetWire from "../../../contracts/widget-wire";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const adminSites = routes({
  "v1/admin/sites": {
    POST: {
      summary: "Create a site (and its inbox)",
      extension: true,
      body: createSiteBody,
      answers: { 201: wire.site },
      errors: ["already_exists"],
    },
    GET: {
      summary: "Every site, by name",
      extension: true,
      answers: { 200: z.array(wire.site) },
    },
  },
  "v1/admin/sites/[siteID]": {
    PATCH: {
      summary: "Update a site",
      extension: true,
      body: updateSiteBody,
      answers: { 200: wire.site },
      errors: ["site_not_found"],
    },
  },
  "v1/admin/sites/[siteID]/identity-secret": {
    POST: {
      summary: "Create (or replace) the site's identity-verification secret",
      description: "The secret is shown only in this answer; calling again replaces it, and hashes made with the old one stop verifying.",
      extension: true,
      answers: { 201: widgetWire.identitySecret },
      errors: ["site_not_found"],
    },
  },
});
