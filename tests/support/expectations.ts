import { expect } from "vitest";
import type { ApiResponse } from "./api";

/** An error envelope with this status and code, and nothing else leaking. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.json?.result?.code }).toEqual({ status, code });
  expect(response.json.success).toBe(false);
  expect(typeof response.json.message).toBe("string");
  expect(response.json.message.length).toBeLessThanOrEqual(256);
}
