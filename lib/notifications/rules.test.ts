import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { WEBHOOK_EVENTS } from "../contracts/webhooks";
import { deliverToWebhooks } from "../webhooks/webhook-consumer";
import { consumersOf, RULES } from "./rules";

test("every event a webhook may take goes to the webhook consumer", () => {
  for (const type of WEBHOOK_EVENTS) expect(consumersOf(type)).toContain(deliverToWebhooks);
});

test("an event type the rules do not know has no consumer (the dispatcher deletes it)", () => {
  expect(consumersOf("something.new")).toEqual([]);
  expect(consumersOf("constructor")).toEqual([]);
});

test("docs/notifications.md's copy of the table names the consumers rules.ts runs, in its order", () => {
  const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/notifications.md"), "utf8");
  const section = doc.slice(doc.indexOf("## What each event causes"), doc.indexOf("## The loops"));
  const documented = new Map<string, string[]>();
  for (const [, events, consumers] of section.matchAll(/^\| (`[^|]+`) \| ([^|]+) \|$/gm)) {
    const names = [...consumers!.matchAll(/`(\w+)`/g)].map(([, name]) => name!);
    for (const [, type] of events!.matchAll(/`([\w.]+)`/g)) documented.set(type!, names);
  }
  expect(Object.fromEntries(documented)).toEqual(
    Object.fromEntries(Object.entries(RULES).map(([type, consumers]) => [type, consumers.map((consumer) => consumer.name)])),
  );
});
