import { cut } from "../shared/cut";
import type { Message } from "../shared/message";
import { session } from "../shared/session";
import { RecentKey, StateKey, type RecentConversation, type RecentUpdate } from "../shared/state";

// This browser's conversations (returning visitors): each one's token, expiry and last message,
// stored beside the current conversation only once there is one (the visitor wrote: nothing is
// kept before that). A token is renewed while its conversation is the current one; an expired
// one is dropped, since nothing can open it any more.

const KEEP = 20;
const storageKey = () => session.key + ":h";

export function recent(): RecentConversation[] {
  try {
    const all = JSON.parse(session.boot.store.get(storageKey()) || "[]") as RecentConversation[];
    return all.filter((kept) => kept && kept[RecentKey.ConversationId] && kept[RecentKey.Token] && kept[RecentKey.ExpiresAt] > Date.now());
  } catch {
    return [];
  }
}

/** Adds or updates a conversation; an update without a token needs one stored already. */
export function keep(update: RecentUpdate): void {
  const all = recent();
  const old = all.find((kept) => kept[RecentKey.ConversationId] === update[RecentKey.ConversationId]);
  if (!old && !update[RecentKey.Token]) return;
  const sequence = update[RecentKey.LastSequence];
  if (old && sequence && sequence <= (old[RecentKey.LastSequence] || 0)) return; // an older message replayed: the preview stays
  const next = { ...old, ...update, [RecentKey.UpdatedAt]: update[RecentKey.UpdatedAt] || old?.[RecentKey.UpdatedAt] || Date.now() } as RecentConversation;
  write([next, ...all.filter((kept) => kept !== old)].sort((a, b) => b[RecentKey.UpdatedAt] - a[RecentKey.UpdatedAt]).slice(0, KEEP));
}

/** A conversation whose token the service refused: nothing could open it any more. */
export const dropRecent = (conversationId: string) => write(recent().filter((kept) => kept[RecentKey.ConversationId] !== conversationId));

function write(list: RecentConversation[]): void {
  const json = JSON.stringify(list);
  if (json !== session.boot.store.get(storageKey())) session.boot.store.set(storageKey(), json);
}

/** The current conversation's token and closed state, whenever they are saved. */
export function keepCurrent(): void {
  if (session.state[StateKey.ConversationId] && session.state[StateKey.Token])
    keep({
      [RecentKey.ConversationId]: session.state[StateKey.ConversationId],
      [RecentKey.Token]: session.state[StateKey.Token],
      [RecentKey.ExpiresAt]: session.state[StateKey.ExpiresAt] || 0,
      [RecentKey.Closed]: session.state[StateKey.Ended] || 0,
    });
}

/**
 * A message shown: the conversation's time, and its preview unless it is a system line (closed,
 * reopened): the list keeps what was said, and marks a closed conversation with its own tag.
 */
export const keepMessage = (m: Message) =>
  keep({
    [RecentKey.ConversationId]: m.conversation_id,
    [RecentKey.LastSequence]: m.sequence,
    [RecentKey.UpdatedAt]: Date.parse(m.created_at) || Date.now(),
    ...(m.event
      ? { [RecentKey.Event]: m.event }
      : { [RecentKey.Preview]: cut(m.body, 100), [RecentKey.AuthorType]: m.author_type, [RecentKey.HasFiles]: m.attachments?.length ? 1 : 0 }),
  });
