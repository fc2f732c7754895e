"use client";

import { useEffect, useState } from "react";

/** The visitor's local time now, in their zone, refreshed each minute ("14:05, Europe/Berlin"). */
export function ZoneClock({ zone }: { zone: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  let time: string;
  try {
    time = now.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", timeZone: zone });
  } catch {
    return <span>{zone}</span>; // a zone this browser does not know
  }
  return (
    <span suppressHydrationWarning>
      {time} <span>({zone})</span>
    </span>
  );
}
