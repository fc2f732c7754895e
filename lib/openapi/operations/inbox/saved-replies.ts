import { z } from "zod";
import { createSavedReplyBody, updateSavedReplyBody } from "../../../contracts/saved-replies";
import * as workspace from "../../../contracts/workspace-wire";
import { routes } from "../../operation";

// Saved replies (decisions.md, round 3; docs/api.md, "Saved replies and labels (inbox)").

export const inboxSavedReplies = routes({
  "v1/inbox/saved-replies": {
    GET: {
      summary: "The team's saved replies and the signed-in member's own, by shortcut",
      extension: true,
      answers: { 200: z.array(workspace.savedReply) },
    },
    POST: {
      summary: "Create a saved reply (team replies: owners)",
      description: "`scope: \"team\"` needs an owner (403 `forbidden`); a `personal` reply is the signed-in member's own. A shortcut already used in that scope: 409 `already_exists`.",
      extension: true,
      body: createSavedReplyBody,
      answers: { 201: workspace.savedReply },
      errors: ["already_exists"],
    },
  },
  "v1/inbox/saved-replies/[id]": {
    PATCH: {
      summary: "Change a saved reply (team replies: owners)",
      description: "Another member's personal reply is 404 `not_found`, as an unknown id. Moving a reply to `team` needs an owner; a team reply moved to `personal` becomes the owner's own.",
      extension: true,
      body: updateSavedReplyBody,
      answers: { 200: workspace.savedReply },
      errors: ["not_found", "already_exists"],
    },
    DELETE: {
      summary: "Delete a saved reply (team replies: owners)",
      extension: true,
      answers: { 200: workspace.deletedSavedReply },
      errors: ["not_found"],
    },
  },
});
