import { me } from "./identity";
import { request } from "./request";
import { newId } from "./composer";
import { boot } from "./session";
import { fmt, T, type Key } from "./strings";
import { h, type Elements } from "./view";
import { fileProblem, size, typeOf, xput } from "./files";
import { buildTicketView } from "./ticket-view";

// "Leave a message": a ticket with files. Files show as chips (name, size, remove); fields are
// checked inline; the uploads run after the ticket is filed, each with its progress and a retry.

let els: Elements;
let files: File[] = [];
let chips: HTMLLIElement[] = [];
let idempotencyKey = "";

const formProblem = () => (files.length > 10 ? T.tooMany : files.map(fileProblem).find(Boolean) || "");

function renderChips() {
  chips = files.map((f, i) => {
    const li = h("li");
    const pg = h("progress");
    pg.hidden = true;
    pg.setAttribute("aria-label", fmt("uploadOf", { name: f.name }));
    const x = h("button", "x", "×");
    x.type = "button";
    x.setAttribute("aria-label", fmt("remove", { name: f.name }));
    x.addEventListener("click", () => {
      files.splice(i, 1);
      idempotencyKey = "";
      renderChips();
      els.tf!.focus();
    });
    const name = h("span", "", f.name + " ");
    name.append(h("span", "fz", size(f.size)));
    const problem = fileProblem(f);
    li.classList.toggle("bad", Boolean(problem));
    li.append(name, x, pg, h("span", "fs", problem));
    return li;
  });
  els.fl!.replaceChildren(...chips);
  els.er!.textContent = files.length > 10 ? T.tooMany : "";
}

const value = (id: string) => (els[id] as HTMLInputElement).value.trim();

/** Inline checks; the first field in error gets focus. */
function checkFields(): boolean {
  let first: HTMLElement | null = null;
  for (const id of ["te", "ts", "tb"]) {
    const input = els[id] as HTMLInputElement;
    const v = value(id);
    const problem: Key | "" = !v ? "required" : id === "te" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? "badEmail" : "";
    input.setAttribute("aria-invalid", String(Boolean(problem)));
    els[id + "-e"]!.textContent = problem ? T[problem] : "";
    if (problem && !first) first = input;
  }
  (first as HTMLElement | null)?.focus();
  return !first;
}

/** PUT with progress, with the headers the ticket reply asks for. */
async function put(f: File, url: string, headers: Record<string, string>, li: HTMLLIElement): Promise<boolean> {
  const pg = li.querySelector("progress") as HTMLProgressElement,
    fs = li.querySelector(".fs") as HTMLElement;
  pg.hidden = false;
  fs.textContent = T.uploading;
  li.classList.remove("bad");
  const status = await xput(f, url, headers, (done) => (pg.value = done));
  const ok = status >= 200 && status < 300;
  li.classList.toggle("bad", !ok);
  const refused = status === 400; // e.g. the bytes do not match the described type
  fs.textContent = ok ? T.uploaded : refused ? T.refused : T.uploadFailed;
  pg.hidden = !ok;
  if (ok) pg.value = 1;
  else if (!refused) {
    const b = h("button", "lk", T.retryUpload);
    b.type = "button";
    b.addEventListener("click", () => void put(f, url, headers, li).then(tally));
    fs.append(b);
  }
  return ok;
}

const tally = () => {
  const bad = chips.filter((li) => li.classList.contains("bad")).length;
  els.de!.textContent = bad ? fmt("filesFailed", { n: bad }) : "";
};

interface Upload {
  name: string;
  upload_url: string;
  upload_headers?: Record<string, string>;
}

async function submit(ev: Event) {
  ev.preventDefault();
  const problem = formProblem();
  const fieldsOk = checkFields();
  els.er!.textContent = problem || (fieldsOk ? "" : T.fixErrors);
  if (problem || !fieldsOk) return;
  const body: Record<string, unknown> = { email: value("te"), subject: value("ts"), body: value("tb") };
  if (value("tn")) body.name = value("tn");
  const sent = files.slice();
  if (sent.length) body.files = sent.map((f) => ({ name: f.name.slice(0, 255), content_type: typeOf(f), bytes: f.size }));
  idempotencyKey ||= newId(); // a retried submit replays instead of filing twice
  const button = els.tsb as HTMLButtonElement;
  button.disabled = true;
  const r = await request("POST", boot.api + "/api/v1/chat/widget/" + encodeURIComponent(boot.site) + "/tickets", {
    body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  button.disabled = false;
  const x = r.ok ? (r.result as { number?: number; uploads?: Upload[] } | null) : null;
  if (!x) {
    if (r.status === 403 || r.status === 404) boot.quiet();
    if (r.code === "idempotency_conflict") idempotencyKey = "";
    els.er!.textContent =
      r.status === 0
        ? T.errNetwork
        : r.code === "daily_allowance_exhausted"
          ? T.errAllowance
          : r.status === 429
            ? T.errBusy
            : r.status === 400 && r.message
              ? r.message
              : r.status === 403 || r.status === 404
                ? T.errSite
                : T.errGeneric;
    return;
  }
  const ups = x.uploads || [];
  els.dm!.textContent = fmt("received", { number: x.number ?? "", email: String(body.email) });
  els.de!.textContent = "";
  els.t!.hidden = true;
  els.dn!.hidden = false;
  els.fl!.querySelectorAll(".x").forEach((b) => b.remove());
  els.dn!.insertBefore(els.fl!, els.de!);
  els.db!.focus();
  const sentChips = chips;
  // The ticket is filed, its files not yet: no "Thank you" until they are, and the browser asks
  // before the page is left meanwhile.
  const heading = els.dn!.querySelector("h2")!;
  if (sent.length) {
    heading.textContent = T.sendingFiles;
    addEventListener("beforeunload", holdPage);
  }
  await Promise.all(
    sent.map((f, i) => {
      const u = ups[i]?.name === f.name ? ups[i] : ups.find((y) => y.name === f.name) || ups[i];
      return u ? put(f, new URL(u.upload_url, boot.api).href, u.upload_headers || {}, sentChips[i]!) : false;
    }),
  );
  removeEventListener("beforeunload", holdPage);
  heading.textContent = T.thanks;
  tally();
}

const holdPage = (ev: BeforeUnloadEvent) => ev.preventDefault();

/** Wires the form once; answers what opening it does. */
export function initTickets(e: Elements, show: (form: boolean) => void): () => void {
  els = e;
  buildTicketView(e);
  const form = els.t as HTMLFormElement,
    input = els.tf as HTMLInputElement;
  input.addEventListener("change", () => {
    files = files.concat(Array.from(input.files || []));
    input.value = "";
    idempotencyKey = "";
    renderChips();
  });
  form.addEventListener("input", (ev) => {
    idempotencyKey = ""; // a changed request gets a new Idempotency-Key
    const id = (ev.target as HTMLElement).id;
    if (els[id + "-e"]?.textContent) {
      els[id + "-e"]!.textContent = "";
      els[id]!.removeAttribute("aria-invalid");
    }
  });
  form.addEventListener("submit", (ev) => void submit(ev));
  els.bk!.addEventListener("click", () => show(false));
  els.db!.addEventListener("click", () => {
    form.reset();
    idempotencyKey = "";
    files = [];
    chips = [];
    els.fl!.replaceChildren();
    form.insertBefore(els.fl!, els.er!);
    show(false);
  });
  return () => {
    (els.tn as HTMLInputElement).value ||= me.name;
    (els.te as HTMLInputElement).value ||= me.email;
    show(true);
  };
}
