import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";

// Issue 9, item 11: a validation error listed every bad field, so a 0.98 MB body of unknown keys
// produced a 3.9 MB answer. The list is capped at 20 and `fields_omitted` counts the rest.

describe("a validation error's size", () => {
  test("a body of 10 000 unknown fields gets the first 20 and a count of the rest", async () => {
    const site = await createSite();
    const body = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 1]));
    const raw = JSON.stringify(body);
    expect(raw.length).toBeGreaterThan(90_000); // its error listed every one: 4 times its size
    const before = await rowCounts();
    const response = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, rawBody: raw });
    expectError(response, 400, "invalid_request");
    const result = response.json.result as { fields: { path: string; problem: string }[]; fields_omitted: number };
    expect(result.fields).toHaveLength(20);
    expect(result.fields[0]).toEqual({ path: "k0", problem: "unknown field" });
    expect(result.fields_omitted).toBe(10_000 - 20);
    expect(response.json.message).toContain("10000 problems; the first 20 are listed");
    expect(JSON.stringify(response.json).length).toBeLessThan(4_000);
    expect(await rowCounts()).toEqual(before);
  });

  test("a single unknown key as long as the body is cut short in the answer", async () => {
    const site = await createSite();
    const key = "x".repeat(500_000);
    const response = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: { [key]: 1 } });
    expectError(response, 400, "invalid_request");
    expect(response.json.result.fields).toEqual([{ path: `${"x".repeat(99)}…`, problem: "unknown field" }]);
    expect(response.json.result.fields_omitted).toBeUndefined();
    expect(JSON.stringify(response.json).length).toBeLessThan(1_000);
  });

  test("up to 20 problems are all listed, with no count", async () => {
    const site = await createSite();
    const body = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 1]));
    const response = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body });
    expect(response.json.result.fields).toHaveLength(20);
    expect(response.json.result).not.toHaveProperty("fields_omitted");
    expect(response.json.message).not.toContain("problems");
  });
});
