import { z } from "zod";
import { createRuleBody, deletedRule, rule, ruleRun, ruleTestResult, testRuleBody, updateRuleBody } from "../../../contracts/rules";
import { routes } from "../../operation";

// Rules (decisions.md, round 4, "Rules"; docs/rules.md): owners only.

export const inboxRules = routes({
  "v1/inbox/rules": {
    GET: {
      summary: "Every rule, in the order they run (owners)",
      extension: true,
      answers: { 200: z.array(rule) },
    },
    POST: {
      summary: "Create a rule, last in the list (owners)",
      description:
        "An operator that does not fit its field's type, an unknown field or attribute, or an action naming a team, member, label or team saved reply that does not exist: 400 naming it, nothing saved.",
      extension: true,
      body: createRuleBody,
      answers: { 201: rule },
    },
  },
  "v1/inbox/rules/[id]": {
    PATCH: {
      summary: "Change a rule, enable or disable it, or move it (`position`, 0 first) (owners)",
      extension: true,
      body: updateRuleBody,
      answers: { 200: rule },
      errors: ["not_found"],
    },
    DELETE: {
      summary: "Delete a rule and its runs (owners)",
      extension: true,
      answers: { 200: deletedRule },
      errors: ["not_found"],
    },
  },
  "v1/inbox/rules/test": {
    POST: {
      summary: "Test a rule on a conversation: each condition's outcome and what would be done, changing nothing (owners)",
      extension: true,
      body: testRuleBody,
      answers: { 200: ruleTestResult },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/rules/[id]/runs": {
    GET: {
      summary: "A rule's last 100 runs, newest first (owners)",
      extension: true,
      answers: { 200: z.array(ruleRun) },
      errors: ["not_found"],
    },
  },
});
