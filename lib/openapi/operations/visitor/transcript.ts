import { transcriptBody, transcriptQueued } from "../../../contracts/transcripts";
import { routes } from "../../operation";

export const visitorTranscript = routes({
  "v1/chat/visitor/transcript": {
    POST: {
      summary: "Email the conversation's transcript to the visitor (round 3)",
      description:
        "Any status (the widget offers it after a close). Body `{}`. Every public message with its sender and time, file names and sizes (never links), " +
        "answerable by email. Asked again with nothing new said since the last transcript: 202 and no second email. A capped automatic email: over the " +
        "recipient's caps or to an address on the suppression list it is kept in the outbox as `suppressed`, and the answer is the same 202. " +
        "400 `email_required` when the conversation has no email.",
      extension: true,
      body: transcriptBody,
      answers: { 202: transcriptQueued },
      errors: ["email_required"],
    },
  },
});
