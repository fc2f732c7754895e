// @ts-check
import { Readable } from "node:stream";

// The request the front hands to a hot route's handler. Route handlers take a Fetch `Request`,
// but building one (undici parses the URL, copies and validates every header into a sorted list,
// and gives each request its own AbortSignal) cost the front more than the rest of an idle poll
// besides its query. The route pipeline reads only what is here — method, url, headers.get,
// signal, body — so the front builds this instead, over what Node has already parsed and checked.
// Its answers are the same (tests/integration/front.test.ts, production-server.test.ts).

const NEVER_ABORTED = new AbortController().signal;

/** `Headers.get` over a request's raw header pairs: case-insensitive, repeated names joined by ", ". */
export class FrontHeaders {
  /** @type {string[]} */
  #raw;
  /** @type {Map<string, string> | null} */
  #byName = null;

  /** @param {string[]} raw  name, value, name, value… as Node received them (already screened) */
  constructor(raw) {
    this.#raw = raw;
  }

  /**
   * @param {string} name
   * @returns {string | null}
   */
  get(name) {
    if (!this.#byName) {
      this.#byName = new Map();
      for (let i = 0; i < this.#raw.length; i += 2) {
        const key = /** @type {string} */ (this.#raw[i]).toLowerCase();
        const value = /** @type {string} */ (this.#raw[i + 1]);
        const earlier = this.#byName.get(key);
        this.#byName.set(key, earlier === undefined ? value : `${earlier}, ${value}`);
      }
    }
    return this.#byName.get(name.toLowerCase()) ?? null;
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
