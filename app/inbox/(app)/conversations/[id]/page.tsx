import Link from "next/link";
import { notFound } from "next/navigation";
import { readInboxConversation, type InboxConversation } from "@/lib/conversations/inbox-conversations";
import { ratingsOf } from "@/lib/conversations/rate-conversation";
import { readMark } from "@/lib/conversations/staff-commands";
import { explainedConversationMetrics } from "@/lib/reports/conversation-metrics";
import { AppError } from "@/lib/core/errors";
import { listLabels } from "@/lib/labels/labels";
import { listSavedReplies } from "@/lib/saved-replies/saved-replies";
import { listAssignable } from "@/lib/staff/team";
import { listTeams } from "@/lib/teams/teams";
import { listAttributeDefinitions } from "@/lib/attributes/definitions";
import styles from "../../../inbox.module.css";
import { Composer } from "../../../_components/conversations/composer";
import { ConversationMetrics } from "../../../_components/conversations/conversation-metrics";
import { ConversationAttributes } from "../../../_components/conversations/conversation-attributes";
import { ConversationSla } from "../../../_components/conversations/conversation-sla";
import { slaPolicyNameOf } from "@/lib/sla/policies";
import { AssignSelect, StatusButton, TeamSelect, TypingIndicator } from "../../../_components/conversations/conversation-actions";
import { ConversationList, filterQuery, listFilters, type ListParams } from "../../../_components/conversations/conversation-list";
import { ConversationLabels } from "../../../_components/conversations/label-editor";
import { LocalTime } from "../../../_components/ui/local-time";
import { MessageFiles } from "../../../_components/conversations/message-files";
import { MessageSources } from "../../../_components/conversations/message-sources";
import { PendingMessages } from "../../../_components/conversations/pending-messages";
import { Ratings } from "../../../_components/conversations/ratings";
import { SnoozeMenu } from "../../../_components/conversations/snooze-menu";
import { TimelineLine } from "../../../_components/conversations/timeline-line";
import { requireStaffPage } from "../../../_components/shared/staff-session";
import { ThreadScroller } from "../../../_components/conversations/thread-scroller";
import { VerifiedMark } from "../../../_components/conversations/verified-mark";
import { VisitorAvatar, VisitorCard, VisitorConversations } from "../../../_components/conversations/visitor-card";

async function read(memberId: Parameters<typeof readInboxConversation>[0], id: string): Promise<InboxConversation> {
  try {
    return await readInboxConversation(memberId, id);
  } catch (error) {
    if (error instanceof AppError && (error.code === "conversation_not_found" || error.code === "not_found")) notFound();
    throw error;
  }
}

/** Who wrote a message, as its line says; a close or reopen says who did it. */
function authorLine(message: InboxConversation["messages"][number], visitorName: string) {
  if (message.author_type === "visitor") return visitorName;
  if (message.author_type !== "system") return message.author_name ?? "Staff";
  // A rule's close names the rule (docs/rules.md).
  const rule = (message.details as { rule?: { name?: unknown } } | undefined)?.rule?.name;
  const by = message.author_name ?? (typeof rule === "string" ? `rule “${rule}”` : null);
  if (!by) return "";
  return `${message.event === "conversation_reopened" ? "Reopened" : "Closed"} by ${by}`;
}

function messageClass(message: InboxConversation["messages"][number]) {
  if (message.kind === "note") return `${styles.message} ${styles.note}`;
  if (message.author_type === "system") return `${styles.message} ${styles.system}`;
  if (message.author_bot) return `${styles.message} ${styles.fromStaff} ${styles.fromBot}`;
  if (message.author_type === "staff") return `${styles.message} ${styles.fromStaff}`;
  return styles.message;
}

