// A conversation's `attributes` and `consent` columns as the wire carries them. Both are written
// only by this folder's services (typed per definition; consent as {text, at}), so reading them
// back needs no second check, only the JSON shape's type.

export type AttributeValues = Record<string, string | number | boolean>;
export type StoredConsent = { text: string; at: string } | null;

export const storedAttributes = (value: unknown): AttributeValues =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as AttributeValues) : {};

export const storedConsent = (value: unknown): StoredConsent =>
  value !== null && typeof value === "object" && typeof (value as { text?: unknown }).text === "string" ? (value as { text: string; at: string }) : null;
