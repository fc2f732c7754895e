import { h } from "../../shared/dom";
import { me } from "../../shared/identity";
import { newId } from "../../shared/not-sent";
import { request } from "../../shared/request";
import { session } from "../../shared/session";
import { fmt, T, type Key } from "../../shared/strings";
import type { Elements } from "../../shared/types";
import { fileProblem, putFile, size, typeOf } from "./files";
import { buildTicketView } from "./ticket-view";

// "Leave a message": a ticket with files. Files show as chips (name, size, remove); fields are
// checked inline; the uploads run after the ticket is filed, each with its progress and a retry.

let els: Elements;
let files: File[] = [];
let chips: HTMLLIElement[] = [];
let idempotencyKey = "";

const formProblem = () => (files.length > 10 ? T.tooMany : files.map(fileProblem).find(Boolean) || "");

function renderChips() {
  chips = files.map((file, i) => {
    const li = h("li");
    const bar = h("progress");
    bar.hidden = true;
    bar.setAttribute("aria-label", fmt("uploadOf", { name: file.name }));
    const remove = h("button", "x", "×");
    remove.type = "button";
    remove.setAttribute("aria-label", fmt("remove", { name: file.name }));
    remove.addEventListener("click", () => {
      files.splice(i, 1);
      idempotencyKey = "";
      renderChips();
      els.tf!.focus();
    });
    const name = h("span", "", file.name + " ");
    name.append(h("span", "fz", size(file.size)));
    const problem = fileProblem(file);
    li.classList.toggle("bad", Boolean(problem));
    li.append(name, remove, bar, h("span", "fs", problem));
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
    const given = value(id);
    const problem: Key | "" = !given ? "required" : id === "te" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(given) ? "badEmail" : "";
    input.setAttribute("aria-invalid", String(Boolean(problem)));
    els[id + "-e"]!.textContent = problem ? T[problem] : "";
    if (problem && !first) first = input;
  }
  (first as HTMLElement | null)?.focus();
  return !first;
}

/** PUT with progress, with the headers the ticket reply asks for. */
async function put(file: File, url: string, headers: Record<string, string>, li: HTMLLIElement): Promise<boolean> {
  const bar = li.querySelector("progress") as HTMLProgressElement,
    statusLine = li.querySelector(".fs") as HTMLElement;
  bar.hidden = false;
  statusLine.textContent = T.uploading;
  li.classList.remove("bad");
  const status = await putFile(file, url, headers, (done) => (bar.value = done));
  const ok = status >= 200 && status < 300;
  li.classList.toggle("bad", !ok);
  const refused = status === 400; // e.g. the bytes do not match the described type
  statusLine.textContent = ok ? T.uploaded : refused ? T.refused : T.uploadFailed;
  bar.hidden = !ok;
  if (ok) bar.value = 1;
  else if (!refused) {
    const again = h("button", "lk", T.retryUpload);
    again.type = "button";
    again.addEventListener("click", () => void put(file, url, headers, li).then(tally));
    statusLine.append(again);
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

async function submit(event: Event) {
  event.preventDefault();
  const problem = formProblem();
  const fieldsOk = checkFields();
  els.er!.textContent = problem || (fieldsOk ? "" : T.fixErrors);
  if (problem || !fieldsOk) return;
  const body: Record<string, unknown> = { email: value("te"), subject: value("ts"), body: value("tb") };
  if (value("tn")) body.name = value("tn");
  const sent = files.slice();
  if (sent.length) body.files = sent.map((file) => ({ name: file.name.slice(0, 255), content_type: typeOf(file), bytes: file.size }));
  idempotencyKey ||= newId(); // a retried submit replays instead of filing twice
  const button = els.tsb as HTMLButtonElement;
  button.disabled = true;
  const boot = session.boot;
  const answer = await request("POST", boot.route + "/tickets", {
    body,
    headers: { "Idempotency-Key": idempotencyKey },
  });
  button.disabled = false;
  const filed = answer.ok ? (answer.result as { number?: number; uploads?: Upload[] } | null) : null;
  if (!filed) {
    if (answer.status === 403 || answer.status === 404) boot.quiet();
    if (answer.code === "idempotency_conflict") idempotencyKey = "";
    els.er!.textContent =
      answer.status === 0
        ? T.errNetwork
        : answer.code === "daily_allowance_exhausted"
          ? T.errAllowance
          : answer.status === 429
            ? T.errBusy
            : answer.status === 400 && answer.message
              ? answer.message
              : answer.status === 403 || answer.status === 404
                ? T.errSite
                : T.errGeneric;
    return;
  }
  const uploads = filed.uploads || [];
  els.dm!.textContent = fmt("received", { number: filed.number ?? "", email: String(body.email) });
  els.de!.textContent = "";
  els.t!.hidden = true;
  els.dn!.hidden = false;
  els.fl!.querySelectorAll(".x").forEach((remove) => remove.remove());
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
    sent.map((file, i) => {
      const upload = uploads[i]?.name === file.name ? uploads[i] : uploads.find((other) => other.name === file.name) || uploads[i];
      return upload ? put(file, new URL(upload.upload_url, boot.api).href, upload.upload_headers || {}, sentChips[i]!) : false;
    }),
  );
  removeEventListener("beforeunload", holdPage);
  heading.textContent = T.thanks;
  tally();
}

const holdPage = (event: BeforeUnloadEvent) => event.preventDefault();

/** Wires the form once; answers what opening it does. */
export function initTickets(elements: Elements, show: (form: boolean) => void): () => void {
  els = elements;
  buildTicketView(elements);
  const form = els.t as HTMLFormElement,
    input = els.tf as HTMLInputElement;
  input.addEventListener("change", () => {
    files = files.concat(Array.from(input.files || []));
    input.value = "";
    idempotencyKey = "";
    renderChips();
  });
  form.addEventListener("input", (event) => {
    idempotencyKey = ""; // a changed request gets a new Idempotency-Key
    const id = (event.target as HTMLElement).id;
    if (els[id + "-e"]?.textContent) {
      els[id + "-e"]!.textContent = "";
      els[id]!.removeAttribute("aria-invalid");
    }
  });
  form.addEventListener("submit", (event) => void submit(event));
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
