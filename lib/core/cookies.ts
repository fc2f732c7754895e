// Reading a Cookie request header: the one parser for the session cookie and the single sign-on
// attempt's cookie.

/** The value of the named cookie in a Cookie header, or null (absent or empty). */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || null;
  }
  return null;
}
