import type { TimelineEntry } from "@/lib/reports/metrics";
import type { ServiceHours } from "@/lib/service-hours/service-hours";

// A conversation's timeline and the service-hours schedules that the reports' and the SLA clock's
// tests both measure against: Berlin office hours with Christmas off, and Berlin Saturday nights
// (across both DST changes).

export const at = (iso: string) => new Date(iso);
export const visitor = (iso: string): TimelineEntry => ({ at: at(iso), kind: "visitor" });
export const person = (iso: string): TimelineEntry => ({ at: at(iso), kind: "staff", bot: false });
export const bot = (iso: string): TimelineEntry => ({ at: at(iso), kind: "staff", bot: true });
export const closed = (iso: string): TimelineEntry => ({ at: at(iso), kind: "closed" });
export const reopened = (iso: string): TimelineEntry => ({ at: at(iso), kind: "reopened" });

export const weekdays = (periods: [string, string][]) => ({ mon: periods, tue: periods, wed: periods, thu: periods, fri: periods });
export const berlinOffice: ServiceHours = { timezone: "Europe/Berlin", hours: weekdays([["09:00", "17:30"]]), holidays: ["2026-12-25"] };
export const berlinNights: ServiceHours = { timezone: "Europe/Berlin", hours: { sat: [["22:00", "06:00"]] }, holidays: [] };