export default async function ConversationPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<ListParams> }) {
  const { member } = await requireStaffPage();
  const { id } = await params;
  const query = await searchParams;
  const conversationId = decodeURIComponent(id);
  // Where this member had read up to, before this read marks the whole conversation read.
  const readBefore = await readMark(member.id, conversationId);
  const [conversation, members, labels, savedReplies, teams, attributeDefinitions] = await Promise.all([
    read(member, conversationId),
    listAssignable(),
    listLabels(),
    listSavedReplies(member),
    listTeams(),
    listAttributeDefinitions(),
  ]);
  const visitorName = conversation.visitor.display_name;
  const [ratings, metrics, slaPolicyName] = await Promise.all([ratingsOf(conversation.id), explainedConversationMetrics(conversation.id), slaPolicyNameOf(conversation.sla?.policy_id ?? null)]);
  const lastPublicStaff = conversation.messages.filter((message) => message.kind === "message" && message.author_type === "staff").at(-1);
  // A search result's message (`?m=<id>`, docs/search.md): highlighted and scrolled to.
  const matchedId = typeof query.m === "string" && conversation.messages.some((message) => message.id === query.m) ? query.m : null;
  const firstUnread = readBefore === null ? undefined : conversation.messages.find((message) => message.author_type === "visitor" && message.sequence > readBefore);
  const openAt = matchedId ? { id: matchedId, block: "center" as const } : firstUnread ? { id: firstUnread.id, block: "start" as const } : null;
  const last = conversation.messages.at(-1);
  const seen = lastPublicStaff ? conversation.visitor_seen_sequence >= lastPublicStaff.sequence : null;
  return (
    <div className={styles.workspace}>
      <div className={`${styles.listPane} ${styles.hideNarrow}`}>
        <ConversationList member={member} params={query} activeId={conversation.id} />
      </div>
      <div className={styles.mainPane}>
        <main id="main" className={styles.thread} aria-labelledby="thread-title">
          <div className={styles.threadHeader}>
            <Link href={`/inbox${filterQuery(listFilters(query))}`}>← All conversations</Link>
            <VisitorAvatar name={visitorName} color={conversation.visitor.avatar_color} />
            <h1 id="thread-title" dir="auto">
              {visitorName}
            </h1>
            {conversation.identity_verified ? <VerifiedMark /> : null}
            <span className={styles.meta} data-testid="conversation-status">
              {conversation.status === "closed" ? "Closed" : conversation.status === "snoozed" && conversation.snoozed_until ? (
                <>
                  Snoozed until <LocalTime iso={conversation.snoozed_until} full />
                </>
              ) : (
                "Open"
              )}
            </span>
            <ConversationLabels conversationId={conversation.id} labels={labels} applied={conversation.labels.map((label) => label.id)} />
            <span>
              <SnoozeMenu conversationId={conversation.id} status={conversation.status} />
            </span>
            <span>
              <StatusButton conversationId={conversation.id} status={conversation.status} />
            </span>
          </div>
          <ThreadScroller key={conversation.id} lastId={last?.id ?? null} lastMine={last?.author_id === member.id} openAt={openAt}>
            <ol className={styles.messages} aria-label="Messages" data-testid="messages">
              {conversation.messages.map((message) =>
                message.kind === "note" && message.event && message.details ? (
                  <li key={message.id} id={`m-${message.id}`} data-kind="event" style={{ display: "contents" }}>
                    <TimelineLine event={message.event} details={message.details} actor={message.author_name} at={message.created_at} />
                  </li>
                ) : (
                <li
                  key={message.id}
                  id={`m-${message.id}`}
                  className={message.id === matchedId ? `${messageClass(message)} ${styles.matched}` : messageClass(message)}
                  data-kind={message.kind}
                  data-author={message.author_type}
                  data-event={message.event ?? undefined}
                  data-matched={message.id === matchedId ? "true" : undefined}
                  aria-current={message.id === matchedId ? "true" : undefined}
                >
                  <div className={styles.messageMeta}>
                    {message.kind === "note" ? "Private note · " : ""}
                    {authorLine(message, visitorName)}
                    {message.author_bot ? (
                      <>
                        {" "}
                        <span className={styles.verified}>Bot</span>
                      </>
                    ) : null}
                    {authorLine(message, visitorName) ? " · " : ""}
                    <LocalTime iso={message.created_at} full />
                  </div>
                  {message.body ? <p dir="auto">{message.body}</p> : null}
                  <MessageFiles files={message.attachments} />
                  <MessageSources sources={message.sources} />
                </li>
                ),
              )}
              <PendingMessages conversationId={conversation.id} storedClientIds={conversation.messages.map((message) => message.client_id)} />
            </ol>
          </ThreadScroller>
          <Ratings ratings={ratings} />
          <TypingIndicator conversationId={conversation.id} initial={conversation.visitor_typing} name={visitorName} />
          <Composer
            conversationId={conversation.id}
            closed={conversation.status === "closed"}
            savedReplies={savedReplies}
            placeholders={{ visitorName: conversation.visitor_name, agentName: member.name, siteName: conversation.site_name }}
            members={members.filter((other) => other.id !== member.id)}
          />
        </main>
        <aside className={styles.sidebar} aria-labelledby="about-title">
          <VisitorCard
            visitor={conversation.visitor}
            privacy={member.role === "owner" ? { siteId: conversation.site_id, visitorId: conversation.visitor.visitor_id ?? conversation.visitor_id } : null}
          />
          <h2 id="about-title">About this conversation</h2>
          <dl>
            <dt>Site</dt>
            <dd>{conversation.site_name}</dd>
            <dt>Origin</dt>
            <dd>{conversation.origin}</dd>
            <dt>Started</dt>
            <dd>
              <LocalTime iso={conversation.created_at} full />
            </dd>
            <dt>Seen</dt>
            <dd data-testid="seen">{seen === null ? "No reply yet" : seen ? "The visitor has seen the last reply" : "Not seen yet"}</dd>
          </dl>
          <AssignSelect conversationId={conversation.id} assignedId={conversation.assigned_member?.id ?? null} members={members} me={member.id} />
          {teams.length > 0 || conversation.team ? <TeamSelect conversationId={conversation.id} teamId={conversation.team?.id ?? null} teams={teams} /> : null}
          <ConversationAttributes conversationId={conversation.id} definitions={attributeDefinitions} values={conversation.attributes} consent={conversation.consent} />
          <ConversationSla sla={conversation.sla} policyName={slaPolicyName} />
          <ConversationMetrics cycles={metrics} />
          <VisitorConversations related={conversation.visitor_conversations} />
        </aside>
      </div>
    </div>
  );
}
