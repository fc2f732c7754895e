import { h, TYPES } from "../../shared/dom";
import type { Attachment } from "../../shared/message";
import { session } from "../../shared/session";
import { StateKey } from "../../shared/state";
import { fmt, T } from "../../shared/strings";

// Files, for tickets and for the chat: the accepted types (browsers report no or another type for
// csv, docx…: the extension decides then), the size label, the PUT with progress, and in the chat
// the files of a message: images shown inline from a blob URL, others as download buttons. Both
// are fetched with the visitor token (never a URL that works without it), which is why a host
// page's CSP needs `img-src blob:` (docs/widget.md, "Content-Security-Policy").

const EXT = "png jpe?g gif webp pdf txt csv zip doc docx xlsx".split(" ");
export const typeOf = (file: File): string | undefined =>
  TYPES.includes(file.type) ? file.type : TYPES[EXT.findIndex((ext) => new RegExp("\\.(" + ext + ")$", "i").test(file.name))];
export const size = (bytes: number) => (bytes < 1048576 ? Math.max(1, Math.ceil(bytes / 1024)) + " KB" : (bytes / 1048576).toFixed(1) + " MB");

export function fileProblem(file: File): string {
  if (!typeOf(file)) return fmt("badType", { name: file.name });
  if (file.size > 10485760) return fmt("tooBig", { name: file.name });
  return "";
}

/** One PUT of `file` with XHR (for progress); resolves with the HTTP status (0: no answer, or aborted with `started`'s XHR). */
export const putFile = (file: File, url: string, headers: Record<string, string>, progress: (done: number) => void, started?: (xhr: XMLHttpRequest) => void): Promise<number> =>
  new Promise((done) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("Content-Type", typeOf(file) as string);
    for (const [name, value] of Object.entries(headers)) if (typeof value === "string") xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener("progress", (event) => event.lengthComputable && progress(event.loaded / event.total));
    xhr.addEventListener("load", () => done(xhr.status));
    xhr.addEventListener("error", () => done(0));
    xhr.addEventListener("abort", () => done(0));
    xhr.send(file);
    started?.(xhr);
  });

/** A file of a message being sent: its chip, and once uploaded its id in conversation `conversationId`. */
interface Pending {
  file: File;
  li: HTMLLIElement;
  id?: string;
  conversationId?: string | null;
  xhr?: XMLHttpRequest;
  /** being described or uploaded now */
  busy?: boolean;
  gone?: boolean;
}
const pendingByRow = new WeakMap<HTMLElement, Pending[]>();

/** A chip: name and size, progress, what is happening (inside the message list, a live region), and Cancel. */
function chip(upload: Pending, all: Pending[], retry: () => void): HTMLLIElement {
  const li = h("li");
  const name = h("span", "", upload.file.name + " ");
  name.dir = "auto";
  name.append(h("span", "fz", size(upload.file.size)));
  const bar = h("progress");
  bar.setAttribute("aria-label", fmt("uploadOf", { name: upload.file.name }));
  const cancel = h("button", "x", "×");
  cancel.type = "button";
  cancel.setAttribute("aria-label", fmt("cancelUpload", { name: upload.file.name }));
  cancel.addEventListener("click", () => {
    const list = li.parentElement!;
    upload.gone = true;
    if (upload.busy) upload.xhr?.abort(); // the upload under way ends; the send goes on with the others
    else if (all.every((other) => other.gone || other.id)) retry(); // after a failure: send what is left (or nothing)
    li.remove();
    (list.querySelector<HTMLElement>(".x") || list.closest(".m")?.querySelector<HTMLElement>(".mt .lk"))?.focus();
  });
  li.append(name, cancel, bar, h("span", "fs"));
  return li;
}

/**
 * Uploads the files of message row `el`, each as a chip with its progress and Cancel; a failed one
 * says why and offers Retry (`retry` sends the message again: uploaded files are not uploaded twice).
 * Answers the ids of the files uploaded, null when every file was cancelled, or the first problem's text.
 */
