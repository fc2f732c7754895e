import { describe, expect, test } from "vitest";
import { hoursClock } from "./hours-clock";
import { explainCycle, formatDuration, measureCycles, toWireMetrics } from "./metrics";
import { at, visitor, person, bot, closed, reopened, berlinOffice, berlinNights } from "../../tests/support/timelines";

// The definitions (decisions.md, round 3; docs/reports.md), one constructed timeline each.

const always = hoursClock(null);

describe("cycles", () => {
  test("the first starts at the first visitor message; a staff message before it responds to nothing", () => {
    const cycles = measureCycles([person("2026-11-26T09:00:00Z"), visitor("2026-11-26T10:00:00Z"), person("2026-11-26T10:01:30Z")], always);
    expect(toWireMetrics(cycles)).toEqual({ cycles: [{ started_at: "2026-11-26T10:00:00.000Z", first_response_s: 90, resolution_s: null }] });
  });

  test("a reopen starts a cycle; its first response waits for the visitor's first message after it", () => {
    const timeline = [
      visitor("2026-11-26T10:00:00Z"),
      person("2026-11-26T10:01:00Z"),
      closed("2026-11-26T10:30:00Z"),
      reopened("2026-11-26T12:00:00Z"),
      person("2026-11-26T12:05:00Z"),
      visitor("2026-11-26T12:10:00Z"),
      person("2026-11-26T12:20:00Z"),
      closed("2026-11-26T13:00:00Z"),
    ];
    expect(toWireMetrics(measureCycles(timeline, always)).cycles).toEqual([
      { started_at: "2026-11-26T10:00:00.000Z", first_response_s: 60, resolution_s: 1800 },
      { started_at: "2026-11-26T12:00:00.000Z", first_response_s: 600, resolution_s: 3600 },
    ]);
  });

  test("a reopened cycle without a visitor message has no first response, and says why", () => {
    const [, cycle] = measureCycles([visitor("2026-11-26T10:00:00Z"), closed("2026-11-26T10:30:00Z"), reopened("2026-11-26T11:00:00Z"), closed("2026-11-26T11:10:00Z")], always);
    expect(cycle).toMatchObject({ firstResponse: null, resolution: { seconds: 600, skippedSeconds: 0 } });
    expect(explainCycle(cycle!, false).firstResponse).toBe("the visitor has not written since the reopen");
  });

  test("no visitor message, no cycle", () => {
    expect(measureCycles([person("2026-11-26T10:00:00Z"), closed("2026-11-26T10:05:00Z")], always)).toEqual([]);
  });
});

describe("first response", () => {
  test("a bot reply is ignored: the first person's reply counts, and the explanation says so", () => {
    const [cycle] = measureCycles([visitor("2026-11-26T10:00:00Z"), bot("2026-11-26T10:00:05Z"), person("2026-11-26T10:12:00Z")], always);
    expect(cycle!.firstResponse).toEqual({ seconds: 720, skippedSeconds: 0 });
    expect(cycle!.botRepliesIgnored).toBe(1);
    expect(explainCycle(cycle!, false).firstResponse).toBe("counted 12 min (the site has no service hours); bot reply ignored");
  });

  test("only bot replies: no first response yet", () => {
    const [cycle] = measureCycles([visitor("2026-11-26T10:00:00Z"), bot("2026-11-26T10:00:05Z"), bot("2026-11-26T10:00:09Z")], always);
    expect(cycle!.firstResponse).toBeNull();
    expect(explainCycle(cycle!, false).firstResponse).toBe("no reply from a person yet; 2 bot replies ignored");
  });

  test("the night outside hours is skipped (Berlin office, Thursday 17:20 to Friday 09:12)", () => {
    const clock = hoursClock(berlinOffice);
    const [cycle] = measureCycles([visitor("2026-11-26T16:20:00Z"), person("2026-11-27T08:12:00Z")], clock);
    expect(cycle!.firstResponse).toEqual({ seconds: 22 * 60, skippedSeconds: 15 * 3600 + 30 * 60 });
    expect(explainCycle(cycle!, true).firstResponse).toBe("counted 22 min inside hours; 15 h 30 min outside hours skipped");
  });

  test("a holiday is skipped whole (Christmas Friday, Thursday 17:00 to Monday 09:30)", () => {
    const [cycle] = measureCycles([visitor("2026-12-24T16:00:00Z"), person("2026-12-28T08:30:00Z")], hoursClock(berlinOffice));
    expect(cycle!.firstResponse!.seconds).toBe(3600);
  });

  test("a night period counts its real length across DST: 9 h when clocks go back, 7 h when they go forward", () => {
    const clock = hoursClock(berlinNights);
    const [autumn] = measureCycles([visitor("2026-10-24T19:00:00Z"), person("2026-10-25T06:00:00Z")], clock);
    expect(autumn!.firstResponse).toEqual({ seconds: 9 * 3600, skippedSeconds: 2 * 3600 });
    const [spring] = measureCycles([visitor("2026-03-28T20:00:00Z"), person("2026-03-29T05:00:00Z")], clock);
    expect(spring!.firstResponse).toEqual({ seconds: 7 * 3600, skippedSeconds: 2 * 3600 });
  });
});

describe("resolution", () => {
  test("from the cycle's start to its close, inside hours only", () => {
    const [cycle] = measureCycles(
      [visitor("2026-11-27T16:00:00Z"), person("2026-11-27T16:10:00Z"), closed("2026-11-30T08:30:00Z")],
      hoursClock(berlinOffice),
    );
    // Friday 17:00-17:30 Berlin, then Monday 09:00-09:30: the weekend is skipped.
    expect(cycle!.resolution).toEqual({ seconds: 3600, skippedSeconds: 64 * 3600 + 30 * 60 - 3600 });
    expect(explainCycle(cycle!, true).resolution).toBe("counted 1 h inside hours; 2 d 15 h outside hours skipped");
  });

  test("not closed: null, and said so", () => {
    const [cycle] = measureCycles([visitor("2026-11-26T10:00:00Z")], always);
    expect(toWireMetrics([cycle!]).cycles[0]!.resolution_s).toBeNull();
    expect(explainCycle(cycle!, false).resolution).toBe("not closed yet");
  });
});

describe("the hours clock", () => {
  test("answers spans before and after what it first covered", () => {
    const clock = hoursClock(berlinOffice, { from: at("2026-11-23T00:00:00Z"), to: at("2026-11-24T00:00:00Z") });
    expect(clock.split(at("2026-11-23T08:00:00Z"), at("2026-11-23T09:00:00Z")).insideMs).toBe(3600_000);
    expect(clock.split(at("2026-11-16T08:00:00Z"), at("2026-11-16T09:00:00Z")).insideMs).toBe(3600_000);
    expect(clock.split(at("2026-12-25T08:00:00Z"), at("2026-12-25T09:00:00Z")).insideMs).toBe(0);
  });

  test("durations read the two largest units", () => {
    expect([45, 720, 9 * 3600, 9 * 3600 + 300, 2 * 86400 + 3 * 3600].map(formatDuration)).toEqual(["45 s", "12 min", "9 h", "9 h 5 min", "2 d 3 h"]);
  });
});
