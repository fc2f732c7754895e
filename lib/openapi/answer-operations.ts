import { suggestedReply } from "../contracts/suggestions";
import type { Operation } from "./operation";

// Answers and the human handoff (decisions.md, round 4; docs/api.md, "Talk to a person").

export const answerOperations: Operation[] = [
  {
    method: "POST",
    path: "/api/v1/chat/visitor/handoff",
    family: "visitor",
    summary: "Talk to a person",
    description:
      "No body. Appends a public system message with `event: \"handoff_requested\"` once per cycle (again in the same cycle: 200, nothing appended), " +
      "routes the conversation as a new one would be (round robin where the site uses it), and silences the bot for the rest of the cycle. " +
      "A closed conversation: 409 `conversation_closed`.",
    extension: true,
    answers: { 200: null },
    errors: ["conversation_closed"],
  },
  {
    method: "POST",
    path: "/api/v1/inbox/conversations/{id}/suggest",
    family: "inbox",
    summary: "Suggest a reply",
    description:
      "No body. A draft answering the visitor's latest message, for the composer; nothing is sent. With a model configured (`AI_BASE_URL`), the model's answer " +
      "from the top three passages Parley's search found, citing them; otherwise (or when the model fails) the best of the member's saved replies or the best article " +
      "passage, whichever holds more of the question's words, each only above the bot's threshold. Nothing fits: `{body: \"\", sources: []}`.",
    extension: true,
    answers: { 200: suggestedReply },
    errors: ["conversation_not_found"],
  },
];
