import type { SaveStatus } from "../ui/feedback";
import { describeFailure, inboxApi } from "./api";
import { plural } from "./plural";

// The owners' two privacy requests (docs/security.md), made from Settings → Privacy requests and
// from the visitor card of a conversation: the same routes, the same wording.

/** Downloads the zip of everything about the person `body` names; an error message, or null. */
export async function download(body: Record<string, string>): Promise<string | null> {
  try {
    const response = await fetch("/api/v1/inbox/privacy/export", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    if (!response.ok) {
      const json = await response.json().catch(() => null);
      const fields: { path: string; problem: string }[] | undefined = json?.result?.fields;
      return describeFailure({ ok: false, status: response.status, result: null, message: json?.message ?? `The request failed (${response.status}).`, fields });
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "parley-export.zip";
    link.click();
    URL.revokeObjectURL(url);
    return null;
  } catch {
    return "The service cannot be reached. Check your connection.";
  }
}

/** Erases the person `body` names; the outcome as the feedback line shows it. */
export async function erase(body: Record<string, string>): Promise<SaveStatus> {
  const outcome = await inboxApi<Record<string, number>>("POST", "/api/v1/inbox/privacy/erase", body);
  if (!outcome.ok) return { error: describeFailure(outcome) };
  const counts = Object.entries(outcome.result).map(([key, count]) => {
    const name = key.replaceAll("_", " "); // the counts' keys are plural nouns ("ticket_replies")
    return plural(count, name.replace(/ies$/, "y").replace(/s$/, ""), name);
  });
  return { done: `Erased: ${counts.join(", ")}.` };
}
