"use client";

import { useState, type FormEvent } from "react";
import styles from "../../inbox.module.css";
import { useSave } from "../shared/use-save";
import { DisclosureCard } from "../ui/disclosure-card";
import { Feedback } from "../ui/feedback";

// A site's service hours as a week (docs/service-hours.md): rows of periods per day, the zone they
// are read in, holidays and the away message; saved through PATCH /api/v1/inbox/sites/{id}.

const DAYS = [
  ["mon", "Monday"],
  ["tue", "Tuesday"],
  ["wed", "Wednesday"],
  ["thu", "Thursday"],
  ["fri", "Friday"],
  ["sat", "Saturday"],
  ["sun", "Sunday"],
] as const;
type Day = (typeof DAYS)[number][0];
type Period = [string, string];
export type WeekHours = Record<Day, Period[]>;

export interface HoursView {
  id: string;
  timezone: string;
  hours: WeekHours | null;
  holidays: string[];
  away_message: string | null;
}

const OFFICE_WEEK: WeekHours = { mon: [["09:00", "17:00"]], tue: [["09:00", "17:00"]], wed: [["09:00", "17:00"]], thu: [["09:00", "17:00"]], fri: [["09:00", "17:00"]], sat: [], sun: [] };

// A time input cannot show 24:00: a period closing at midnight shows 00:00 and is sent as 24:00
const shown = (time: string) => (time === "24:00" ? "00:00" : time);
const sent = ([opens, closes]: Period): Period => [opens, closes === "00:00" ? "24:00" : closes];

/** The site's hours in one line, and the week editor once asked for (the page lists every site). */
export function HoursEditor({ site, timeZones }: { site: HoursView; timeZones: string[] }) {
  const prefix = `hours-${site.id}`;
  const title = (
    <>
      Service hours <span className={styles.meta}>({site.id})</span>
    </>
  );
  const summary = (
    <p className={styles.hint}>
      {site.hours ? `Set, in ${site.timezone}.` : "Always open."} Outside service hours the widget says when the team is back and asks visitors for an email.
    </p>
  );
  return (
    <DisclosureCard id={prefix} title={title} summary={summary} button={(open) => (open ? "Hide service hours" : "Edit service hours")}>
      <WeekForm site={site} timeZones={timeZones} prefix={prefix} />
    </DisclosureCard>
  );
}

