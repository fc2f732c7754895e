import { BASE_URL } from "./api";

// The inbox's live channel as a browser holds it: GET /api/v1/inbox/events through the real route
// handler, its body read as it arrives. Waits use real timers (performance.now), so a test may fake
// setInterval and Date to drive the stream's heartbeat.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class EventStream {
  /** Everything received so far, as text. */
  text = "";
  /** The server ended the body (or it was cancelled). */
  done = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | null;

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    this.reader = response.status === 200 && response.body ? response.body.getReader() : null;
    if (this.reader) void this.pump(this.reader);
  }

  get status(): number {
    return this.response.status;
  }

  /** The `data:` payloads received so far. */
  get events(): { type: string; [key: string]: unknown }[] {
    return [...this.text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!));
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      this.text += decoder.decode(value, { stream: true });
    }
    this.done = true;
  }

  /** Whether `check` held within `timeoutMs` (polled every 10 ms). */
  async until(check: () => boolean, timeoutMs = 3_000): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!check()) {
      if (performance.now() > deadline) return false;
      await sleep(10);
    }
    return true;
  }

  ready = (timeoutMs?: number) => this.until(() => this.events.some((event) => event.type === "ready"), timeoutMs);
  ended = (timeoutMs?: number) => this.until(() => this.done, timeoutMs);

  /** The browser goes away (the request's signal aborts). */
  abort(): void {
    this.controller.abort();
  }

  /** The reader gives up on the body (the response stream is cancelled). */
  async cancel(): Promise<void> {
    await this.reader?.cancel();
  }
}

const open: EventStream[] = [];

/** Opens the event stream with a session cookie (`parley_session=…`). */
export async function openEventStream(cookie: string): Promise<EventStream> {
  const { GET } = await import("../../app/api/v1/inbox/events/route");
  const controller = new AbortController();
  const response = await GET(new Request(`${BASE_URL}/api/v1/inbox/events`, { headers: { Cookie: cookie }, signal: controller.signal }), {});
  const stream = new EventStream(response, controller);
  open.push(stream);
  return stream;
}

/** Aborts every stream opened so far (afterEach). */
export function abortEventStreams(): void {
  for (const stream of open.splice(0)) stream.abort();
}
