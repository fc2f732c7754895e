// The placeholders a saved reply's body may hold (decisions.md, round 3), filled in by the inbox's
// composer when the reply is picked: `{{visitor.name}}`, `{{visitor.name|fallback}}`,
// `{{agent.name}}`, `{{site.name}}`. No imports: the composer (a client component) uses it.

export interface PlaceholderValues {
  /** The name the visitor gave, or null. */
  visitorName: string | null;
  agentName: string;
  siteName: string;
}

// `{{ name }}` or `{{ name | fallback }}`; the fallback is any text without `}` (it may be empty).
const PLACEHOLDER = /\{\{\s*(visitor\.name|agent\.name|site\.name)\s*(?:\|([^{}]*))?\}\}/g;

/**
 * The body with its placeholders filled. A missing value takes the placeholder's fallback, else
 * nothing; a fallback on a value that is there is ignored; anything else in braces stays as typed.
 */
export function fillPlaceholders(body: string, values: PlaceholderValues): string {
  return body.replace(PLACEHOLDER, (_match, name: string, fallback: string | undefined) => {
    const value = name === "visitor.name" ? values.visitorName : name === "agent.name" ? values.agentName : values.siteName;
    const present = value?.trim();
    return present ? present : (fallback?.trim() ?? "");
  });
}