function WeekForm({ site, timeZones, prefix }: { site: HoursView; timeZones: string[]; prefix: string }) {
  const { status, save } = useSave();
  const [limited, setLimited] = useState(site.hours !== null);
  // Hours never set on a site still in the default zone: start from the owner's own zone, not UTC.
  // (This form renders only after a click, so reading the browser's zone cannot upset hydration.)
  const [timezone, setTimezone] = useState(() => (site.hours === null && site.timezone === "UTC" ? Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" : site.timezone));
  const [week, setWeek] = useState<WeekHours>(site.hours ?? OFFICE_WEEK);
  const [holidays, setHolidays] = useState(site.holidays);
  const [newHoliday, setNewHoliday] = useState("");
  const [away, setAway] = useState(site.away_message ?? "");

  const setPeriods = (day: Day, periods: Period[]) => setWeek({ ...week, [day]: periods });
  const setTime = (day: Day, index: number, end: 0 | 1, value: string) =>
    setPeriods(day, week[day].map((period, i) => (i === index ? ((end === 0 ? [value, period[1]] : [period[0], value]) as Period) : period)));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hours = limited ? (Object.fromEntries(DAYS.map(([day]) => [day, week[day].map(sent)])) as WeekHours) : null;
    await save("PATCH", `/api/v1/inbox/sites/${encodeURIComponent(site.id)}`, { timezone, hours, holidays, away_message: away.trim() || null }, "Service hours saved.");
  };

  return (
    <form id={`${prefix}-form`} onSubmit={onSubmit} aria-label={`Service hours of ${site.id}`}>
      <div className={styles.field}>
        <label>
          <input type="checkbox" checked={limited} onChange={(event) => setLimited(event.currentTarget.checked)} /> Limit to service hours (off: always open)
        </label>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-tz`}>Time zone</label>
        <select className={styles.select} id={`${prefix}-tz`} value={timezone} onChange={(event) => setTimezone(event.currentTarget.value)}>
          {[...new Set([...[timezone, site.timezone].filter((zone) => !timeZones.includes(zone)), ...timeZones])].map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </div>
      {limited
        ? DAYS.map(([day, dayName]) => (
            <fieldset key={day} className={styles.field} aria-describedby={`${prefix}-${day}-state`}>
              <legend className={styles.label}>{dayName}</legend>
              {week[day].map(([opens, closes], index) => (
                <div key={index} className={styles.row} role="group" aria-label={`${dayName}, period ${index + 1}`}>
                  <label>
                    Opens{" "}
                    <input className={styles.input} type="time" required value={shown(opens)} onChange={(event) => setTime(day, index, 0, event.currentTarget.value)} />
                  </label>
                  <label>
                    Closes{" "}
                    <input className={styles.input} type="time" required value={shown(closes)} onChange={(event) => setTime(day, index, 1, event.currentTarget.value)} />
                  </label>
                  <button
                    type="button"
                    className={`${styles.button} ${styles.buttonQuiet}`}
                    aria-label={`Remove ${dayName} period ${index + 1}`}
                    onClick={() => setPeriods(day, week[day].filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </div>
              ))}
              <div className={styles.row}>
                <span className={styles.hint} id={`${prefix}-${day}-state`}>
                  {week[day].length === 0 ? "Closed" : "A closing time at or before the opening runs into the next day."}
                </span>
                <button
                  type="button"
                  className={`${styles.button} ${styles.buttonQuiet}`}
                  aria-label={`Add a period on ${dayName}`}
                  onClick={() => setPeriods(day, [...week[day], ["09:00", "17:00"]])}
                >
                  Add period
                </button>
              </div>
            </fieldset>
          ))
        : null}
      <fieldset className={styles.field}>
        <legend className={styles.label}>Holidays (closed; a period from the evening before still runs into the night)</legend>
        <ul className={styles.plainList}>
          {holidays.map((date) => (
            <li key={date} className={styles.row}>
              <span>{date}</span>
              <button type="button" className={`${styles.button} ${styles.buttonQuiet}`} aria-label={`Remove holiday ${date}`} onClick={() => setHolidays(holidays.filter((d) => d !== date))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <div className={styles.row}>
          <label>
            Date <input className={styles.input} type="date" value={newHoliday} onChange={(event) => setNewHoliday(event.currentTarget.value)} />
          </label>
          <button
            type="button"
            className={`${styles.button} ${styles.buttonQuiet}`}
            disabled={!newHoliday}
            onClick={() => {
              setHolidays([...new Set([...holidays, newHoliday])].sort());
              setNewHoliday("");
            }}
          >
            Add holiday
          </button>
        </div>
      </fieldset>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-away`}>Away message</label>
        <textarea className={styles.textarea} id={`${prefix}-away`} maxLength={500} value={away} onChange={(event) => setAway(event.currentTarget.value)} aria-describedby={`${prefix}-away-hint`} />
        <p className={styles.hint} id={`${prefix}-away-hint`}>
          Shown in the widget outside hours, above when the team is back. Up to 500 characters.
        </p>
      </div>
      <p className={styles.hint} id={`${prefix}-delay`}>
        A change reaches visitors within a minute: their browsers keep the widget&apos;s settings for up to a minute (pages already open included).
      </p>
      <button className={styles.button} type="submit" aria-describedby={`${prefix}-delay`}>
        Save service hours
      </button>
      <Feedback status={status} />
    </form>
  );
}
