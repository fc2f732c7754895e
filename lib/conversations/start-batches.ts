import { utcDay } from "../allowance/daily-allowance";
import { queryPrepared } from "../db/client";
import { START_CONVERSATIONS } from "./statements";

// Conversation starts are written in batches, one batch per inbox at a time in each process.
// Every start draws on its inbox's counter for the day, and that row stays locked until its
// transaction commits, so starts in one inbox commit one after the other: one WAL flush each
// bounded them to about a thousand a second however fast the rest was. Here the starts that
// arrive while an inbox's statement runs wait for it and then go together in the next one
// (group commit, done where the lock is known): a lone start goes at once, a busy inbox pays one
// lock and one flush per batch. The allowance stays exact: a batch draws all its units or none,
// and one that does not fit (the allowance nearly spent) is retried one start at a time.

export interface NewConversation {
  id: string;
  siteId: string;
  origin: string;
  visitorId: string;
  visitorName: string | null;
  visitorEmail: string | null;
  offline: boolean;
  userId: string | null;
  identityVerified: boolean;
  browserVisitorId: string | null;
  timezone: string | null;
  locale: string | null;
  userAgent: string | null;
  startPageUrl: string | null;
  startPageTitle: string | null;
  tokenId: string;
  tokenHash: string;
  tokenExpiresAt: Date;
  /** The first message, if the start carries one. */
  message: { id: string; clientId: string; body: string } | null;
  /** The department chosen (a team); null: the site's default team, if any. */
  teamId: string | null;
  /** The pre-chat form's attribute values (a JSON object, typed) and accepted consent (JSON {text, at}); null: none. */
  attributes: string | null;
  consent: string | null;
}

interface Waiting {
  conversation: NewConversation;
  settle: (started: boolean) => void;
  fail: (error: unknown) => void;
}

/** More than this many waiting starts go in several statements (each one's arrays stay small). */
const MAX_BATCH = 200;

const queues = new Map<string, Waiting[]>();

/** Writes the conversation with its token and first message; false when the allowance is spent. */
export function startInBatch(inboxId: string, conversation: NewConversation): Promise<boolean> {
  return new Promise((settle, fail) => {
    const queue = queues.get(inboxId);
    if (queue) return void queue.push({ conversation, settle, fail });
    queues.set(inboxId, [{ conversation, settle, fail }]);
    void drain(inboxId);
  });
}

async function drain(inboxId: string): Promise<void> {
  const queue = queues.get(inboxId)!;
  while (queue.length > 0) {
    const batch = queue.splice(0, MAX_BATCH);
    try {
      if (await write(inboxId, batch)) for (const start of batch) start.settle(true);
      else if (batch.length === 1) batch[0]!.settle(false);
      else await Promise.all(batch.map((start) => write(inboxId, [start]).then(start.settle, start.fail)));
    } catch (error) {
      for (const start of batch) start.fail(error);
    }
  }
  queues.delete(inboxId);
}

async function write(inboxId: string, batch: Waiting[]): Promise<boolean> {
  const all = batch.map((start) => start.conversation);
  const column = <T>(pick: (conversation: NewConversation) => T) => all.map(pick);
  const drawn = await queryPrepared(START_CONVERSATIONS, [
    inboxId,
    utcDay(new Date()),
    column((c) => c.id),
    column((c) => c.siteId),
    column((c) => c.origin),
    column((c) => c.visitorId),
    column((c) => c.visitorName),
    column((c) => c.visitorEmail),
    column((c) => c.offline),
    column((c) => c.userId),
    column((c) => c.identityVerified),
    column((c) => c.tokenId),
    column((c) => c.tokenHash),
    column((c) => c.tokenExpiresAt),
    column((c) => c.message?.id ?? null),
    column((c) => c.message?.clientId ?? null),
    column((c) => c.message?.body ?? null),
    column((c) => c.browserVisitorId),
    column((c) => c.timezone),
    column((c) => c.locale),
    column((c) => c.userAgent),
    column((c) => c.startPageUrl),
    column((c) => c.startPageTitle),
    column((c) => c.teamId),
    column((c) => c.attributes),
    column((c) => c.consent),
  ]);
  return drawn.length > 0;
}
