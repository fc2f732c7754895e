import { fmt, T } from "./strings";
import type { ApiResult } from "./types";

/** Why a call failed, in the visitor's words (a message's row; the rating chunk's transcript too). */
export const notSentReason = (answer: ApiResult) =>
  answer.status === 0
    ? T.notSentNetwork
    : answer.status === 429
      ? T.notSentBusy
      : answer.status === 403 || answer.status === 404
        ? T.notSentUnavailable
        : answer.status === 400 && answer.message
          ? fmt("notSentWhy", { why: answer.message })
          : T.notSent;

/** A random id: a message's client_id (a retry is deduplicated by it), a ticket's Idempotency-Key. */
export const newId = () => (crypto.randomUUID ? crypto.randomUUID() : Array.from(crypto.getRandomValues(new Uint32Array(4))).join("-"));
