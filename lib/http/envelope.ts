// What a handler returns; the pipeline serialises it into the envelope
// {success, result, message} with the common headers.

export interface Reply {
  status: 200 | 201 | 202;
  result: unknown;
  message: string;
  headers?: Record<string, string>;
}

export const ok = (result: unknown, message = "OK"): Reply => ({ status: 200, result, message });

export const created = (result: unknown, message = "Created."): Reply => ({ status: 201, result, message });

/** Taken on, done later (an email queued). */
export const accepted = (result: unknown, message = "Accepted."): Reply => ({ status: 202, result, message });

// The bodies themselves are shared with the front of `npm start` (plain JavaScript).
export { errorBody, successBody } from "./wire.mjs";
