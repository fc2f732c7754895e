import type { WireSla } from "@/lib/sla/wire";
import styles from "../../inbox.module.css";
import { LocalTime } from "../ui/local-time";
import { SlaDue } from "./sla-due";

// The conversation's SLA clock in the sidebar (docs/sla.md): each running target's due time, and
// every breach with the sentence that says why.

const KIND_NAMES = { first_response: "First response", next_response: "Next response", resolution: "Resolution" } as const;

export function ConversationSla({ sla, policyName }: { sla: WireSla; policyName: string | null }) {
  if (!sla) return null;
  const due = [
    ["first_response", sla.first_response_due_at],
    ["next_response", sla.next_response_due_at],
    ["resolution", sla.resolution_due_at],
  ] as const;
  return (
    <section aria-labelledby="sla-title" data-testid="conversation-sla">
      <h2 id="sla-title">SLA{policyName ? `: ${policyName}` : ""}</h2>
      <p>
        <SlaDue sla={sla} />
      </p>
      <dl>
        {due.map(([kind, at]) => (
          <div key={kind}>
            <dt>{KIND_NAMES[kind]} due</dt>
            <dd data-testid={`sla-${kind}`}>{at ? <LocalTime iso={at} full /> : "—"}</dd>
          </div>
        ))}
      </dl>
      {sla.breaches.length > 0 ? (
        <ul data-testid="sla-breaches">
          {sla.breaches.map((breach) => (
            <li key={`${breach.kind}-${breach.at}`}>
              <strong>{KIND_NAMES[breach.kind]} breached</strong> <LocalTime iso={breach.at} full />
              <span className={styles.meta}> ({breach.why})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
