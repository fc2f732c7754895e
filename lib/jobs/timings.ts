// Every delay of the notification rules in one place. Production uses the defaults (decisions.md);
// tests inject shorter ones into startNotificationWorker instead of sleeping for minutes.

export interface NotificationTimings {
  /** A staff alert goes out only when no member has had the inbox open for this long. */
  staffIdleMs: number;
  /** At most one staff alert per conversation and member in this window; later messages fold into the next. */
  staffAlertIntervalMs: number;
  /** Staff replies unseen this long after they were sent are emailed to the visitor. */
  followUpDelayMs: number;
  /** A webhook attempt without a 2xx answer by then has failed. */
  webhookTimeoutMs: number;
  /** The waits before the 2nd, 3rd… attempt of a webhook delivery; after the last, `failed`. */
  webhookRetryScheduleMs: number[];
  /** Seconds before the first retry of an email that SMTP refused (doubling after each). */
  emailRetryDelaySeconds: number;
  /** How often the dispatcher looks for new events when it found none. */
  dispatchPollMs: number;
  /** How often pg-boss looks for due jobs (at least 500 ms). */
  jobPollMs: number;
  /** A job whose worker died is taken up again after this (pg-boss expiry), and its maintenance interval. */
  jobExpirySeconds: number;
  maintenanceSeconds: number;
  /** How often the reassign sweep looks for conversations waiting too long (docs/routing.md). */
  reassignSweepMs: number;
  /** How often the SLA sweep computes marked conversations and records breaches (docs/sla.md). */
  slaSweepMs: number;
  /** A worker first asks for the retention job this long after it starts (not amid the start's own work), then hourly. */
  retentionFirstAskMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const DEFAULT_TIMINGS: NotificationTimings = Object.freeze({
  staffIdleMs: 60 * SECOND,
  staffAlertIntervalMs: 10 * MINUTE,
  followUpDelayMs: 10 * MINUTE,
  webhookTimeoutMs: 10 * SECOND,
  webhookRetryScheduleMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  emailRetryDelaySeconds: 30,
  dispatchPollMs: 500,
  jobPollMs: 500,
  jobExpirySeconds: 60,
  maintenanceSeconds: 30,
  reassignSweepMs: MINUTE,
  slaSweepMs: 15 * SECOND,
  retentionFirstAskMs: 5 * MINUTE,
}) as NotificationTimings;

export const resolveTimings = (overrides: Partial<NotificationTimings> = {}): NotificationTimings => ({
  ...DEFAULT_TIMINGS,
  ...overrides,
});
