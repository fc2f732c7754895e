import { cut } from "./cut";
import { me } from "./identity";
import { request } from "./request";
import { add, note, place, row, rows, status, type Message } from "./messages";
import { kick } from "./poll";
import { soon, typed, typingOff } from "./presence";
import { boot, forget, replaceState, save, st, vcall } from "./session";
import { fmt, T } from "./strings";
import { loadChunk } from "./chunks";
import type { Rating } from "./rating";
import type { Res } from "./types";
import { h, type Elements } from "./view";

// Sending: optimistic rows with a client_id (so a retry is deduplicated by the server), one at a
// time and in order; the first message starts the conversation (asking for an email first when
// the site is offline); a closed conversation says so and offers a new one. Files picked with the
// paperclip are a message of their own: uploaded (one progress bar), then sent as `attachments`.

let els: Elements;
let chain: Promise<void> = Promise.resolve();
let waiting: (() => void)[] = [];
export const composer = {
  /** a conversation was started here */
  started: () => {},
  /** the visitor acted: in consent mode that is consent */
  acted: () => {},
};

const uuid = () => (crypto.randomUUID ? crypto.randomUUID() : Array.from(crypto.getRandomValues(new Uint32Array(4))).join("-"));
export const newId = uuid;

const enqueue = (text: string, cid: string, el: HTMLElement, files?: File[]) => {
  status(el, files ? T.sendingFiles : T.sending, "pd");
  chain = chain.then(() => deliver(text, cid, el, files));
};

/** Why a call failed, in the visitor's words (a message's row; the rating chunk's transcript too). */
export const why = (r: Res) =>
  r.status === 0
    ? T.notSentNetwork
    : r.status === 429
      ? T.notSentBusy
      : r.status === 403 || r.status === 404
        ? T.notSentUnavailable
        : r.status === 400 && r.message
          ? fmt("notSentWhy", { why: r.message })
          : T.notSent;

function fail(el: HTMLElement, text: string, cid: string, msg: string, files?: File[]) {
  const b = h("button", "lk", T.retry);
  b.type = "button";
  b.addEventListener("click", () => enqueue(text, cid, el, files)); // same client_id: the server deduplicates
  status(el, msg + " ", "f").append(b);
  els.ls!.scrollTop = els.ls!.scrollHeight;
}

let rating: Rating | null = null; // the rating chunk, once loaded

/** The conversation was closed by staff (a 409, or the closing system message). */
export function showClosed(closed: boolean): void {
  els.cl!.hidden = !closed;
  if (rating) rating.shown();
  else if (closed)
    void loadChunk("rating").then((r) => {
      if (rating || !r) return;
      rating = r;
      r.initRating(els);
      r.shown();
    });
}

export function markClosed(): void {
  if (!st.e) {
    st.e = 1; // stored: after a reload too, the next message starts anew
    save();
  }
  showClosed(true);
}

async function deliver(text: string, cid: string, el: HTMLElement, files?: File[]): Promise<void> {
  if (!st.t || st.e) {
    if (!files) return start(text, cid, el);
    await start("", cid, el, files); // files go into a conversation: start one without a message
    if (!st.t) return;
  }
  const body: Record<string, unknown> = { body: text, client_id: cid };
  if (files) {
    status(el, T.sendingFiles, "pd");
    const uploads = await loadChunk("uploads");
    const ids = uploads ? await uploads.uploadFiles(el, files, () => enqueue(text, cid, el, files)) : T.uploadFailed;
    if (!ids) {
      // every file cancelled: nothing is sent
      el.remove();
      rows.delete(cid);
      return;
    }
    if (typeof ids === "string") return fail(el, text, cid, ids, files);
    body.attachments = ids;
  }
  const r = await vcall("POST", "/api/v1/chat/visitor/messages", body);
  const x = r.ok ? (r.result as { message?: Message } | null) : null;
  if (x) {
    add(x.message);
    kick();
    soon();
  } else if (r.code === "conversation_closed") {
    markClosed();
    fail(el, text, cid, T.notSentClosed, files);
  } else if (!st.t && !boot.off()) return deliver(text, cid, el, files); // token gone (401, expiry): start afresh
  else fail(el, text, cid, why(r), files);
}

