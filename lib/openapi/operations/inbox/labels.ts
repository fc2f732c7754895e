import { z } from "zod";
import { createLabelBody, updateLabelBody } from "../../../contracts/labels";
import * as workspace from "../../../contracts/workspace-wire";
import { routes } from "../../operation";

// Labels (decisions.md, round 3; docs/api.md, "Saved replies and labels (inbox)"). A conversation's
// labels and the list's `label` filter are in ./conversations.ts.

export const inboxLabels = routes({
  "v1/inbox/labels": {
    GET: {
      summary: "Every label, by name",
      extension: true,
      answers: { 200: z.array(workspace.label) },
    },
    POST: {
      summary: "Create a label (owners)",
      description: "Names are unique without regard to case: 409 `already_exists`.",
      extension: true,
      body: createLabelBody,
      answers: { 201: workspace.label },
      errors: ["already_exists"],
    },
  },
  "v1/inbox/labels/[id]": {
    PATCH: {
      summary: "Rename or recolour a label (owners)",
      extension: true,
      body: updateLabelBody,
      answers: { 200: workspace.label },
      errors: ["not_found", "already_exists"],
    },
    DELETE: {
      summary: "Delete a label (owners); it leaves every conversation",
      extension: true,
      answers: { 200: workspace.deletedLabel },
      errors: ["not_found"],
    },
  },
});
