"use client";

import { useEffect, useState } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";

// Notifications on this device (Web Push): registers the inbox's service worker, asks the browser
// for permission, subscribes with the service's VAPID key and tells the service; off undoes it.

type State = "checking" | "unsupported" | "denied" | "off" | "on";

const WORKER = "/inbox/sw.js";
const SCOPE = "/inbox";

const supported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export function PushToggle() {
  const [state, setState] = useState<State>("checking");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => {
    if (!supported()) return setState("unsupported");
    if (Notification.permission === "denied") return setState("denied");
    currentSubscription().then(
      (subscription) => setState(subscription ? "on" : "off"),
      () => setState("off"),
    );
  }, []);

  const turnOn = async () => {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") return setState(permission === "denied" ? "denied" : "off");
    const key = await inboxApi<{ public_key: string }>("GET", "/api/v1/inbox/push");
    if (!key.ok) return setError(describeFailure(key));
    const registration = await navigator.serviceWorker.register(WORKER, { scope: SCOPE });
    await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.result.public_key });
    const saved = await inboxApi("POST", "/api/v1/inbox/push/subscriptions", subscription.toJSON());
    if (!saved.ok) {
      await subscription.unsubscribe();
      return setError(describeFailure(saved));
    }
    setState("on");
  };

  const turnOff = async () => {
    const subscription = await currentSubscription();
    if (subscription) {
      await inboxApi("DELETE", "/api/v1/inbox/push/subscriptions", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    setState("off");
  };

  const toggle = async () => {
    setBusy(true);
    setError("");
    try {
      await (state === "on" ? turnOff() : turnOn());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Notifications could not be changed.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.card} aria-labelledby="push-title">
      <h2 id="push-title">Push notifications on this device</h2>
      <p>
        New conversations, assignments and mentions appear as notifications while no inbox tab is open (the header&apos;s &ldquo;Alerts while this tab is hidden&rdquo; covers an open but hidden tab).
        {state === "unsupported" && " This browser cannot receive them (on iPhone, add the inbox to the home screen first)."}
        {state === "denied" && " This browser blocks notifications from this site: allow them in its site settings."}
      </p>
      {(state === "on" || state === "off") && (
        <button className={styles.button} type="button" onClick={toggle} disabled={busy} aria-pressed={state === "on"}>
          {state === "on" ? "Turn off push notifications" : "Turn on push notifications"}
        </button>
      )}
      <p role="status">{state === "on" ? "Notifications are on for this browser." : ""}</p>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