/** Who is writing from where, for the team (it grants nothing): this browser's id, zone, language and page. */
function context(b: Record<string, string>): void {
  b.visitor_id = boot.vid(1)!;
  b.page_url = location.href.slice(0, 2000);
  b.page_title = cut(document.title, 300);
  if (navigator.language?.length <= 35) b.locale = navigator.language;
  try {
    b.timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    /* no zone known: none sent */
  }
}

async function start(text: string, cid: string, el: HTMLElement, files?: File[]): Promise<void> {
  const b: Record<string, string> = text ? { body: text, client_id: cid } : {};
  context(b);
  if (me.name) b.name = me.name;
  if (me.email) b.email = me.email;
  if (me.userId && me.userHash) {
    b.user_id = me.userId;
    b.user_hash = me.userHash;
  }
  const r = await request("POST", boot.api + "/api/v1/chat/widget/" + encodeURIComponent(boot.site) + "/conversations", { body: b });
  const x = r.ok ? (r.result as { visitor_token?: string; conversation_id?: string; expires_in_seconds?: number; offline?: boolean } | null) : null;
  if (x?.visitor_token) {
    replaceState({ t: x.visitor_token, x: Date.now() + (x.expires_in_seconds || 86400) * 1e3, c: x.conversation_id, s: 0, o: x.offline ? 1 : 0, m: b.email ? 1 : 0 });
    composer.started();
    status(el, T.sent);
    kick();
    soon();
  } else if (r.code === "email_required") {
    status(el, T.waitingEmail, "pd");
    waiting.push(() => enqueue(text, cid, el, files));
    els.ea!.hidden = false;
    els.ee!.focus();
  } else {
    if (r.status === 403 || r.status === 404) boot.quiet();
    fail(el, text, cid, why(r), files);
  }
}

/** Files picked with the paperclip: a message of their own, checked here before anything is sent. */
function sendFiles(picked: File[]): void {
  if (!picked.length) return;
  composer.acted();
  const cid = uuid();
  const el = row("visitor", "", me.name);
  rows.set(cid, el);
  place(el);
  void loadChunk("uploads").then((uploads) => {
    const problem = !uploads ? T.uploadFailed : picked.length > 10 ? T.tooMany : picked.map(uploads.fileProblem).find(Boolean);
    if (problem) status(el, problem, "f");
    else enqueue("", cid, el, picked);
  });
}

export function initComposer(e: Elements): void {
  els = e;
  const form = els.c as HTMLFormElement,
    input = els.tx as HTMLTextAreaElement,
    email = els.ee as HTMLInputElement;
  els.ea!.addEventListener("submit", (ev) => {
    ev.preventDefault();
    me.email = email.value.trim();
    els.ea!.hidden = true;
    const w = waiting;
    waiting = [];
    w.forEach((f) => f());
    input.focus();
  });
  const grow = () => {
    input.style.height = "";
    input.style.height = Math.min(input.scrollHeight, 120) + "px";
  };
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    composer.acted();
    input.value = "";
    grow();
    typingOff();
    const cid = uuid();
    const el = row("visitor", text, me.name);
    rows.set(cid, el);
    place(el);
    enqueue(text, cid, el);
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
  input.addEventListener("input", () => {
    grow();
    typed(!input.value);
  });
  const attach = els.cf as HTMLInputElement;
  attach.addEventListener("change", () => {
    sendFiles(Array.from(attach.files || []));
    attach.value = "";
  });
  // Pasted or dropped files go the same way as picked ones; pasted text stays text.
  input.addEventListener("paste", (ev) => {
    const picked = Array.from(ev.clipboardData?.files || []);
    if (picked.length) {
      ev.preventDefault();
      sendFiles(picked);
    }
  });
  els.v!.addEventListener("dragover", (ev) => ev.preventDefault());
  els.v!.addEventListener("drop", (ev) => {
    ev.preventDefault();
    sendFiles(Array.from(ev.dataTransfer?.files || []));
  });
  // A clear way out of a closed conversation: forget it and show the empty chat.
  els.nw!.addEventListener("click", () => {
    forget();
    input.focus();
  });
}

export { note };
