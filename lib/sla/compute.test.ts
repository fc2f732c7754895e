import { describe, expect, test } from "vitest";
import type { ServiceHours } from "../service-hours/service-hours";
import { hoursClock } from "../reports/hours-clock";
import { computeSla, type SlaTargets } from "./compute";
import { slaClock } from "./sla-clock";
import { at, visitor, person, bot, closed, reopened, weekdays, berlinOffice, berlinNights } from "../../tests/support/timelines";

// The SLA clock against the service-hours fixtures the reports tests use (tests/support/timelines.ts):
// Berlin office hours with Christmas off, Berlin Saturday nights across DST, and an overnight
// period in another zone. "Now" is a fake clock: every computation takes it as an argument.

const tokyoNights: ServiceHours = { timezone: "Asia/Tokyo", hours: weekdays([["22:00", "02:00"]]), holidays: [] };

const always = slaClock(hoursClock(null), []);
const inHours = (schedule: ServiceHours, pauses: { start: string; end: string }[] = []) =>
  slaClock(hoursClock(schedule), pauses.map((pause) => ({ start: at(pause.start).getTime(), end: at(pause.end).getTime() })));
const targets = (first: number | null, next: number | null, resolution: number | null): SlaTargets => ({
  firstResponseMinutes: first,
  nextResponseMinutes: next,
  resolutionMinutes: resolution,
});
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe("due times", () => {
  test("without business hours every minute counts", () => {
    const state = computeSla(targets(15, null, 240), [visitor("2026-11-26T10:00:00Z")], always, at("2026-11-26T10:05:00Z"));
    expect(iso(state.firstResponseDueAt)).toBe("2026-11-26T10:15:00.000Z");
    expect(iso(state.resolutionDueAt)).toBe("2026-11-26T14:00:00.000Z");
    expect(state.nextResponseDueAt).toBeNull();
    expect(state.breaches).toEqual([]);
  });

  test("the night outside hours is not counted (Berlin office: Thursday 17:20 + 30 min is Friday 09:20)", () => {
    const state = computeSla(targets(30, null, null), [visitor("2026-11-26T16:20:00Z")], inHours(berlinOffice), at("2026-11-26T16:21:00Z"));
    expect(iso(state.firstResponseDueAt)).toBe("2026-11-27T08:20:00.000Z");
  });

  test("a holiday is skipped whole (Christmas Friday: Thursday 17:00 + 1 h is Monday 09:30)", () => {
    const state = computeSla(targets(60, null, null), [visitor("2026-12-24T16:00:00Z")], inHours(berlinOffice), at("2026-12-24T16:00:00Z"));
    expect(iso(state.firstResponseDueAt)).toBe("2026-12-28T08:30:00.000Z");
  });

  test("an overnight period runs into the next day (Tokyo 22:00-02:00)", () => {
    // Monday 23:30 Tokyo (14:30Z) + 3 h: 2 h 30 min until 02:00, then 30 min from Tuesday 22:00.
    const state = computeSla(targets(180, null, null), [visitor("2026-11-23T14:30:00Z")], inHours(tokyoNights), at("2026-11-23T14:30:00Z"));
    expect(iso(state.firstResponseDueAt)).toBe("2026-11-24T13:30:00.000Z");
  });

  test("DST: a Saturday night holds 9 h when clocks go back and 7 h when they go forward", () => {
    // 20:00 local on Saturday: the night opens at 22:00 and ends at 06:00 local.
    const autumn = computeSla(targets(9 * 60, null, null), [visitor("2026-10-24T18:00:00Z")], inHours(berlinNights), at("2026-10-24T18:00:00Z"));
    expect(iso(autumn.firstResponseDueAt)).toBe("2026-10-25T05:00:00.000Z"); // 06:00 CET
    const spring = computeSla(targets(7 * 60, null, null), [visitor("2026-03-28T19:00:00Z")], inHours(berlinNights), at("2026-03-28T19:00:00Z"));
    expect(iso(spring.firstResponseDueAt)).toBe("2026-03-29T04:00:00.000Z"); // 06:00 CEST
  });

  test("hours that never open give no due time", () => {
    const never: ServiceHours = { timezone: "UTC", hours: {}, holidays: [] };
    const state = computeSla(targets(5, null, 5), [visitor("2026-11-26T10:00:00Z")], inHours(never), at("2027-11-26T10:00:00Z"));
    expect(state.firstResponseDueAt).toBeNull();
    expect(state.breaches).toEqual([]);
  });
});

