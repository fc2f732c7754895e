import styles from "../../inbox.module.css";
import { LocalTime } from "../ui/local-time";

// A webhook's health in one line (Settings and the webhook's page): the last attempt's result and
// answer, the failures since the last success, and when that was; first of all, a URL the target
// rules no longer let through (checked at each start), since nothing is attempted then.

export interface WebhookHealthView {
  last_attempt_at: string | null;
  last_result: "succeeded" | "failed" | null;
  last_response_status: number | null;
  last_error: string | null;
  last_success_at: string | null;
  failures_in_a_row: number;
  url_refused: string | null;
}

export function WebhookHealth({ health }: { health: WebhookHealthView }) {
  if (health.url_refused) {
    return (
      <p className={styles.meta} data-testid="webhook-health" data-result="url_refused">
        <span className={styles.statusBad}>Not delivering</span>
        {` · ${health.url_refused} Deliveries wait until the URL is changed (or the service's WEBHOOK_ALLOWED_TARGETS allows it).`}
      </p>
    );
  }
  if (!health.last_attempt_at) {
    return (
      <p className={styles.meta} data-testid="webhook-health" data-result="none">
        Not attempted yet: send a test event to check the endpoint.
      </p>
    );
  }
  const answer = health.last_response_status !== null ? `HTTP ${health.last_response_status}` : (health.last_error ?? "no answer");
  const failing = health.last_result === "failed";
  return (
    <p className={styles.meta} data-testid="webhook-health" data-result={health.last_result}>
      <span className={failing ? styles.statusBad : styles.statusText}>{failing ? "Failing" : "Healthy"}</span>
      {" · last attempt "}
      <LocalTime iso={health.last_attempt_at} full />
      {` (${answer})`}
      {failing ? ` · ${health.failures_in_a_row} failed in a row` : ""}
      {" · last success "}
      {health.last_success_at ? <LocalTime iso={health.last_success_at} full /> : "never"}
    </p>
  );
}
