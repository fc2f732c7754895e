// The audit log in words (Settings → Audit log): who acted, by name, and the details as a short
// summary rather than raw JSON. The CSV and the API keep the raw values.

/** `member:<id>` as the member's name (the id kept for a member no longer listed), the others in words. */
export function actorInWords(actor: string, names: ReadonlyMap<string, string>): string {
  if (actor === "operator") return "Operator (API token)";
  if (actor === "anonymous") return "Someone not signed in";
  const id = actor.startsWith("member:") ? actor.slice("member:".length) : null;
  if (id === null) return actor;
  return names.get(id) ?? `Member ${id}`;
}

const words = (key: string) => {
  const spaced = key.replaceAll("_", " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

function valueInWords(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map(valueInWords).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${key.replaceAll("_", " ")} ${valueInWords(inner)}`)
      .join(", ");
  return String(value);
}

/** `{fields: ["name", "role"], role: "owner"}` → "Fields: name, role · Role: owner". */
export const detailsInWords = (details: Record<string, unknown>): string =>
  Object.entries(details)
    .map(([key, value]) => `${words(key)}: ${valueInWords(value)}`)
    .join(" · ");
