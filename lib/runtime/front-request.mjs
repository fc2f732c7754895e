// @ts-check
import { Readable } from "node:stream";

// The request the front hands to a hot route's handler. Route handlers take a Fetch `Request`,
// but building one (undici parses the URL, copies and validates every header into a sorted list,
// and gives each request its own AbortSignal) cost the front more than the rest of an idle poll
// besides its query. The route pipeline reads only what is here — method, url, headers.get,
// signal, body — so the front builds this instead, over what Node has already parsed and checked.
// Its answers are the same (tests/integration/front.test.ts, production-server.test.ts).

const NEVER_ABORTED = new AbortController().signal;

/**
 * `Headers.get` over a request's raw header pairs: case-insensitive, repeated names joined by ", ".
 * A handler asks for two or three names, so each `get` scans the pairs rather than building a map.
 */
export class FrontHeaders {
  /** @type {string[]} */
  #raw;

  /** @param {string[]} raw  name, value, name, value… as Node received them (already screened) */
  constructor(raw) {
    this.#raw = raw;
  }

  /**
   * @param {string} name
   * @returns {string | null}
   */
  get(name) {
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    /** @type {string | null} */
    let found = null;
    for (let i = 0; i < raw.length; i += 2) {
      const key = /** @type {string} */ (raw[i]);
      if (key.length !== wanted.length || (key !== wanted && key.toLowerCase() !== wanted)) continue;
      const value = /** @type {string} */ (raw[i + 1]);
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }

  /** @param {string} name */
  has(name) {
    return this.get(name) !== null;
  }
}

export class FrontRequest {
  /** @type {import("node:http").IncomingMessage} */
  #req;
  /** @type {ReadableStream | null | undefined} */
  #body;

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {string} url  absolute; handlers read only its path and query
   * @param {string[]} rawHeaders  screened
   * @param {AbortSignal | undefined} signal  aborts when the client goes away (long-polls only)
   */
  constructor(req, url, rawHeaders, signal) {
    this.#req = req;
    this.method = /** @type {string} */ (req.method);
    this.url = url;
    this.headers = new FrontHeaders(rawHeaders);
    this.signal = signal ?? NEVER_ABORTED;
  }

  /** The body as a Web stream, made on first read; none on GET and OPTIONS, as with fetch. */
  get body() {
    if (this.#body === undefined) {
      const bodiless = this.method === "GET" || this.method === "OPTIONS";
      this.#body = bodiless ? null : /** @type {ReadableStream} */ (Readable.toWeb(this.#req));
    }
    return this.#body;
  }
}
