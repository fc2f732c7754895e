import Link from "next/link";
import { AppError } from "@/lib/core/errors";
import { searchQuery, type SearchQuery, type SearchResult } from "@/lib/contracts/search";
import { enforceRateLimit } from "@/lib/rate-limits/enforce-rate-limit";
import { search } from "@/lib/search/search";
import type { StaffMember } from "@/lib/staff/sessions";
import styles from "../../inbox.module.css";
import { LocalTime } from "../../_components/ui/local-time";
import { SearchSnippet } from "../../_components/search/search-snippet";
import { requireStaffPage } from "../../_components/shared/staff-session";

const MATCHED_IN = { message: "Message", note: "Note (private)", visitor: "Visitor's name or email", ticket: "Ticket", file: "File" } as const;

type Params = Record<string, string | string[] | undefined>;

/** Where a result opens: a conversation at its matching message, or the ticket. */
function resultHref(item: SearchResult): string {
  if (item.type === "ticket") return `/inbox/tickets/${encodeURIComponent(item.id)}`;
  const at = item.message_id ? `?m=${encodeURIComponent(item.message_id)}#m-${encodeURIComponent(item.message_id)}` : "";
  return `/inbox/conversations/${encodeURIComponent(item.id)}${at}`;
}

/** The search, counted against the member's limit like the API route's (docs/search.md); null when over it. */
async function limitedSearch(member: StaffMember, query: SearchQuery) {
  try {
    await enforceRateLimit("search", null, member.id);
  } catch (error) {
    if (error instanceof AppError && error.code === "rate_limited") return { limited: error.options.retryAfter ?? 60 };
    throw error;
  }
  return { page: await search(member, query) };
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<Params> }) {
  const staff = await requireStaffPage();
  const params = await searchParams;
  const plain = Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""));
  const parsed = searchQuery.safeParse(plain);
  const outcome = parsed.success ? await limitedSearch(staff.member, parsed.data) : null;
  const page = outcome && "page" in outcome ? outcome.page : null;
  const next = page?.next_cursor ? `/inbox/search?${new URLSearchParams({ ...plain, cursor: page.next_cursor })}` : null;
  return (
    <main id="main" className={styles.page} aria-labelledby="search-title">
      <h1 id="search-title">{parsed.success ? `Results for “${parsed.data.q}”` : "Search"}</h1>
      {outcome && "limited" in outcome ? (
        <p className={styles.empty} role="alert">
          Too many searches in a minute. Please try again in {outcome.limited} s.
        </p>
      ) : !page ? (
        <p className={styles.empty}>Type up to 200 characters in the search box (press / to get there).</p>
      ) : page.items.length === 0 ? (
        <p className={styles.empty}>Nothing matches. Words are matched whole except the last, which may be the start of a word; #123 finds ticket 123.</p>
      ) : (
        <ol className={styles.searchResults} aria-label="Search results" data-testid="search-results">
          {page.items.map((item) => (
            <li key={`${item.type}:${item.id}`}>
              <Link href={resultHref(item)} className={styles.searchResult}>
                <span className={styles.searchType}>{item.type === "ticket" ? "Ticket" : "Conversation"}</span>
                <strong dir="auto">{item.title}</strong>
                {/* Where it matched: a private note is never mistaken for the visitor's words. */}
                <span className={styles.meta} data-matched-in={item.matched_in}>
                  {MATCHED_IN[item.matched_in]}
                </span>
                <span className={styles.meta}>
                  <LocalTime iso={item.matched_at} />
                </span>
                <span className={styles.searchSnippet} dir="auto">
                  <SearchSnippet snippet={item.snippet} />
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
      {next ? (
        <p>
          <Link href={next}>More results</Link>
        </p>
      ) : null}
    </main>
  );
}
