import { z } from "zod";
import { attributeDefinition, createAttributeBody, deletedAttribute } from "../../../contracts/attributes";
import { routes } from "../../operation";

// Visitor attributes (decisions.md, round 4, "Visitor attributes and the pre-chat form";
// docs/attributes.md). The list's `attr.<key>` filters are in ./conversations.ts; the pre-chat
// form is a site setting.

export const inboxAttributes = routes({
  "v1/inbox/attributes": {
    GET: {
      summary: "Every visitor attribute definition, by key",
      extension: true,
      answers: { 200: z.array(attributeDefinition) },
    },
    POST: {
      summary: "Define a visitor attribute (owners)",
      description: "`key`: a-z, 0-9 and _ (1..40; `name`, `email` and `attributes` are reserved), unique: 409 `already_exists`. `options` only for (and required by) a `list`.",
      extension: true,
      body: createAttributeBody,
      answers: { 201: attributeDefinition },
      errors: ["already_exists"],
    },
  },
  "v1/inbox/attributes/[key]": {
    DELETE: {
      summary: "Delete a visitor attribute (owners): its values leave every conversation",
      extension: true,
      answers: { 200: deletedAttribute },
      errors: ["not_found"],
    },
  },
});
