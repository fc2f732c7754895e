import { describe, expect, test } from "vitest";
import { isOpen, nextOpenAt, serviceStatus, type ServiceHours } from "./service-hours";

const weekdays = (periods: [string, string][]) => ({ mon: periods, tue: periods, wed: periods, thu: periods, fri: periods });
const hours = (timezone: string, week: ServiceHours["hours"], holidays: string[] = []): ServiceHours => ({ timezone, hours: week, holidays });

const office = hours("Europe/Berlin", weekdays([["09:00", "17:30"]]));
const split = hours("UTC", { mon: [["09:00", "12:00"], ["13:00", "17:00"]] });
const lateTuesday = hours("UTC", { tue: [["22:00", "02:00"]] });
const sundayNight = hours("Europe/Berlin", { sun: [["22:00", "06:00"]] });
const christmas = hours("Europe/Berlin", { ...weekdays([["09:00", "17:00"]]), thu: [["22:00", "02:00"]], fri: [["22:00", "02:00"]] }, ["2026-12-25"]);
const berlinSundayEarly = hours("Europe/Berlin", { sun: [["01:00", "04:00"]] });
const berlinInGap = hours("Europe/Berlin", { sun: [["02:30", "05:00"]] });
const berlinInRepeat = hours("Europe/Berlin", { sun: [["02:30", "03:30"]] });
const newYorkSundayEarly = hours("America/New_York", { sun: [["01:00", "04:00"]] });
const newYorkNight = hours("America/New_York", { sun: [["00:30", "02:30"]] });
const newYorkOffice = hours("America/New_York", weekdays([["09:00", "17:00"]]));
const wholeDays = hours("Asia/Tokyo", { sat: [["00:00", "24:00"]], sun: [["00:00", "24:00"]] });

