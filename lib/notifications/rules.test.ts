import { expect, test } from "vitest";
import { WEBHOOK_EVENTS } from "../contracts/webhooks";
import { deliverToWebhooks } from "../webhooks/webhook-consumer";
import { consumersOf } from "./rules";

test("every event a webhook may take goes to the webhook consumer", () => {
  for (const type of WEBHOOK_EVENTS) expect(consumersOf(type)).toContain(deliverToWebhooks);
});

test("an event type the rules do not know has no consumer (the dispatcher deletes it)", () => {
  expect(consumersOf("something.new")).toEqual([]);
  expect(consumersOf("constructor")).toEqual([]);
});
