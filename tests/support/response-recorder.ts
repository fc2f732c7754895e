import { vi } from "vitest";
import { api, type ApiResponse } from "./api";

// Records every response the `api` helper receives (fixtures included, since they call it too)
// and every line written to stderr, so a suite can search both for secrets.

export interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: [string, string][];
  body: string;
}

export function recordResponses(): { responses: Recorded[]; stop(): void } {
  const responses: Recorded[] = [];
  const originals = { ...api };
  for (const method of Object.keys(originals) as (keyof typeof api)[]) {
    const original = originals[method];
    (api as Record<string, unknown>)[method] = async (path: string, options?: object) => {
      const response: ApiResponse = await original(path, options);
      responses.push({
        method: method.toUpperCase(),
        path,
        status: response.status,
        headers: [...response.headers.entries()],
        body: JSON.stringify(response.json),
      });
      return response;
    };
  }
  return { responses, stop: () => Object.assign(api, originals) };
}

export function captureStderr(): { lines: () => string[]; stop(): void } {
  const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  return {
    lines: () => spy.mock.calls.map(([chunk]) => String(chunk)).flatMap((text) => text.split("\n")).filter(Boolean),
    stop: () => spy.mockRestore(),
  };
}
