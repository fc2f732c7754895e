import { boot, st, vcall } from "./session";
import { fmt, T } from "./strings";
import { h, TYPES } from "./view";

// Files, for tickets and for the chat: the accepted types (browsers report no or another type for
// csv, docx…: the extension decides then), the size label, the PUT with progress, and in the chat
// the files of a message: images shown inline from a blob URL, others as download buttons. Both
// are fetched with the visitor token (never a URL that works without it).

const EXT = "png jpe?g gif webp pdf txt csv zip doc docx xlsx".split(" ");
export const typeOf = (f: File): string | undefined =>
  TYPES.includes(f.type) ? f.type : TYPES[EXT.findIndex((x) => new RegExp("\\.(" + x + ")$", "i").test(f.name))];
export const size = (n: number) => (n < 1048576 ? Math.max(1, Math.ceil(n / 1024)) + " KB" : (n / 1048576).toFixed(1) + " MB");

export function fileProblem(f: File): string {
  if (!typeOf(f)) return fmt("badType", { name: f.name });
  if (f.size > 10485760) return fmt("tooBig", { name: f.name });
  return "";
}

/** One PUT of `f` with XHR (for progress); resolves with the HTTP status (0: no answer, or aborted with `started`'s XHR). */
export const xput = (f: File, url: string, headers: Record<string, string>, progress: (done: number) => void, started?: (x: XMLHttpRequest) => void): Promise<number> =>
  new Promise((done) => {
    const x = new XMLHttpRequest();
    x.open("PUT", url);
    x.setRequestHeader("Content-Type", typeOf(f) as string);
    for (const [name, v] of Object.entries(headers)) if (typeof v === "string") x.setRequestHeader(name, v);
    x.upload.addEventListener("progress", (e) => e.lengthComputable && progress(e.loaded / e.total));
    x.addEventListener("load", () => done(x.status));
    x.addEventListener("error", () => done(0));
    x.addEventListener("abort", () => done(0));
    x.send(f);
    started?.(x);
  });

/** A file of a message being sent: its chip, and once uploaded its id in conversation `c`. */
interface Pending {
  f: File;
  li: HTMLLIElement;
  id?: string;
  c?: string | null;
  x?: XMLHttpRequest;
  /** being described or uploaded now */
  busy?: boolean;
  gone?: boolean;
}
const pending = new WeakMap<HTMLElement, Pending[]>();

/** A chip: name and size, progress, what is happening (inside the message list, a live region), and Cancel. */
function chip(p: Pending, all: Pending[], retry: () => void): HTMLLIElement {
  const li = h("li");
  const name = h("span", "", p.f.name + " ");
  name.dir = "auto";
  name.append(h("span", "fz", size(p.f.size)));
  const pg = h("progress");
  pg.setAttribute("aria-label", fmt("uploadOf", { name: p.f.name }));
  const x = h("button", "x", "×");
  x.type = "button";
  x.setAttribute("aria-label", fmt("cancelUpload", { name: p.f.name }));
  x.addEventListener("click", () => {
    const list = li.parentElement!;
    p.gone = true;
    if (p.busy) p.x?.abort(); // the upload under way ends; the send goes on with the others
    else if (all.every((o) => o.gone || o.id)) retry(); // after a failure: send what is left (or nothing)
    li.remove();
    (list.querySelector<HTMLElement>(".x") || list.closest(".m")?.querySelector<HTMLElement>(".mt .lk"))?.focus();
  });
  li.append(name, x, pg, h("span", "fs"));
  return li;
}

/**
 * Uploads the files of message row `el`, each as a chip with its progress and Cancel; a failed one
 * says why and offers Retry (`retry` sends the message again: uploaded files are not uploaded twice).
 * Answers the ids of the files uploaded, null when every file was cancelled, or the first problem's text.
 */
