import { AppError } from "../../core/errors";
import { log } from "../../core/log";
import { rateConversationBody } from "../../contracts/ratings";
import { rateConversation } from "../../conversations/rate-conversation";
import { verifyRatingToken } from "./rating-links";
import { escapeHtml } from "../templates";

// The pages behind an email's rating links (app/api/v1/chat/rate; docs/reports.md): a signed
// token names the close; GET shows the score and a comment box with a button, POST records.

const MAX_FORM_BYTES = 8_192;

const page = (status: number, text: string, form = "") =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Rate the conversation</title></head>` +
      `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto"><p>${escapeHtml(text)}</p>${form}</body></html>`,
    { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" } },
  );

const invalidLink = () => page(400, "This rating link is not valid.");
const scoreOf = (value: string | null) => (value && /^[1-5]$/.test(value) ? Number(value) : null);

/** GET: the confirmation; nothing is recorded. */
export async function ratingPage(url: URL): Promise<Response> {
  return guarded(async () => {
    const token = url.searchParams.get("t") ?? "";
    const score = scoreOf(url.searchParams.get("score"));
    if (!(await verifyRatingToken(token)) || score === null) return invalidLink();
    const choices = [1, 2, 3, 4, 5]
      .map((value) => `<label style="margin-right:1rem"><input type="radio" name="score" value="${value}"${value === score ? " checked" : ""} required> ${value}</label>`)
      .join("");
    return page(
      200,
      "How did we do? Confirm your rating (1 bad, 5 great); a comment is optional.",
      `<form method="post" action="?${escapeHtml(new URLSearchParams({ t: token }).toString())}"><input type="hidden" name="t" value="${escapeHtml(token)}">` +
        `<fieldset style="border:0;padding:0"><legend>Your rating</legend>${choices}</fieldset>` +
        `<p><label for="comment">Comment</label><br><textarea id="comment" name="comment" maxlength="1000" rows="4" style="width:100%"></textarea></p>` +
        `<button type="submit">Send rating</button></form>`,
    );
  });
}

/** POST (the form): records the rating once for that close; 409 while open, after another close or when already rated. */
export async function rateByLink(request: Request): Promise<Response> {
  return guarded(async () => {
    if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return page(400, "Send the form on the rating page.");
    const raw = await request.text();
    if (Buffer.byteLength(raw) > MAX_FORM_BYTES) return page(400, "The form is too large.");
    const form = new URLSearchParams(raw);
    const close = await verifyRatingToken(form.get("t") ?? "");
    if (!close) return invalidLink();
    const comment = form.get("comment")?.trim();
    const body = rateConversationBody.safeParse({ score: scoreOf(form.get("score")), ...(comment ? { comment } : {}) });
    if (!body.success) return page(400, `Please choose a score from 1 to 5${comment && comment.length > 1000 ? " and keep the comment under 1000 characters" : ""}.`);
    await rateConversation(close.conversationId, body.data, close.closedAt);
    return page(201, "Thank you for the rating.");
  });
}

/** A known refusal is its page (404, 409); a database outage a 503 page, never a stack trace. */
async function guarded(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return page(error.status, error.code === "rating_closed" ? "This conversation cannot be rated now: it is open again, or this close was already rated." : error.message);
    }
    log.error("rating_link_failed", { error });
    return page(503, "This did not work just now. Please try again in a minute.");
  }
}
