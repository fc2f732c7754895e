import Link from "next/link";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { listDeliveries, listWebhooks } from "@/lib/webhooks/webhooks";
import styles from "../../../../inbox.module.css";
import { LocalTime } from "../../../../_components/ui/local-time";
import { OwnersOnly } from "../../../../_components/shared/owners-only";
import { RetryDeliveryButton, SendTestEventButton, WebhookEditor } from "../../../../_components/settings/webhooks";
import { WebhookHealth } from "../../../../_components/settings/webhook-health";
import { requireStaffPage } from "../../../../_components/shared/staff-session";

type Delivery = Awaited<ReturnType<typeof listDeliveries>>[number];

const STATUS_LABELS: Record<string, string> = { pending: "Pending", succeeded: "Succeeded", failed: "Failed" };

function answerOf(delivery: Delivery): string {
  if (delivery.response_status !== null) return `HTTP ${delivery.response_status}`;
  if (delivery.error) return delivery.error;
  return delivery.attempt === 0 ? "Not attempted yet" : "No answer";
}

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { member } = await requireStaffPage();
  if (member.role !== "owner") return <OwnersOnly title="Webhook" />;
  const id = decodeURIComponent((await params).id);
  const webhook = (await listWebhooks()).find((entry) => entry.id === id);
  if (!webhook) notFound();
  const deliveries = await listDeliveries(id).catch((error) => {
    if (error instanceof AppError && error.code === "not_found") notFound(); // deleted meanwhile
    throw error;
  });
  return (
    <main id="main" className={styles.page}>
      <p>
        <Link href="/inbox/settings#webhooks-title">← Settings</Link>
      </p>
      <h1 className={styles.breakAnywhere}>Webhook to {webhook.url}</h1>
      <WebhookHealth health={webhook.health} />
      <SendTestEventButton webhookId={id} />
      <WebhookEditor webhook={webhook} />
      <section aria-labelledby="deliveries-title">
        <div className={styles.sectionHead}>
          <h2 id="deliveries-title">Deliveries</h2>
          {/* A full reload: attempts change no live event. */}
          <a href={`/inbox/settings/webhooks/${encodeURIComponent(id)}`}>Refresh</a>
        </div>
        <p className={styles.hint}>Newest first (the last 100). Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.</p>
        {deliveries.length === 0 ? (
          <p className={styles.empty}>No deliveries yet: they appear here when one of the chosen events happens.</p>
        ) : (
          <ol className={styles.cards} data-testid="deliveries">
            {deliveries.map((delivery) => (
              <li key={delivery.id} className={styles.card} data-delivery={delivery.id} data-status={delivery.status}>
                <div className={styles.deliveryLine}>
                  <code>{delivery.type}</code>
                  <span className={delivery.status === "failed" ? styles.statusBad : styles.statusText} data-testid="delivery-status">
                    {STATUS_LABELS[delivery.status] ?? delivery.status}
                  </span>
                  <span className={styles.meta}>attempt {delivery.attempt}</span>
                  <span className={styles.meta}>{answerOf(delivery)}</span>
                </div>
                <p className={styles.meta}>
                  <LocalTime iso={delivery.created_at} full />
                  {delivery.next_attempt_at ? (
                    <>
                      {" · next attempt "}
                      <LocalTime iso={delivery.next_attempt_at} full />
                    </>
                  ) : null}
                  {" · event "}
                  <span className={styles.breakAnywhere}>{delivery.event_id}</span>
                </p>
                <RetryDeliveryButton webhookId={id} deliveryId={delivery.id} label={`${delivery.type} delivery (attempt ${delivery.attempt})`} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </main>
  );
}
