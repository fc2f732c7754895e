"use client";

import { Bell, BellOff, Volume2, VolumeX } from "lucide-react";
import { useEffect, useState } from "react";
import styles from "../../inbox.module.css";

// The member menu's alert settings for this browser: the tone for a visitor message while the tab
// is hidden (kept in localStorage, read by ./live-updates.tsx at each alert) and the browser
// notifications for the same moment. Push notifications (no tab open) are in Settings.

const MUTE_KEY = "parley.inbox.muted";

export const soundMuted = (): boolean => window.localStorage.getItem(MUTE_KEY) === "1";

export function SoundToggle() {
  const [muted, setMuted] = useState(false);
  useEffect(() => setMuted(soundMuted()), []);
  const Icon = muted ? VolumeX : Volume2;
  return (
    <button
      type="button"
      className={styles.menuItem}
      aria-pressed={muted}
      onClick={() => {
        const next = !muted;
        setMuted(next);
        window.localStorage.setItem(MUTE_KEY, next ? "1" : "0");
      }}
    >
      <Icon aria-hidden="true" size={16} />
      {muted ? "Sound off" : "Sound on"}
    </button>
  );
}

export function HiddenTabAlerts() {
  const [permission, setPermission] = useState<NotificationPermission | "unsupported">("default");
  useEffect(() => setPermission(typeof Notification === "undefined" ? "unsupported" : Notification.permission), []);
  if (permission === "unsupported") return null;
  if (permission !== "default")
    return (
      <p className={styles.menuNote}>
        {permission === "granted" ? <Bell aria-hidden="true" size={16} /> : <BellOff aria-hidden="true" size={16} />}
        {permission === "granted" ? "Alerts on while this tab is hidden" : "Alerts blocked in this browser's site settings"}
      </p>
    );
  return (
    <button
      type="button"
      className={styles.menuItem}
      title="A browser notification for each visitor message while this inbox tab is open but hidden. Push notifications (no tab open) are in Settings."
      onClick={async () => setPermission(await Notification.requestPermission())}
    >
      <Bell aria-hidden="true" size={16} />
      Alerts while this tab is hidden
    </button>
  );
}
