import { expect, test } from "vitest";
import { addStrings, fmt, setLanguage, T } from "../../widget/src/shared/strings";
import { EN } from "../../widget/src/strings/panel";
import { HOURS_EN } from "../../widget/src/strings/hours";

// A language arrives as values in English's key order, part by part (scripts/build-widget.mjs).

test("English first; a language laid over the panel's part and over a chunk's part loaded later", () => {
  expect(T.title).toBe("Chat with us");
  const panel = Object.keys(EN).map((key) => (key === "title" ? "Schreiben Sie uns" : EN[key as keyof typeof EN]));
  const hours = Object.keys(HOURS_EN).map((key) => `de:${key} {time}`);
  setLanguage({ panel, hours });
  expect(T.title).toBe("Schreiben Sie uns");
  addStrings("hours", HOURS_EN);
  expect(T.backToday).toBe("de:backToday {time}");
  expect(fmt("backToday", { time: "09:00" })).toBe("de:backToday 09:00");
});

test("a placeholder without a value stays as written", () => {
  expect(fmt("unread", {})).toBe("{n} unread");
  expect(fmt("unread", { n: 3 })).toBe("3 unread");
});
