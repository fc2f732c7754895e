import { boot, st, vcall } from "./session";
import { fmt } from "./strings";
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

/** One PUT of `f` with XHR (for progress); resolves with the HTTP status (0: no answer). */
export const xput = (f: File, url: string, headers: Record<string, string>, progress: (done: number) => void): Promise<number> =>
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
  });

/** Describes and uploads each file into the conversation; the ids, or the first problem's text. */
export async function uploadAll(files: File[], progress: (done: number) => void): Promise<string[] | string> {
  const ids: string[] = [];
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let sent = 0;
  for (const f of files) {
    const r = await vcall("POST", "/api/v1/chat/visitor/uploads", { name: f.name.slice(0, 255), content_type: typeOf(f), bytes: f.size });
    const u = r.ok ? (r.result as { attachment_id: string; upload_url: string; upload_headers?: Record<string, string> }) : null;
    if (!u) return r.message || fmt("uploadFailed");
    const status = await xput(f, new URL(u.upload_url, boot.api).href, u.upload_headers || {}, (d) => progress((sent + d * f.size) / total));
    if (status < 200 || status > 299) return fmt(status === 400 ? "refused" : "uploadFailed");
    sent += f.size;
    ids.push(u.attachment_id);
  }
  return ids;
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
