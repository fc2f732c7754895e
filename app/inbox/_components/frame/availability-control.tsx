"use client";

import { useEffect, useRef, useState } from "react";
import styles from "../../inbox.module.css";
import { inboxApi } from "../shared/api";

// The header's availability (docs/routing.md): the member's own online/away switch, who of the
// team is online (a dot each), and the tab's input reported at most once a minute, which keeps an
// active member from turning away when idle. The team list is read again every 30 s.

type Availability = "online" | "away" | "offline";
interface TeamEntry {
  id: string;
  name: string;
  active: boolean;
  availability: Availability;
}

const INPUT_EVERY_MS = 60_000;
const TEAM_EVERY_MS = 30_000;
const LABELS: Record<Availability, string> = { online: "Online", away: "Away", offline: "Offline" };
const DOTS: Record<Availability, string | undefined> = { online: styles.dotOnline, away: styles.dotAway, offline: styles.dotOffline };

export function AvailabilityControl({ memberId }: { memberId: string }) {
  const [team, setTeam] = useState<TeamEntry[]>([]);
  const [own, setOwn] = useState<Availability>("online");
  const lastInput = useRef(0);

  useEffect(() => {
    let stopped = false;
    const read = async () => {
      const outcome = await inboxApi<TeamEntry[]>("GET", "/api/v1/inbox/members");
      if (stopped || !outcome.ok) return;
      setTeam(outcome.result.filter((entry) => entry.active));
      const self = outcome.result.find((entry) => entry.id === memberId);
      if (self) setOwn(self.availability);
    };
    void read();
    const timer = setInterval(() => void read(), TEAM_EVERY_MS);
    const onInput = () => {
      const now = Date.now();
      if (now - lastInput.current < INPUT_EVERY_MS) return;
      lastInput.current = now;
      void inboxApi<{ availability: Availability }>("POST", "/api/v1/inbox/session/activity").then((outcome) => {
        if (!stopped && outcome.ok) setOwn(outcome.result.availability);
      });
    };
    const events = ["keydown", "pointerdown", "focus"] as const;
    for (const name of events) window.addEventListener(name, onInput, { passive: true });
    return () => {
      stopped = true;
      clearInterval(timer);
      for (const name of events) window.removeEventListener(name, onInput);
    };
  }, [memberId]);

  const choose = async (choice: "online" | "away") => {
    const outcome = await inboxApi<{ availability: Availability }>("PUT", "/api/v1/inbox/session/availability", { availability: choice });
    if (outcome.ok) setOwn(outcome.result.availability);
  };
  const online = team.filter((entry) => entry.availability === "online");

  return (
    <>
      <label className={styles.availability}>
        <span className={DOTS[own]} aria-hidden="true" />
        <span className={styles.srOnly}>Your availability</span>
        <select
          className={styles.select}
          value={own === "away" ? "away" : "online"}
          onChange={(event) => void choose(event.target.value as "online" | "away")}
          aria-describedby="own-availability"
        >
          <option value="online">Online</option>
          <option value="away">Away</option>
        </select>
        <span id="own-availability" className={styles.srOnly}>
          now {LABELS[own]}
        </span>
      </label>
      <details className={styles.teamAvailability}>
        <summary>{online.length} online</summary>
        <ul data-testid="team-availability">
          {team.map((entry) => (
            <li key={entry.id} data-availability={entry.availability}>
              <span className={DOTS[entry.availability]} aria-hidden="true" /> {entry.name} <span className={styles.meta}>{LABELS[entry.availability]}</span>
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}
