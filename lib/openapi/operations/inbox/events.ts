import { routes } from "../../operation";

export const inboxEvents = routes({
  "v1/inbox/events": {
    GET: {
      summary: "The live event stream (Server-Sent Events)",
      description:
        "`retry: 2000` and `data: {\"type\":\"ready\"}` first, then one `data:` line per event (`message`, `conversation`, `typing`, `resync`; ids only), " +
        "and a `: keep-alive` comment every 15 s. It ends when its session ends (sign-out, deactivation). " +
        "At most 10 open streams per session and per member (counted per server process): 429 beyond.",
      extension: true,
      answers: {},
      errors: ["rate_limited"],
      rawAnswer: { status: 200, contentType: "text/event-stream", description: "A stream of inbox events (docs/api.md, Inbox API)." },
    },
  },
});
