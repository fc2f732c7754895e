import { z } from "zod";
import { presenceQuery } from "../../../contracts/presence";
import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const visitorPresence = routes({
  "v1/chat/visitor/presence": {
    GET: {
      summary: "Read typing presence (and set the visitor's own with `typing`)",
      query: presenceQuery,
      answers: { 200: z.array(wire.presenceEntry) },
    },
  },
});
