import * as wire from "../../../contracts/notification-wire";
import { routes } from "../../operation";

export const cronDispatch = routes({
  "v1/cron/dispatch": {
    GET: {
      summary: "Deliver what is due (Vercel Cron, every minute)",
      description:
        "Runs pg-boss's maintenance, then delivery rounds (the outbox, due jobs, due webhook attempts) until one finds nothing or about 40 s have passed.",
      extension: true,
      answers: { 200: wire.drainedDeliveries },
    },
  },
});
