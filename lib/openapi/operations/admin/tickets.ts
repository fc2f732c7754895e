import { z } from "zod";
import { siteQuery } from "../../../contracts/sites";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const adminTickets = routes({
  "v1/admin/tickets": {
    GET: {
      summary: "A site's tickets with their attachments, newest first",
      extension: true,
      query: siteQuery,
      answers: { 200: z.array(wire.ticket) },
      errors: ["site_not_found"],
    },
  },
});
