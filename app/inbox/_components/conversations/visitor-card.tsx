import Link from "next/link";
import type { InboxConversation } from "@/lib/conversations/inbox-conversations";
import styles from "../../inbox.module.css";
import { CopyButton } from "../ui/copy-button";
import { LocalTime } from "../ui/local-time";
import { VerifiedMark } from "./verified-mark";
import { VisitorPrivacy } from "./visitor-privacy";
import { ZoneClock } from "./zone-clock";

type Visitor = InboxConversation["visitor"];

const initials = (name: string) =>
  name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => Array.from(word)[0] ?? "")
    .join("")
    .toUpperCase();

/** The visitor's picture: their initials on their stable colour. */
export function VisitorAvatar({ name, color }: { name: string; color: string }) {
  return (
    <span className={styles.visitorAvatar} style={{ background: color }} aria-hidden="true">
      {initials(name)}
    </span>
  );
}

const summary = (...parts: (string | null)[]) => parts.filter(Boolean).join(" · ") || "Unknown";

/**
 * Who the visitor is and where they are: the sidebar's first section (decisions.md, round 3).
 * `privacy`: the site and visitor id a privacy request names, for owners (null for agents).
 */
export function VisitorCard({ visitor, privacy = null }: { visitor: Visitor; privacy?: { siteId: string; visitorId: string } | null }) {
  return (
    <section aria-labelledby="visitor-title" data-testid="visitor-card">
      <h2 id="visitor-title" className={styles.visitorHeading}>
        <VisitorAvatar name={visitor.display_name} color={visitor.avatar_color} />
        <span dir="auto">{visitor.display_name}</span>
        {visitor.identity_verified ? <VerifiedMark /> : null}
      </h2>
      {visitor.named ? null : <p className={styles.meta}>Anonymous: a name made up for this browser.</p>}
      <dl>
        <dt>Now on</dt>
        <dd data-testid="current-page">
          {visitor.current_page ? (
            <a href={visitor.current_page.url} target="_blank" rel="noreferrer noopener" className={styles.breakAnywhere} dir="auto">
              {visitor.current_page.title || visitor.current_page.url}
            </a>
          ) : (
            "Unknown"
          )}
        </dd>
        <dt>Email</dt>
        <dd>{visitor.email ? <a href={`mailto:${visitor.email}`}>{visitor.email}</a> : "Not given"}</dd>
        <dt>Identity</dt>
        <dd data-testid="identity">
          {visitor.identity_verified ? (
            <>
              Verified user <code className={styles.breakAnywhere}>{visitor.user_id}</code>
            </>
          ) : (
            "Not verified"
          )}
        </dd>
        <dt>Local time</dt>
        <dd>{visitor.timezone ? <ZoneClock zone={visitor.timezone} /> : "Unknown"}</dd>
        <dt>Browser</dt>
        <dd>{summary(visitor.browser, visitor.os, visitor.device)}</dd>
        <dt>Language</dt>
        <dd>{visitor.locale ?? "Unknown"}</dd>
        <dt>Conversations</dt>
        <dd>{visitor.conversation_count}</dd>
        <dt>First seen</dt>
        <dd>
          <LocalTime iso={visitor.first_seen_at} full />
        </dd>
        {privacy ? (
          <>
            <dt>Visitor id</dt>
            <dd className={styles.visitorId}>
              <code className={styles.breakAnywhere} data-testid="visitor-id">
                {privacy.visitorId}
              </code>
              <CopyButton text={privacy.visitorId} label="Copy visitor id" />
            </dd>
          </>
        ) : null}
      </dl>
      {privacy ? <VisitorPrivacy siteId={privacy.siteId} visitorId={privacy.visitorId} name={visitor.display_name} /> : null}
      {visitor.pages.length > 0 ? (
        <details>
          <summary>Pages visited ({visitor.pages.length})</summary>
          <ol className={styles.plainList} data-testid="page-trail">
            {visitor.pages.map((page, index) => (
              <li key={`${page.at}-${index}`}>
                <a href={page.url} target="_blank" rel="noreferrer noopener" className={styles.breakAnywhere} dir="auto">
                  {page.title || page.url}
                </a>{" "}
                <span className={styles.meta}>
                  <LocalTime iso={page.at} />
                </span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}

/** The visitor's other conversations on this site: the same browser, or the same verified user. */
export function VisitorConversations({ related }: { related: InboxConversation["visitor_conversations"] }) {
  return (
    <section aria-labelledby="visitor-conversations-title">
      <h2 id="visitor-conversations-title">Other conversations of this visitor</h2>
      {related.length === 0 ? (
        <p className={styles.meta}>None on this site.</p>
      ) : (
        <ul className={styles.plainList} data-testid="visitor-conversations">
          {related.map((other) => (
            <li key={other.id}>
              <Link href={`/inbox/conversations/${encodeURIComponent(other.id)}`}>
                <LocalTime iso={other.created_at} full />
              </Link>{" "}
              <span className={styles.meta}>{other.status === "closed" ? "closed" : "open"}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
