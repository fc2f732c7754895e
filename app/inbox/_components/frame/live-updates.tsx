"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import type { InboxStreamEvent } from "@/lib/contracts/inbox-events";
import styles from "../../inbox.module.css";
import { soundMuted } from "./alert-settings";
import { inboxTitle } from "./inbox-title";
import { TYPING_EVENT } from "../shared/page-events";
import { refreshHeld } from "../shared/refresh-hold";

// The inbox's live channel (Server-Sent Events from /api/v1/inbox/events). Every event re-reads
// the server components of the current page (router.refresh, coalesced), so lists, threads and
// counts stay the server's truth. Visitor typing is passed to the open thread as a DOM event. A
// visitor message while the tab is hidden plays a short tone (at most every 4 s, unless muted in
// the member menu) and, if the agent opted in, shows a browser notification.

const REFRESH_DELAY_MS = 120;
const SOUND_EVERY_MS = 4_000;

function beep(): void {
  try {
    const AudioContextClass = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AudioContextClass) return;
    const context = new AudioContextClass();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.25);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + 0.25);
    oscillator.onended = () => void context.close();
  } catch {
    // no audio: nothing to do
  }
}

export function LiveUpdates({ unreadTotal }: { unreadTotal: number }) {
  const router = useRouter();
  const [live, setLive] = useState(false);
  const lastSound = useRef(0);
  // One refresh at a time: events during a refresh ask for exactly one more after it.
  const [refreshing, startRefresh] = useTransition();
  const wanted = useRef(false);
  const refreshNow = useRef(() => {});
  refreshNow.current = () => {
    wanted.current = false;
    if (!refreshHeld()) startRefresh(() => router.refresh());
  };
  useEffect(() => {
    if (!refreshing && wanted.current) refreshNow.current();
  }, [refreshing]);
  const busy = useRef(false);
  busy.current = refreshing;

  useEffect(() => {
    document.title = inboxTitle(unreadTotal);
  }, [unreadTotal]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      wanted.current = true;
      timer ??= setTimeout(() => {
        timer = null;
        if (!busy.current) refreshNow.current();
      }, REFRESH_DELAY_MS);
    };
    const source = new EventSource("/api/v1/inbox/events");
    source.onopen = () => setLive(true);
    source.onerror = () => setLive(false);
    source.onmessage = (message) => {
      const event = JSON.parse(message.data) as InboxStreamEvent;
      if (event.type === "ready") {
        setLive(true);
        return;
      }
      // Tickets are drawn only on the tickets pages: elsewhere their events change nothing shown.
      if (event.type === "ticket" && !window.location.pathname.startsWith("/inbox/tickets")) return;
      if (event.type === "typing") {
        window.dispatchEvent(new CustomEvent(TYPING_EVENT, { detail: event }));
        return;
      }
      if (event.type === "message" && event.author_type === "visitor") {
        window.dispatchEvent(new CustomEvent(TYPING_EVENT, { detail: { conversation_id: event.conversation_id, typing: false } }));
        if (document.hidden) alertHidden(event.conversation_id);
      }
      refresh();
    };
    const alertHidden = (conversationId: string) => {
      const now = Date.now();
      if (!soundMuted() && now - lastSound.current > SOUND_EVERY_MS) {
        lastSound.current = now;
        beep();
      }
      if (typeof Notification !== "undefined" && Notification.permission === "granted") {
        const notification = new Notification("New visitor message", { body: "A visitor wrote in the Parley inbox.", tag: conversationId });
        notification.onclick = () => {
          window.focus();
          window.location.assign(`/inbox/conversations/${encodeURIComponent(conversationId)}`);
        };
      }
    };
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [router]);

  return (
    <span className={styles.live} data-live={live} role="status" aria-live="polite">
      <span className={styles.liveDot} aria-hidden="true" />
      <span className={styles.liveText}>{live ? "Live" : "Connecting…"}</span>
    </span>
  );
}