export async function uploadFiles(el: HTMLElement, files: File[], retry: () => void): Promise<string[] | string | null> {
  let all = pending.get(el);
  if (!all) {
    const list: Pending[] = (all = files.map((f) => ({ f }) as Pending));
    const ul = h("ul", "fl");
    ul.replaceChildren(...list.map((p) => (p.li = chip(p, list, retry))));
    el.querySelector(".bd")!.insertBefore(ul, el.querySelector(".mt"));
    pending.set(el, list);
  }
  let problem = "";
  for (const p of all) {
    if (p.gone || (p.id && p.c === st.c)) continue;
    p.busy = true;
    const why = await uploadOne(p);
    p.busy = false;
    if (why && !p.gone) {
      problem ||= why;
      const b = h("button", "lk", T.retryUpload);
      b.type = "button";
      b.addEventListener("click", retry);
      p.li.classList.add("bad");
      p.li.querySelector(".fs")!.append(" ", b);
    }
  }
  const live = all.filter((p) => !p.gone);
  if (problem) return problem;
  el.querySelector(".fl")?.remove(); // sent: the message shows its files as the server lists them
  return live.length ? live.map((p) => p.id!) : null;
}

/** Describes one file into the current conversation and PUTs it; "" when done, else why not. */
async function uploadOne(p: Pending): Promise<string> {
  const pg = p.li.querySelector("progress")!,
    fs = p.li.querySelector(".fs")!;
  p.li.classList.remove("bad");
  fs.textContent = T.uploading;
  const r = await vcall("POST", "/api/v1/chat/visitor/uploads", { name: p.f.name.slice(0, 255), content_type: typeOf(p.f), bytes: p.f.size });
  const u = r.ok ? (r.result as { attachment_id: string; upload_url: string; upload_headers?: Record<string, string> }) : null;
  if (p.gone) return "";
  if (!u) return (fs.textContent = r.message || T.uploadFailed);
  const status = await xput(p.f, new URL(u.upload_url, boot.api).href, u.upload_headers || {}, (d) => (pg.value = d), (x) => (p.x = x));
  p.x = undefined;
  if (p.gone) return "";
  if (status < 200 || status > 299) return (fs.textContent = status === 400 ? T.refused : T.uploadFailed);
  pg.value = 1;
  fs.textContent = T.uploaded;
  p.id = u.attachment_id;
  p.c = st.c;
  return "";
}

export interface Attachment {
  id: string;
  name: string;
  content_type: string;
  bytes: number;
  url: string;
}

const blobs = new Map<string, Promise<string | null>>();

/** The file's bytes as a blob URL, fetched once with the visitor token. */
function blobOf(a: Attachment): Promise<string | null> {
  let p = blobs.get(a.id);
  if (!p && /^\/api\/v1\/chat\/visitor\/attachments\/[^/?#]+$/.test(a.url)) {
    p = fetch(boot.api + a.url, { headers: { Authorization: "Bearer " + st.t }, credentials: "omit", cache: "no-store" })
      .then(async (r) => (r.ok ? URL.createObjectURL(await r.blob()) : null))
      .catch(() => null);
    blobs.set(a.id, p);
  }
  return p || Promise.resolve(null);
}

/** A message's files under its text: images inline (a fixed box: no layout shift), others as chips that download. */
export function showFiles(el: HTMLElement, files: Attachment[]): void {
  const at = h("div", "at");
  for (const a of files) {
    if (/^image\/(png|jpeg|gif|webp)$/.test(a.content_type)) {
      const img = h("img");
      img.alt = a.name;
      at.append(img);
      void blobOf(a).then((u) => u && (img.src = u));
    } else {
      const b = h("button", "fk", a.name + " ");
      b.type = "button";
      b.dir = "auto";
      b.append(h("span", "fz", size(a.bytes)));
      b.addEventListener("click", () =>
        void blobOf(a).then((u) => {
          if (!u) return;
          const link = h("a");
          link.href = u;
          link.download = a.name;
          link.click();
        }),
      );
      at.append(b);
    }
  }
  el.querySelector(".bd")!.insertBefore(at, el.querySelector(".mt"));
}
