// What a handler returns; the pipeline serialises it into the envelope
// {success, result, message} with the common headers.

export interface Reply {
  status: 200 | 201;
  result: unknown;
  message: string;
  headers?: Record<string, string>;
}

const MAX_MESSAGE_LENGTH = 256;

export const ok = (result: unknown, message = "OK"): Reply => ({ status: 200, result, message });

export const created = (result: unknown, message = "Created."): Reply => ({ status: 201, result, message });

export function successBody(reply: Reply): string {
  return JSON.stringify({ success: true, result: reply.result, message: reply.message.slice(0, MAX_MESSAGE_LENGTH) });
}

export function errorBody(code: string, message: string, extra?: Record<string, unknown>): string {
  return JSON.stringify({
    success: false,
    result: { code, ...extra },
    message: message.slice(0, MAX_MESSAGE_LENGTH),
  });
}
