import { expect, test } from "vitest";
import { createEmitter } from "../../widget/src/shared/emitter";

test("listeners hear their own event with its payload, in the order they were added", () => {
  const events = createEmitter<{ arrived: number; saved: undefined }>();
  const heard: string[] = [];
  events.on("arrived", (n) => heard.push(`first ${n}`));
  events.on("arrived", (n) => heard.push(`second ${n}`));
  events.on("saved", () => heard.push("saved"));
  events.emit("arrived", 7);
  events.emit("saved");
  expect(heard).toEqual(["first 7", "second 7", "saved"]);
});

test("an event nobody listens to is a no-op", () => {
  const events = createEmitter<{ saved: undefined }>();
  expect(() => events.emit("saved")).not.toThrow();
});