describe("what stops a clock", () => {
  test("a person's public reply stops the first response; a bot's does not", () => {
    const timeline = [visitor("2026-11-26T10:00:00Z"), bot("2026-11-26T10:00:05Z")];
    expect(computeSla(targets(15, null, null), timeline, always, at("2026-11-26T10:01:00Z")).firstResponseDueAt).not.toBeNull();
    const answered = computeSla(targets(15, null, null), [...timeline, person("2026-11-26T10:10:00Z")], always, at("2026-11-26T11:00:00Z"));
    expect(answered.firstResponseDueAt).toBeNull();
    expect(answered.breaches).toEqual([]);
  });

  test("a visitor message after a person's reply starts the next response; the next reply stops it", () => {
    const timeline = [visitor("2026-11-26T10:00:00Z"), person("2026-11-26T10:01:00Z"), visitor("2026-11-26T10:20:00Z"), visitor("2026-11-26T10:25:00Z")];
    const waiting = computeSla(targets(15, 10, null), timeline, always, at("2026-11-26T10:26:00Z"));
    expect(iso(waiting.nextResponseDueAt)).toBe("2026-11-26T10:30:00.000Z"); // from the first unanswered message
    const answered = computeSla(targets(15, 10, null), [...timeline, person("2026-11-26T10:28:00Z")], always, at("2026-11-26T11:00:00Z"));
    expect(answered.nextResponseDueAt).toBeNull();
    expect(answered.breaches).toEqual([]);
  });

  test("a close stops every clock, the next response's too", () => {
    const timeline = [visitor("2026-11-26T10:00:00Z"), person("2026-11-26T10:01:00Z"), visitor("2026-11-26T10:02:00Z"), closed("2026-11-26T10:05:00Z")];
    const state = computeSla(targets(15, 10, 60), timeline, always, at("2026-11-27T10:00:00Z"));
    expect([state.firstResponseDueAt, state.nextResponseDueAt, state.resolutionDueAt]).toEqual([null, null, null]);
    expect(state.breaches).toEqual([]);
  });

  test("snoozed time does not count: the due time moves by the snooze's length", () => {
    const clock = slaClock(hoursClock(null), [{ start: at("2026-11-26T10:05:00Z").getTime(), end: at("2026-11-26T11:05:00Z").getTime() }]);
    const state = computeSla(targets(15, null, null), [visitor("2026-11-26T10:00:00Z")], clock, at("2026-11-26T10:06:00Z"));
    expect(iso(state.firstResponseDueAt)).toBe("2026-11-26T11:15:00.000Z");
  });

  test("a reopen starts a new cycle with its own clocks; the old cycle's breach stays", () => {
    const timeline = [visitor("2026-11-26T10:00:00Z"), person("2026-11-26T10:30:00Z"), closed("2026-11-26T10:40:00Z"), reopened("2026-11-26T12:00:00Z"), visitor("2026-11-26T12:01:00Z")];
    const state = computeSla(targets(15, null, 120), timeline, always, at("2026-11-26T12:02:00Z"));
    expect(iso(state.firstResponseDueAt)).toBe("2026-11-26T12:16:00.000Z");
    expect(iso(state.resolutionDueAt)).toBe("2026-11-26T14:00:00.000Z");
    expect(state.breaches.map((breach) => [breach.kind, iso(breach.at)])).toEqual([["first_response", "2026-11-26T10:15:00.000Z"]]);
    expect(state.currentBreachedAt).toBeNull(); // the breach was the earlier cycle's
  });

  test("waits that start in the same millisecond keep apart: each outcome has its own key, and the same key computed again", () => {
    // A close and a reopen at the instant the first cycle started: two resolution waits from one instant.
    const t = "2026-11-26T10:00:00Z";
    const timeline = [visitor(t), closed(t), reopened(t), person("2026-11-26T10:05:00Z"), closed("2026-11-26T11:00:00Z")];
    const keys = () => computeSla(targets(15, null, 120), timeline, always, at("2026-11-26T12:00:00Z")).outcomes.map((outcome) => outcome.key);
    const ms = Date.parse(t);
    expect(keys()).toEqual([`first_response:${ms}`, `resolution:${ms}`, `resolution:${ms}#1`]);
    expect(keys()).toEqual(keys());
  });
});

describe("breaches by a fake clock", () => {
  const timeline = [visitor("2026-11-26T16:20:00Z")]; // Thursday 17:20 Berlin, 10 min before closing

  test("not breached a minute before the due time, breached at it", () => {
    const clock = inHours(berlinOffice);
    expect(computeSla(targets(30, null, null), timeline, clock, at("2026-11-27T08:19:00Z")).breaches).toEqual([]);
    const state = computeSla(targets(30, null, null), timeline, clock, at("2026-11-27T08:20:00Z"));
    expect(state.breaches).toEqual([
      {
        kind: "first_response",
        at: at("2026-11-27T08:20:00Z"),
        why: "waited 30 min inside service hours; 15 h 30 min outside them not counted (target 30 min)",
        key: "first_response:" + at("2026-11-26T16:20:00Z").getTime(),
      },
    ]);
    expect(state.currentBreachedAt).toEqual(at("2026-11-27T08:20:00Z"));
  });

  test("a late reply is a breach, explained with what was waited", () => {
    const state = computeSla(targets(30, null, null), [...timeline, person("2026-11-27T08:32:00Z")], inHours(berlinOffice), at("2026-11-28T00:00:00Z"));
    expect(state.firstResponseDueAt).toBeNull();
    expect(state.breaches.map((breach) => breach.why)).toEqual(["waited 42 min inside service hours; 15 h 30 min outside them not counted (target 30 min)"]);
  });

  test("without hours the sentence says what was waited and the snooze left out", () => {
    const clock = slaClock(hoursClock(null), [{ start: at("2026-11-26T10:05:00Z").getTime(), end: at("2026-11-26T11:05:00Z").getTime() }]);
    const state = computeSla(targets(15, null, null), [visitor("2026-11-26T10:00:00Z")], clock, at("2026-11-26T12:00:00Z"));
    expect(state.breaches.map((breach) => breach.why)).toEqual(["waited 15 min; 1 h snoozed not counted (target 15 min)"]);
  });
});
