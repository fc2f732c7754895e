import { oneLine } from "../shared/cut";
import { h } from "../shared/dom";
import { me } from "../shared/identity";
import type { Message } from "../shared/message";
import { notSentReason } from "../shared/not-sent";
import { request } from "../shared/request";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import { T } from "../shared/strings";
import type { Elements } from "../shared/types";
import { loadChunk } from "./chunks";
import { markClosed } from "./closed-card";
import { add, rows, status } from "./messages";
import { kick } from "./poll";
import { soon } from "./presence";

// Sending: optimistic rows with a client_id (so a retry is deduplicated by the server), one at a
// time and in order; the first message starts the conversation (asking for an email first when
// the site is offline). Files are a message of their own: uploaded (one progress bar), then sent
// as `attachments`.

let els: Elements;
let chain: Promise<void> = Promise.resolve();
/** Sends held until the visitor gives the email the site asks for. */
let waitingForEmail: (() => void)[] = [];

export const initSend = (elements: Elements) => void (els = elements);

/** Queues a message (its row `el` is shown already) behind the ones before it. */
export function enqueue(text: string, clientId: string, el: HTMLElement, files?: File[]): void {
  status(el, files ? T.sendingFiles : T.sending, "pd");
  chain = chain.then(() => deliver(text, clientId, el, files));
}

/** The visitor gave the email: the held sends go. */
export function emailGiven(): void {
  const held = waitingForEmail;
  waitingForEmail = [];
  held.forEach((send) => send());
}

function fail(el: HTMLElement, text: string, clientId: string, reason: string, files?: File[]) {
  const retry = h("button", "lk", T.retry);
  retry.type = "button";
  retry.addEventListener("click", () => enqueue(text, clientId, el, files)); // same client_id: the server deduplicates
  status(el, reason + " ", "f").append(retry);
  els.ls!.scrollTop = els.ls!.scrollHeight;
}

async function deliver(text: string, clientId: string, el: HTMLElement, files?: File[]): Promise<void> {
  if (!session.state[StateKey.Token] || session.state[StateKey.Ended]) {
    if (!files) return start(text, clientId, el);
    await start("", clientId, el, files); // files go into a conversation: start one without a message
    if (!session.state[StateKey.Token]) return;
  }
  const body: Record<string, unknown> = { body: text, client_id: clientId };
  if (files) {
    status(el, T.sendingFiles, "pd");
    const uploads = await loadChunk("uploads");
    const ids = uploads ? await uploads.uploadFiles(el, files, () => enqueue(text, clientId, el, files)) : T.uploadFailed;
    if (!ids) {
      // every file cancelled: nothing is sent
      el.remove();
      rows.delete(clientId);
      return;
    }
    if (typeof ids === "string") return fail(el, text, clientId, ids, files);
    body.attachments = ids;
  }
  const answer = await session.call("POST", "/api/v1/chat/visitor/messages", body);
  const sent = answer.ok ? (answer.result as { message?: Message } | null) : null;
  if (sent) {
    add(sent.message);
    kick();
    soon();
  } else if (answer.code === "conversation_closed") {
    markClosed();
    fail(el, text, clientId, T.notSentClosed, files);
  } else if (!session.state[StateKey.Token] && !session.boot.off()) return deliver(text, clientId, el, files); // token gone (401, expiry): start afresh
  else fail(el, text, clientId, notSentReason(answer), files);
}

/** Who is writing from where, for the team (it grants nothing): this browser's id, zone, language and page. */
function addContext(body: Record<string, string>): void {
  body.visitor_id = session.boot.vid(1)!;
  body.page_url = location.href.slice(0, 2000);
  body.page_title = oneLine(document.title, 300);
  if (navigator.language?.length <= 35) body.locale = navigator.language;
  try {
    body.timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    /* no zone known: none sent */
  }
}

async function start(text: string, clientId: string, el: HTMLElement, files?: File[]): Promise<void> {
  const body: Record<string, string> = text ? { body: text, client_id: clientId } : {};
  const boot = session.boot;
  // Departments or a pre-chat form: asked first (a chunk of its own), and sent with the start. The
  // config's first read may still be on its way (a visitor who writes at once): waited for.
  const config = await boot.config();
  if (config?.prechat || config?.departments?.[0]) await (await loadChunk("prechat"))?.ask(els, config, body);
  addContext(body);
  if (me.name) body.name = me.name;
  if (me.email) body.email = me.email;
  if (me.userId && me.userHash) {
    body.user_id = me.userId;
    body.user_hash = me.userHash;
  }
  const answer = await request("POST", boot.route + "/conversations", { body });
  const started = answer.ok
    ? (answer.result as { visitor_token?: string; conversation_id?: string; expires_in_seconds?: number; offline?: boolean } | null)
    : null;
  if (started?.visitor_token) {
    session.replace({
      [StateKey.Token]: started.visitor_token,
      [StateKey.ExpiresAt]: Date.now() + (started.expires_in_seconds || 86400) * 1e3,
      [StateKey.ConversationId]: started.conversation_id,
      [StateKey.SeenSequence]: 0,
      [StateKey.StartedOffline]: started.offline ? 1 : 0,
      [StateKey.Transcript]: body.email ? 1 : 0,
    });
    session.emit("started");
    status(el, T.sent);
    kick();
    soon();
  } else if (answer.code === "email_required") {
    status(el, T.waitingEmail, "pd");
    waitingForEmail.push(() => enqueue(text, clientId, el, files));
    els.ea!.hidden = false;
    els.ee!.focus();
  } else {
    if (answer.status === 403 || answer.status === 404) boot.quiet();
    fail(el, text, clientId, notSentReason(answer), files);
  }
}
