import * as workspace from "../../../contracts/workspace-wire";
import { routes } from "../../operation";

export const inboxMentions = routes({
  "v1/inbox/mentions": {
    GET: {
      summary: "The signed-in member's latest @mentions in notes",
      extension: true,
      answers: { 200: workspace.mentionList },
    },
  },
});
