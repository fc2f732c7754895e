import { z } from "zod";
import { attributeDefinition, conversationAttributesBody, conversationAttributesResult, createAttributeBody, deletedAttribute } from "../contracts/attributes";
import type { Operation } from "./operation";

// Visitor attributes in the inbox's API (decisions.md, round 4, "Visitor attributes and the
// pre-chat form"; docs/attributes.md). The list's `attr.<key>` filters are on GET
// /inbox/conversations (inbox-operations.ts); the pre-chat form is a site setting.

const INBOX = "/api/v1/inbox";

export const attributeOperations: Operation[] = [
  {
    method: "GET",
    path: `${INBOX}/attributes`,
    family: "inbox",
    summary: "Every visitor attribute definition, by key",
    extension: true,
    answers: { 200: z.array(attributeDefinition) },
  },
  {
    method: "POST",
    path: `${INBOX}/attributes`,
    family: "inbox",
    summary: "Define a visitor attribute (owners)",
    description: "`key`: a-z, 0-9 and _ (1..40; `name`, `email` and `attributes` are reserved), unique: 409 `already_exists`. `options` only for (and required by) a `list`.",
    extension: true,
    body: createAttributeBody,
    answers: { 201: attributeDefinition },
    errors: ["already_exists"],
  },
  {
    method: "DELETE",
    path: `${INBOX}/attributes/{key}`,
    family: "inbox",
    summary: "Delete a visitor attribute (owners): its values leave every conversation",
    extension: true,
    answers: { 200: deletedAttribute },
    errors: ["not_found"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/conversations/{id}/attributes`,
    family: "inbox",
    summary: "Set or remove (null) a conversation's attribute values",
    description:
      "Body `{attributes: {key: value | null}}` (a bare `{key: value}` is read the same). Each value must be of its definition's type (text, number, date as YYYY-MM-DD, boolean, one of a list's options, an http(s) link); an unknown key or a wrong type: 400, nothing saved. A change writes the staff timeline event `attributes_changed`.",
    extension: true,
    body: conversationAttributesBody,
    answers: { 200: conversationAttributesResult },
    errors: ["conversation_not_found", "not_found"],
  },
];
