import { z } from "zod";
import { conversationLabelsBody, createLabelBody, updateLabelBody } from "../contracts/labels";
import { createSavedReplyBody, updateSavedReplyBody } from "../contracts/saved-replies";
import * as workspace from "../contracts/workspace-wire";
import type { Operation } from "./operation";

// The agent's workspace in the inbox's API (decisions.md, round 3: saved replies and labels;
// docs/api.md, "Saved replies and labels (inbox)"). The list's `label` filter is on
// GET /inbox/conversations (inbox-operations.ts).

const INBOX = "/api/v1/inbox";

export const workspaceOperations: Operation[] = [
  {
    method: "GET",
    path: `${INBOX}/saved-replies`,
    family: "inbox",
    summary: "The team's saved replies and the signed-in member's own, by shortcut",
    extension: true,
    answers: { 200: z.array(workspace.savedReply) },
  },
  {
    method: "POST",
    path: `${INBOX}/saved-replies`,
    family: "inbox",
    summary: "Create a saved reply (team replies: owners)",
    description: "`scope: \"team\"` needs an owner (403 `forbidden`); a `personal` reply is the signed-in member's own. A shortcut already used in that scope: 409 `already_exists`.",
    extension: true,
    body: createSavedReplyBody,
    answers: { 201: workspace.savedReply },
    errors: ["already_exists"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/saved-replies/{id}`,
    family: "inbox",
    summary: "Change a saved reply (team replies: owners)",
    description: "Another member's personal reply is 404 `not_found`, as an unknown id. Moving a reply to `team` needs an owner; a team reply moved to `personal` becomes the owner's own.",
    extension: true,
    body: updateSavedReplyBody,
    answers: { 200: workspace.savedReply },
    errors: ["not_found", "already_exists"],
  },
  {
    method: "DELETE",
    path: `${INBOX}/saved-replies/{id}`,
    family: "inbox",
    summary: "Delete a saved reply (team replies: owners)",
    extension: true,
    answers: { 200: workspace.deletedSavedReply },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/labels`,
    family: "inbox",
    summary: "Every label, by name",
    extension: true,
    answers: { 200: z.array(workspace.label) },
  },
  {
    method: "POST",
    path: `${INBOX}/labels`,
    family: "inbox",
    summary: "Create a label (owners)",
    description: "Names are unique without regard to case: 409 `already_exists`.",
    extension: true,
    body: createLabelBody,
    answers: { 201: workspace.label },
    errors: ["already_exists"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/labels/{id}`,
    family: "inbox",
    summary: "Rename or recolour a label (owners)",
    extension: true,
    body: updateLabelBody,
    answers: { 200: workspace.label },
    errors: ["not_found", "already_exists"],
  },
  {
    method: "DELETE",
    path: `${INBOX}/labels/{id}`,
    family: "inbox",
    summary: "Delete a label (owners); it leaves every conversation",
    extension: true,
    answers: { 200: workspace.deletedLabel },
    errors: ["not_found"],
  },
  {
    method: "PUT",
    path: `${INBOX}/conversations/{id}/labels`,
    family: "inbox",
    summary: "Set a conversation's labels (the whole set)",
    description: "An id that names no label: 400 `invalid_request` with `fields: [{path: \"labels.<index>\"}]`, nothing changed.",
    extension: true,
    body: conversationLabelsBody,
    answers: { 200: workspace.conversationLabels },
    errors: ["conversation_not_found"],
  },
];
