import * as workspace from "../../../contracts/workspace-wire";
import { routes } from "../../operation";

// @mentions in notes (decisions.md round 3; docs/api.md, "Triage (inbox)").

export const inboxMentions = routes({
  "v1/inbox/mentions": {
    GET: {
      summary: "The signed-in member's latest @mentions in notes",
      extension: true,
      answers: { 200: workspace.mentionList },
    },
  },
});
