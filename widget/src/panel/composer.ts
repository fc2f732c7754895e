import { me } from "../shared/identity";
import { newId } from "../shared/not-sent";
import { session } from "../shared/session";
import { T } from "../shared/strings";
import type { Elements } from "../shared/types";
import { loadChunk } from "./chunks";
import { place, row, rows, status } from "./messages";
import { typed, typingOff } from "./presence";
import { emailGiven, enqueue } from "./send";

// The composer: text sent with Enter (Shift+Enter: a new line), files picked with the paperclip,
// pasted or dropped (a message of their own, checked here before anything is sent), the email the
// site may ask for, and the way out of a closed conversation. Sending is send.ts's.

/** Shows the visitor's row at once and sends it. */
function send(text: string, files?: File[]): void {
  session.boot.consent(); // the visitor acted: in consent mode that is consent
  const clientId = newId();
  const el = row("visitor", text, me.name);
  rows.set(clientId, el);
  place(el);
  if (!files) enqueue(text, clientId, el);
  else
    void loadChunk("uploads").then((uploads) => {
      const problem = !uploads ? T.uploadFailed : files.length > 10 ? T.tooMany : files.map(uploads.fileProblem).find(Boolean);
      if (problem) status(el, problem, "f");
      else enqueue("", clientId, el, files);
    });
}

const sendFiles = (picked: File[]) => void (picked.length && send("", picked));

export function initComposer(els: Elements): void {
  const form = els.c as HTMLFormElement,
    input = els.tx as HTMLTextAreaElement,
    email = els.ee as HTMLInputElement;
  els.ea!.addEventListener("submit", (event) => {
    event.preventDefault();
    me.email = email.value.trim();
    els.ea!.hidden = true;
    emailGiven();
    input.focus();
  });
  const grow = () => {
    input.style.height = "";
    input.style.height = Math.min(input.scrollHeight, 120) + "px";
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    grow();
    typingOff();
    send(text);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
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
  input.addEventListener("paste", (event) => {
    const picked = Array.from(event.clipboardData?.files || []);
    if (picked.length) {
      event.preventDefault();
      sendFiles(picked);
    }
  });
  els.v!.addEventListener("dragover", (event) => event.preventDefault());
  els.v!.addEventListener("drop", (event) => {
    event.preventDefault();
    sendFiles(Array.from(event.dataTransfer?.files || []));
  });
  // A clear way out of a closed conversation: forget it and show the empty chat.
  els.nw!.addEventListener("click", () => {
    session.forget();
    input.focus();
  });
}
