import * as inbox from "../../../contracts/inbox-wire";
import { availabilityBody } from "../../../contracts/routing";
import { signInBody } from "../../../contracts/staff";
import { routes } from "../../operation";

export const inboxSession = routes({
  "v1/inbox/session": {
    POST: {
      summary: "Sign in (sets the session cookie)",
      description:
        "No session needed, but the Origin must be the service's. After 5 failed sign-ins for one email from one client IP within 15 minutes, " +
        "or while another attempt for them is being checked: 429. When too many passwords are being checked at once: 503 with Retry-After.",
      extension: true,
      body: signInBody,
      answers: { 200: inbox.signedIn },
      errors: ["invalid_credentials", "rate_limited", "forbidden"],
    },
    GET: {
      summary: "The signed-in member",
      extension: true,
      answers: { 200: inbox.sessionMember },
    },
    DELETE: {
      summary: "Sign out (the session is deleted and the cookie cleared)",
      extension: true,
      answers: { 200: null },
    },
  },
  "v1/inbox/session/availability": {
    PUT: {
      summary: "Set yourself away or online (docs/routing.md)",
      description:
        "`offline` is not a choice: a member is offline while no inbox tab (event stream) is open. Choosing `online` counts as input. " +
        "Answers the resulting availability (`offline` when no tab is open).",
      extension: true,
      body: availabilityBody,
      answers: { 200: inbox.availabilityAnswer },
    },
  },
  "v1/inbox/session/activity": {
    POST: {
      summary: "The open tab saw input (keys, pointer, focus): keeps the member from turning away when idle",
      description: "The inbox sends it at most once a minute while the member uses the tab. Answers the resulting availability.",
      extension: true,
      answers: { 200: inbox.availabilityAnswer },
    },
  },
});
