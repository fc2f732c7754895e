"use client";

// A time in the reader's own zone and locale (the server does not know them): today as a time,
// otherwise as a date.
export function LocalTime({ iso, full = false }: { iso: string; full?: boolean }) {
  const date = new Date(iso);
  const today = new Date().toDateString() === date.toDateString();
  const text = full
    ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
    : today
      ? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
      : date.toLocaleDateString(undefined, { month: "short", day: "numeric" });
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {text}
    </time>
  );
}
