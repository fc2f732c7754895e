"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { MAX_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/contracts/webhooks";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { PostButton } from "../shared/post-button";
import { useSave } from "../shared/use-save";
import { Feedback } from "../ui/feedback";
import { useCopy } from "../ui/use-copy";

// Settings → Webhooks (owners): register one (its secret shown once, here only), edit, delete,
// and queue a delivery again. The services are lib/webhooks', through /api/v1/inbox/webhooks.

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
}

const EVENT_LABELS: Record<WebhookEvent, string> = {
  "conversation.started": "a conversation starts",
  "message.created": "a public message is sent (visitor, team or system)",
  "conversation.closed": "a conversation is closed",
  "ticket.created": "a ticket is filed",
  "attachment.uploaded": "a ticket's file is uploaded",
  "conversation.rated": "a visitor rates a closed conversation",
  "privacy.erased": "a person's data is erased on request (the counts, never the data)",
  "sla.breached": "a conversation misses an SLA target (which one, when it was due, and why)",
};

const webhookPath = (id: string) => `/api/v1/inbox/webhooks/${encodeURIComponent(id)}`;

function formBody(form: HTMLFormElement) {
  const data = new FormData(form);
  return {
    url: String(data.get("url") ?? "").trim(),
    events: data.getAll("events").map(String),
    description: String(data.get("description") ?? "").trim() || null,
  };
}

function WebhookFields({ prefix, webhook }: { prefix: string; webhook?: WebhookView }) {
  return (
    <>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-url`}>Endpoint URL</label>
        <input
          className={styles.input}
          id={`${prefix}-url`}
          name="url"
          type="url"
          required
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          defaultValue={webhook?.url}
          placeholder="https://example.com/parley-webhook"
          aria-describedby={`${prefix}-url-hint`}
        />
        <p className={styles.hint} id={`${prefix}-url-hint`}>
          https only; addresses inside private networks are refused.
        </p>
      </div>
      <fieldset className={styles.checkboxes}>
        <legend className={styles.label}>Events</legend>
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event}>
            <input type="checkbox" name="events" value={event} defaultChecked={webhook ? webhook.events.includes(event) : true} /> <code>{event}</code>: {EVENT_LABELS[event]}
          </label>
        ))}
      </fieldset>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-description`}>Description (optional)</label>
        <input className={styles.input} id={`${prefix}-description`} name="description" maxLength={MAX_DESCRIPTION_LENGTH} defaultValue={webhook?.description ?? ""} />
      </div>
    </>
  );
}

/** The signing secret of a webhook just created: shown here once, never again. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { copy, copied } = useCopy(secret, "secret");
  return (
    <div className={styles.callout} data-testid="webhook-secret">
      <h3 id="webhook-secret-title">Signing secret</h3>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Your endpoint checks each request&apos;s <code>webhook-signature</code> with it (Standard
        Webhooks).
      </p>
      <div className={styles.row}>
        <input
          className={`${styles.input} ${styles.code} ${styles.grow}`}
          readOnly
          value={secret}
          aria-labelledby="webhook-secret-title"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button className={styles.button} type="button" onClick={copy}>
          Copy secret
        </button>
        <button className={styles.buttonQuiet} type="button" onClick={onDone}>
          I have saved it
        </button>
      </div>
      <p className={styles.success} role="status">
        {copied}
      </p>
    </div>
  );
}

export function NewWebhookForm() {
  const router = useRouter();
  const [error, setError] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setError("");
    const outcome = await inboxApi<{ secret: string }>("POST", "/api/v1/inbox/webhooks", formBody(form));
    if (!outcome.ok) {
      setError(describeFailure(outcome));
      return;
    }
    setSecret(outcome.result.secret);
    form.reset();
    router.refresh();
  };
  return (
    <form className={styles.card} onSubmit={onSubmit} aria-labelledby="new-webhook-title">
      <h3 id="new-webhook-title">Add a webhook</h3>
      <WebhookFields prefix="new-webhook" />
      <button className={styles.button} type="submit">
        Create webhook
      </button>
      <p className={styles.error} role="alert">
        {error}
      </p>
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
    </form>
  );
}

export function WebhookEditor({ webhook }: { webhook: WebhookView }) {
  const { status, save } = useSave();
  const [deleteError, setDeleteError] = useState("");
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await save("PATCH", webhookPath(webhook.id), formBody(event.currentTarget), "Saved.");
  };
  const remove = async () => {
    if (!window.confirm(`Delete the webhook to ${webhook.url}? Its delivery log goes with it.`)) return;
    const outcome = await inboxApi("DELETE", webhookPath(webhook.id));
    if (!outcome.ok) {
      setDeleteError(describeFailure(outcome));
      return;
    }
    // A full load: the client router may still hold the settings page with this webhook listed.
    window.location.assign("/inbox/settings#webhooks-title");
  };
  return (
    <form className={styles.card} onSubmit={onSubmit} aria-labelledby="edit-webhook-title">
      <h2 id="edit-webhook-title">Endpoint</h2>
      <WebhookFields prefix="webhook" webhook={webhook} />
      <div className={styles.row}>
        <button className={styles.button} type="submit">
          Save webhook
        </button>
        <button className={styles.buttonDanger} type="button" onClick={remove}>
          Delete webhook
        </button>
      </div>
      <Feedback status={deleteError ? { error: deleteError } : status} />
    </form>
  );
}

export function RetryDeliveryButton({ webhookId, deliveryId, label }: { webhookId: string; deliveryId: string; label: string }) {
  return (
    <PostButton path={`${webhookPath(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`} done="Queued again." label={`Retry ${label}`}>
      Retry
    </PostButton>
  );
}

/** Queues a `webhook.test` delivery; its answer shows in the health and the log after a refresh. */
export function SendTestEventButton({ webhookId }: { webhookId: string }) {
  return (
    <PostButton path={`${webhookPath(webhookId)}/test`} done="Test event sent: refresh in a moment to see its answer.">
      Send a test event
    </PostButton>
  );
}
