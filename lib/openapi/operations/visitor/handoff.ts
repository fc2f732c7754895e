import { routes } from "../../operation";

// Answers and the human handoff (decisions.md, round 4; docs/api.md, "Talk to a person").

export const visitorHandoff = routes({
  "v1/chat/visitor/handoff": {
    POST: {
      summary: "Talk to a person",
      description:
        "No body. Appends a public system message with `event: \"handoff_requested\"` once per cycle (again in the same cycle: 200, nothing appended), " +
        "routes the conversation as a new one would be (round robin where the site uses it), and silences the bot for the rest of the cycle. " +
        "A closed conversation: 409 `conversation_closed`.",
      extension: true,
      answers: { 200: null },
      errors: ["conversation_closed"],
    },
  },
});
