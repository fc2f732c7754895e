import { LRUCache } from "lru-cache";
import { processSingleton } from "../core/process-registry.mjs";
import { env } from "../core/env";

// The widget's article suggestions, kept a short while per site (issue 40; docs/performance.md,
// "Help center"): visitors type the same few words and prefixes ("ship", "refund"), and the answer
// is the same for all of them until an article of the site changes. An article written through
// lib/articles/commands.ts forgets its site's answers at once on this instance; other instances
// keep theirs for at most SUGGESTION_TTL_MS (the cache is per process, like the rate limiters).
// Bounded by bytes, not entries: SUGGESTION_CACHE_KIB (default 2 MiB) per instance.

export interface Suggestion {
  id: string;
  title: string;
  snippet: string;
  url: string;
  locale: string;
}
export interface Suggestions {
  items: Suggestion[];
}

/** Also bounds how stale the empty query's order (the most viewed) can be. */
export const SUGGESTION_TTL_MS = 30_000;
/** A Map entry's and the LRU's bookkeeping per key, beside the strings' bytes. */
const ENTRY_OVERHEAD_BYTES = 200;

interface State {
  cache: LRUCache<string, Suggestions> | null;
  /** Per site, bumped by each article write: an answer computed before the write is not kept. */
  writes: Map<string, number>;
  /** Lookups under way, so a burst of the same word asks the database once. */
  pending: Map<string, Promise<Suggestions>>;
}

// Made on first use, so the environment is read then (tests set it first).
const state = () => processSingleton("article suggestions cache", (): State => ({ cache: newCache(env().SUGGESTION_CACHE_KIB), writes: new Map(), pending: new Map() }));

function newCache(kib: number): LRUCache<string, Suggestions> | null {
  if (kib <= 0) return null;
  return new LRUCache<string, Suggestions>({
    maxSize: kib * 1024,
    // UTF-16: two bytes a character.
    sizeCalculation: (value, key) => 2 * (key.length + JSON.stringify(value).length) + ENTRY_OVERHEAD_BYTES,
    ttl: SUGGESTION_TTL_MS,
  });
}

/** The same lookup whatever the case and spacing the visitor typed ("Ship  " and "ship" search alike). */
const normaliseQuery = (q: string) => q.trim().replace(/\s+/g, " ").toLowerCase();

const siteOf = (key: string) => key.slice(0, key.indexOf("\n"));

/** The cache key: the site first (forgetSiteSuggestions cuts it at the first line break; ids hold none). */
export const suggestionKey = (siteId: string, q: string, limit: number, locale: string | undefined) => `${siteId}\n${locale ?? ""}\n${limit}\n${normaliseQuery(q)}`;

/** The cached answer for `key`, else `lookup()`'s, kept unless an article of the site changed meanwhile. */
export async function cachedSuggestions(key: string, lookup: () => Promise<Suggestions>): Promise<Suggestions> {
  const { cache, writes, pending } = state();
  if (!cache) return lookup();
  const hit = cache.get(key);
  if (hit) return hit;
  const site = siteOf(key);
  const generation = writes.get(site) ?? 0;
  const pendingKey = `${generation}\n${key}`;
  const running = pending.get(pendingKey);
  if (running) return running;
  const answer = lookup().then((value) => {
    if ((writes.get(site) ?? 0) === generation) cache.set(key, value);
    return value;
  });
  pending.set(pendingKey, answer);
  try {
    return await answer;
  } finally {
    pending.delete(pendingKey);
  }
}

/** After an article of `siteId` is created, changed or deleted: its suggestions are asked again. */
export function forgetSiteSuggestions(siteId: string): void {
  const { cache, writes } = state();
  writes.set(siteId, (writes.get(siteId) ?? 0) + 1);
  if (!cache) return;
  for (const key of [...cache.keys()]) if (siteOf(key) === siteId) cache.delete(key);
}

/** For the memory budget's figures and the tests: entries and bytes held. */
export function suggestionCacheSize() {
  const { cache } = state();
  return { entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 };
};