export async function uploadFiles(el: HTMLElement, files: File[], retry: () => void): Promise<string[] | string | null> {
  let all = pendingByRow.get(el);
  if (!all) {
    const list: Pending[] = (all = files.map((file) => ({ file }) as Pending));
    const ul = h("ul", "fl");
    ul.replaceChildren(...list.map((file) => (file.li = chip(file, list, retry))));
    el.querySelector(".bd")!.insertBefore(ul, el.querySelector(".mt"));
    pendingByRow.set(el, list);
  }
  let problem = "";
  for (const upload of all) {
    if (upload.gone || (upload.id && upload.conversationId === session.state[StateKey.ConversationId])) continue;
    upload.busy = true;
    const why = await uploadOne(upload);
    upload.busy = false;
    if (why && !upload.gone) {
      problem ||= why;
      const again = h("button", "lk", T.retryUpload);
      again.type = "button";
      again.addEventListener("click", retry);
      upload.li.classList.add("bad");
      upload.li.querySelector(".fs")!.append(" ", again);
    }
  }
  const live = all.filter((upload) => !upload.gone);
  if (problem) return problem;
  el.querySelector(".fl")?.remove(); // sent: the message shows its files as the server lists them
  return live.length ? live.map((upload) => upload.id!) : null;
}

/** Describes one file into the current conversation and PUTs it; "" when done, else why not. */
async function uploadOne(upload: Pending): Promise<string> {
  const bar = upload.li.querySelector("progress")!,
    statusLine = upload.li.querySelector(".fs")!;
  upload.li.classList.remove("bad");
  statusLine.textContent = T.uploading;
  const answer = await session.call("POST", "/api/v1/chat/visitor/uploads", { name: upload.file.name.slice(0, 255), content_type: typeOf(upload.file), bytes: upload.file.size });
  const described = answer.ok ? (answer.result as { attachment_id: string; upload_url: string; upload_headers?: Record<string, string> }) : null;
  if (upload.gone) return "";
  if (!described) return (statusLine.textContent = answer.message || T.uploadFailed);
  const status = await putFile(upload.file, new URL(described.upload_url, session.boot.api).href, described.upload_headers || {}, (done) => (bar.value = done), (xhr) => (upload.xhr = xhr));
  upload.xhr = undefined;
  if (upload.gone) return "";
  if (status < 200 || status > 299) return (statusLine.textContent = status === 400 ? T.refused : T.uploadFailed);
  bar.value = 1;
  statusLine.textContent = T.uploaded;
  upload.id = described.attachment_id;
  upload.conversationId = session.state[StateKey.ConversationId];
  return "";
}

const blobs = new Map<string, Promise<string | null>>();

/** The file's bytes as a blob URL, fetched once with the visitor token. */
function blobOf(attachment: Attachment): Promise<string | null> {
  let loading = blobs.get(attachment.id);
  if (!loading && /^\/api\/v1\/chat\/visitor\/attachments\/[^/?#]+$/.test(attachment.url)) {
    loading = fetch(session.boot.api + attachment.url, { headers: { Authorization: "Bearer " + session.state[StateKey.Token] }, credentials: "omit", cache: "no-store" })
      .then(async (response) => (response.ok ? URL.createObjectURL(await response.blob()) : null))
      .catch(() => null);
    blobs.set(attachment.id, loading);
  }
  return loading || Promise.resolve(null);
}

/** A file as a chip that downloads it (its name and size). */
function downloadChip(attachment: Attachment): HTMLButtonElement {
  const chip = h("button", "fk", attachment.name + " ");
  chip.type = "button";
  chip.dir = "auto";
  chip.append(h("span", "fz", size(attachment.bytes)));
  chip.addEventListener("click", () =>
    void blobOf(attachment).then((url) => {
      if (!url) return;
      const link = h("a");
      link.href = url;
      link.download = attachment.name;
      link.click();
    }),
  );
  return chip;
}

/**
 * A message's files under its text: images inline (a fixed box: no layout shift), others as chips
 * that download. An image the page cannot show (a host CSP without `img-src blob:`, a failed fetch)
 * becomes its download chip, never a broken box.
 */
export function showFiles(el: HTMLElement, files: Attachment[]): void {
  const at = h("div", "at");
  for (const attachment of files) {
    if (/^image\/(png|jpeg|gif|webp)$/.test(attachment.content_type)) {
      const img = h("img");
      img.alt = attachment.name;
      const fallBack = () => img.replaceWith(downloadChip(attachment));
      img.addEventListener("error", fallBack);
      at.append(img);
      void blobOf(attachment).then((url) => (url ? (img.src = url) : fallBack()));
    } else at.append(downloadChip(attachment));
  }
  el.querySelector(".bd")!.insertBefore(at, el.querySelector(".mt"));
}
