import type { ExplainedCycle } from "@/lib/reports/conversation-metrics";
import { formatDuration } from "@/lib/reports/metrics";
import styles from "../../inbox.module.css";
import { LocalTime } from "../ui/local-time";

/** The conversation's first response and resolution per cycle, and why (lib/reports/metrics.ts). */
export function ConversationMetrics({ cycles }: { cycles: ExplainedCycle[] }) {
  return (
    <section aria-labelledby="metrics-title" data-testid="conversation-metrics">
      <h2 id="metrics-title">Response times</h2>
      {cycles.length === 0 ? (
        <p className={styles.hint}>Measured from the visitor&apos;s first message.</p>
      ) : (
        cycles.map(({ cycle, firstResponse, resolution }, index) => (
          <dl key={cycle.startedAt.toISOString()}>
            <dt>{cycles.length > 1 ? `Cycle ${index + 1}, started` : "Measured from"}</dt>
            <dd>
              <LocalTime iso={cycle.startedAt.toISOString()} full />
            </dd>
            <dt>First response</dt>
            <dd>
              {cycle.firstResponse ? formatDuration(cycle.firstResponse.seconds) : "—"}
              <span className={styles.meta}> ({firstResponse})</span>
            </dd>
            <dt>Resolution</dt>
            <dd>
              {cycle.resolution ? formatDuration(cycle.resolution.seconds) : "—"}
              <span className={styles.meta}> ({resolution})</span>
            </dd>
          </dl>
        ))
      )}
    </section>
  );
}
