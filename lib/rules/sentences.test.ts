import { expect, test } from "vitest";
import { describeRule } from "./sentences";

test("a rule reads as the issue's sentence, with names in place of ids", () => {
  const names = new Map([
    ["lb_sales", "Sales"],
    ["tm_sales", "Sales"],
  ]);
  const rule = {
    event: "conversation.created" as const,
    idle_minutes: null,
    conditions: [{ field: "page_url", op: "eq" as const, value: "/pricing" }],
    actions: [
      { type: "add_label" as const, label_id: "lb_sales" },
      { type: "assign_team" as const, team_id: "tm_sales" },
    ],
  };
  expect(describeRule(rule, names)).toBe("When a conversation starts and the page is /pricing, add label Sales and assign team Sales");
  expect(describeRule({ ...rule, event: "conversation.idle", idle_minutes: 30, conditions: [{ field: "within_hours", op: "eq", value: false }], actions: [{ type: "close" }] })).toBe(
    "When a conversation is quiet for 30 min and outside service hours, close it",
  );
});
