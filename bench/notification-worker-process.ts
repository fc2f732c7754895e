// A notification worker alone in a process, on DATABASE_URL, for bench/notifications.ts to kill
// with SIGKILL mid-delivery. Timings come as JSON in NOTIFY_TIMINGS.
import { startNotificationWorker } from "../lib/notifications/worker";

await startNotificationWorker({ timings: JSON.parse(process.env.NOTIFY_TIMINGS ?? "{}") });
process.stdout.write("ready\n");
