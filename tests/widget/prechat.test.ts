// @vitest-environment happy-dom
import { beforeEach, expect, test, vi } from "vitest";
import { testBoot } from "./boot";
import type { SiteConfig } from "../../widget/src/shared/types";
import type { PrechatChunk } from "../../widget/src/shared/chunk-apis";

// The prechat chunk (widget/src/chunks/prechat): before a first message on a site with departments
// or a pre-chat form, one form in the thread asks which department and the form's fields and
// consent; what it answers goes into the start's body (team_id, fields, consent).

const CONSENT = "I agree that Acme keeps this chat to answer me.";

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
});

function config(overrides: Partial<SiteConfig> = {}): SiteConfig {
  return {
    departments: [
      { team_id: "tm_sales", label: "Sales" },
      { team_id: "tm_support", label: "Support" },
    ],
    prechat: {
      fields: [
        { key: "name", label: null, type: "name", options: [], required: true },
        { key: "email", label: null, type: "email", options: [], required: false },
        { key: "plan", label: "Plan", type: "list", options: ["free", "pro"], required: true },
        { key: "seats", label: "Seats", type: "number", options: [], required: false },
      ],
      consent: { text: CONSENT, required: true },
    },
    ...overrides,
  } as SiteConfig;
}

async function open() {
  const registered = vi.fn();
  (window as unknown as { Parley: unknown }).Parley = { _chunk: registered };
  const boot = testBoot();
  const { session } = await import("../../widget/src/shared/session");
  session.start(boot);
  await import("../../widget/src/chunks/prechat/prechat"); // registers itself with Parley._chunk
  const api = registered.mock.calls.find(([name]) => name === "prechat")![1] as PrechatChunk;
  const ls = document.createElement("div");
  boot.root.append(ls);
  return { api, ls, els: { ls } };
}

test("asks the department, the form's fields (labels as text) and the consent with its exact text, each required as the site says", async () => {
  const { api, ls, els } = await open();
  const body: Record<string, unknown> = { body: "Hello" };
  const done = api.ask(els, config(), body);
  const form = ls.querySelector("form")!;
  expect(form).not.toBeNull();
  const department = form.querySelector<HTMLSelectElement>("select[name=team_id]")!;
  expect([...department.options].map((option) => option.textContent)).toEqual(["", "Sales", "Support"]);
  expect(department.required).toBe(true);
  expect(form.querySelector<HTMLInputElement>("input[name=name]")!.required).toBe(true);
  expect(form.querySelector<HTMLInputElement>("input[name=email]")!.type).toBe("email");
  expect(form.querySelector<HTMLInputElement>("input[name=email]")!.required).toBe(false);
  expect([...form.querySelector<HTMLSelectElement>("select[name=plan]")!.options].map((option) => option.value)).toEqual(["", "free", "pro"]);
  expect(form.querySelector<HTMLInputElement>("input[name=seats]")!.type).toBe("number");
  const consent = form.querySelector<HTMLInputElement>("input[name=consent]")!;
  expect(consent.type).toBe("checkbox");
  expect(consent.required).toBe(true);
  expect(consent.closest("label")!.textContent).toBe(CONSENT);
  expect(form.textContent).toContain("Plan");

  department.value = "tm_sales";
  form.querySelector<HTMLInputElement>("input[name=name]")!.value = "  Ada  ";
  form.querySelector<HTMLSelectElement>("select[name=plan]")!.value = "pro";
  consent.checked = true;
  form.dispatchEvent(new Event("submit", { cancelable: true }));
  await done;
  expect(body).toEqual({ body: "Hello", team_id: "tm_sales", fields: { name: "Ada", plan: "pro" }, consent: true });
  expect(ls.querySelector("form")).toBeNull();
});

test("a site with departments only asks the department and sends no fields or consent; an unticked optional consent is false", async () => {
  const { api, ls, els } = await open();

  const departmentsOnly: Record<string, unknown> = {};
  const first = api.ask(els, config({ prechat: null }), departmentsOnly);
  const form = ls.querySelector("form")!;
  expect(form.querySelectorAll("input")).toHaveLength(0);
  form.querySelector<HTMLSelectElement>("select[name=team_id]")!.value = "tm_support";
  form.dispatchEvent(new Event("submit", { cancelable: true }));
  await first;
  expect(departmentsOnly).toEqual({ team_id: "tm_support" });

  const formOnly: Record<string, unknown> = {};
  const second = api.ask(els, config({ departments: [], prechat: { fields: [{ key: "email", label: null, type: "email", options: [], required: false }], consent: { text: "Optional", required: false } } }), formOnly);
  const next = ls.querySelector("form")!;
  expect(next.querySelector("select[name=team_id]")).toBeNull();
  expect(next.querySelector<HTMLInputElement>("input[name=consent]")!.required).toBe(false);
  next.dispatchEvent(new Event("submit", { cancelable: true }));
  await second;
  expect(formOnly).toEqual({ fields: {}, consent: false });
});