// [case, schedule, at (UTC), open, next opening (UTC) or null]
const cases: [string, ServiceHours, string, boolean, string | null][] = [
  ["no hours: always open", hours("Europe/Berlin", null), "2026-11-26T03:00:00Z", true, null],
  ["no period on any day: closed, never opens", hours("Europe/Berlin", { mon: [], sun: [] }), "2026-11-26T12:00:00Z", false, null],
  ["office hours, inside (Berlin winter, UTC+1)", office, "2026-11-26T08:00:00Z", true, null],
  ["office hours, just before opening", office, "2026-11-26T07:59:59Z", false, "2026-11-26T08:00:00Z"],
  ["office hours, the end is exclusive", office, "2026-11-26T16:30:00Z", false, "2026-11-27T08:00:00Z"],
  ["office hours, Friday evening waits for Monday", office, "2026-11-27T17:00:00Z", false, "2026-11-30T08:00:00Z"],
  ["several periods a day: in the first", split, "2026-11-23T11:59:00Z", true, null],
  ["several periods a day: at lunch", split, "2026-11-23T12:30:00Z", false, "2026-11-23T13:00:00Z"],
  ["several periods a day: in the second", split, "2026-11-23T13:00:00Z", true, null],
  ["overnight period: before midnight", lateTuesday, "2026-11-24T23:00:00Z", true, null],
  ["overnight period: after midnight, into Wednesday", lateTuesday, "2026-11-25T01:59:00Z", true, null],
  ["overnight period: ended, next Tuesday", lateTuesday, "2026-11-25T02:00:00Z", false, "2026-12-01T22:00:00Z"],
  ["overnight across the week's end: Sunday night", sundayNight, "2026-11-22T21:30:00Z", true, null],
  ["overnight across the week's end: Monday morning", sundayNight, "2026-11-23T04:59:00Z", true, null],
  ["overnight across the week's end: Monday after it", sundayNight, "2026-11-23T05:00:00Z", false, "2026-11-29T21:00:00Z"],
  ["holiday: closed all day, next working day after it", christmas, "2026-12-25T10:00:00Z", false, "2026-12-28T08:00:00Z"],
  ["holiday: an overnight period from the day before runs into it", christmas, "2026-12-25T00:30:00Z", true, null],
  ["holiday: an overnight period starting on it does not open", christmas, "2026-12-25T21:30:00Z", false, "2026-12-28T08:00:00Z"],
  ["Berlin clocks forward: before the skipped hour", berlinSundayEarly, "2026-03-29T00:30:00Z", true, null],
  ["Berlin clocks forward: after it (03:30 CEST)", berlinSundayEarly, "2026-03-29T01:30:00Z", true, null],
  ["Berlin clocks forward: 04:00 CEST closes, two hours after 01:00 CET", berlinSundayEarly, "2026-03-29T02:00:00Z", false, "2026-04-04T23:00:00Z"],
  ["Berlin clocks forward: a start in the skipped hour moves on by the gap", berlinInGap, "2026-03-29T00:45:00Z", false, "2026-03-29T01:30:00Z"],
  ["Berlin clocks back: the first 02:30 (CEST)", berlinSundayEarly, "2026-10-25T00:30:00Z", true, null],
  ["Berlin clocks back: the repeated 02:30 (CET)", berlinSundayEarly, "2026-10-25T01:30:00Z", true, null],
  ["Berlin clocks back: 04:00 CET closes, four hours after 01:00 CEST", berlinSundayEarly, "2026-10-25T03:00:00Z", false, "2026-11-01T00:00:00Z"],
  ["Berlin clocks back: a start in the repeated hour is its first", berlinInRepeat, "2026-10-25T00:29:00Z", false, "2026-10-25T00:30:00Z"],
  ["Berlin clocks back: a period in the repeated hour lasts two hours", berlinInRepeat, "2026-10-25T02:29:00Z", true, null],
  ["New York clocks forward: 03:30 EDT", newYorkSundayEarly, "2026-03-08T07:30:00Z", true, null],
  ["New York clocks forward: 04:00 EDT closes", newYorkSundayEarly, "2026-03-08T08:00:00Z", false, "2026-03-15T05:00:00Z"],
  ["New York clocks back: the repeated 01:30 (EST)", newYorkNight, "2026-11-01T06:30:00Z", true, null],
  ["New York clocks back: 02:30 EST closes", newYorkNight, "2026-11-01T07:30:00Z", false, "2026-11-08T05:30:00Z"],
  ["New York: Friday EDT, next opening Monday EST", newYorkOffice, "2026-10-30T21:00:00Z", false, "2026-11-02T14:00:00Z"],
  ["whole days: 24:00 ends at midnight", wholeDays, "2026-11-29T14:59:59Z", true, null],
  ["whole days: Monday in Tokyo", wholeDays, "2026-11-29T15:00:00Z", false, "2026-12-04T15:00:00Z"],
];

describe("service hours", () => {
  test.each(cases)("%s", (_name, schedule, at, open, next) => {
    expect(isOpen(schedule, new Date(at))).toBe(open);
    expect(nextOpenAt(schedule, new Date(at))?.toISOString() ?? null).toBe(next === null ? null : new Date(next).toISOString());
  });

  test("a week of holidays pushes the next opening past them", () => {
    const schedule = hours("UTC", { mon: [["09:00", "10:00"]] }, ["2026-11-30", "2026-12-07", "2026-12-14"]);
    expect(nextOpenAt(schedule, new Date("2026-11-24T00:00:00Z"))?.toISOString()).toBe("2026-12-21T09:00:00.000Z");
  });

  test("changesAt: the closing while open, the opening while closed, never without hours", () => {
    expect(serviceStatus(office, new Date("2026-11-26T10:00:00Z")).changesAt?.toISOString()).toBe("2026-11-26T16:30:00.000Z");
    expect(serviceStatus(office, new Date("2026-11-26T07:00:00Z")).changesAt?.toISOString()).toBe("2026-11-26T08:00:00.000Z");
    expect(serviceStatus(hours("UTC", null), new Date()).changesAt).toBeNull();
  });

  test("periods that touch or overlap are one opening: changesAt is the end of the last", () => {
    const schedule = hours("UTC", { mon: [["08:00", "12:00"], ["12:00", "14:00"], ["13:00", "15:00"]] });
    expect(serviceStatus(schedule, new Date("2026-11-23T09:00:00Z")).changesAt?.toISOString()).toBe("2026-11-23T15:00:00.000Z");
  });
});
