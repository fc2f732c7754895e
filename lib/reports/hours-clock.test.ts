import { describe, expect, test } from "vitest";
import type { ServiceHours } from "../service-hours/service-hours";
import { hoursClock } from "./hours-clock";

// reach(), the hours clock's inverse (an SLA's due time, docs/sla.md): the instant at which a span
// counted by split() holds exactly the time asked for. The reports tests' Berlin office fixture.

const weekdays = (periods: [string, string][]) => ({ mon: periods, tue: periods, wed: periods, thu: periods, fri: periods });
const berlinOffice: ServiceHours = { timezone: "Europe/Berlin", hours: weekdays([["09:00", "17:30"]]), holidays: ["2026-12-25"] };
const at = (iso: string) => new Date(iso);

describe("reach", () => {
  test("is split's inverse across nights, weekends and a holiday", () => {
    const clock = hoursClock(berlinOffice);
    const from = at("2026-12-23T15:00:00Z"); // Wednesday 16:00 Berlin
    for (const minutes of [1, 30, 90, 8 * 60 + 30, 20 * 60, 45 * 60]) {
      const due = clock.reach(from, minutes * 60_000)!;
      expect(clock.split(from, due).insideMs).toBe(minutes * 60_000);
      expect(clock.split(from, new Date(due.getTime() - 1)).insideMs).toBeLessThan(minutes * 60_000);
    }
    // 1 h 30 min Wednesday, 8 h 30 min Thursday, Friday the 25th off, the weekend closed: Monday 09:00 + 1 h.
    expect(clock.reach(from, 11 * 3600_000)).toEqual(at("2026-12-28T09:00:00Z"));
  });

  test("from outside the hours starts counting at the next opening; without hours every minute counts", () => {
    expect(hoursClock(berlinOffice).reach(at("2026-11-28T12:00:00Z"), 60_000)).toEqual(at("2026-11-30T08:01:00Z")); // Saturday → Monday 09:01
    expect(hoursClock(null).reach(at("2026-11-28T12:00:00Z"), 60_000)).toEqual(at("2026-11-28T12:01:00Z"));
  });
});
