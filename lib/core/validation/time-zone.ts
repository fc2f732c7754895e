/** The runtime's canonical name of an IANA time zone ("utc" → "UTC"), or null when it knows no such zone. */
export function canonicalTimeZone(name: string): string | null {
  if (name.length === 0 || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Every zone the runtime knows, UTC among them, sorted: the choices offered in the inbox. */
export function timeZoneNames(): string[] {
  return [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone")])].sort();
}
