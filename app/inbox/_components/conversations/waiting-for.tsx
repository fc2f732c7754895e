"use client";

import { useEffect, useState } from "react";

// "waiting 12 min": how long the visitor's oldest unanswered message has waited, kept current.
export function waitingText(since: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  if (minutes < 1) return "waiting <1 min";
  if (minutes < 60) return `waiting ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `waiting ${hours} h ${minutes % 60} min` : `waiting ${Math.floor(hours / 24)} d`;
}

export function WaitingFor({ since }: { since: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span data-testid="waiting" suppressHydrationWarning>
      {waitingText(since, now)}
    </span>
  );
}
