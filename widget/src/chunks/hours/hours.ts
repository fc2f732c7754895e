// The hours chunk (public/widget/hours-<hash>.js), loaded only while the site is outside its hours.
// "We're back …" for a site outside its service hours (docs/service-hours.md): the opening time in
// the visitor's own time zone (the browser's) and, where it speaks the widget's language, its own
// conventions (en-GB: 09:00, en-US: 09:00 AM).
import type { HoursChunk } from "../../shared/chunk-apis";
import { addStrings, fmt, T } from "../../shared/strings";
import type { ParleyWindow } from "../../shared/global";
import { HOURS_EN } from "../../strings/hours";

const midnight = (day: Date) => new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();

/** The sentence for next_open_at, or "" when the site never opens. */
export function backAt(iso: string | null, now = new Date()): string {
  if (!iso) return "";
  const at = new Date(iso);
  const lang = navigator.language.split("-")[0] === T.lang ? navigator.language : T.lang;
  const time = at.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  // Rounded: a day across a DST switch is 23 or 25 hours long
  const days = Math.round((midnight(at) - midnight(now)) / 864e5);
  if (days <= 0) return fmt("backToday", { time });
  if (days === 1) return fmt("backTomorrow", { time });
  const day = at.toLocaleDateString(lang, days < 7 ? { weekday: "long" } : { weekday: "long", day: "numeric", month: "long" });
  return fmt("backOn", { day, time });
}

addStrings("hours", HOURS_EN);
const HOURS: HoursChunk = { backAt };

(window as ParleyWindow).Parley?._chunk?.("hours", HOURS);
