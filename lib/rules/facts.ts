import { db } from "../db/client";
import type { RuleEvent } from "../contracts/rules";
import { serviceStatus, type ServiceHours } from "../service-hours/service-hours";
import { storedAttributes } from "../attributes/stored";
import { readFacts } from "./statements";

// What a rule's conditions are checked against: the conversation as it is when its rules run
// (after the event's write committed, and after the rules before it in the list acted).

export interface ConversationFacts {
  conversationId: string;
  site: string;
  team: string | null;
  labels: string[];
  status: string;
  pageUrl: string | null;
  messageBody: string | null;
  visitorEmail: string | null;
  locale: string | null;
  withinHours: boolean;
  attributes: Record<string, unknown>;
}

/** The facts, or null when the conversation is gone (erased meanwhile). */
export async function loadFacts(conversationId: string, event: RuleEvent | null, messageId: string | null = null, now = new Date()): Promise<ConversationFacts | null> {
  const row = await readFacts(await db(), conversationId, event, messageId);
  if (!row) return null;
  const schedule: ServiceHours = { timezone: row.timezone, hours: row.hours as ServiceHours["hours"], holidays: row.holidays };
  return {
    conversationId: row.id,
    site: row.site_id,
    team: row.team_id,
    labels: row.label_ids,
    status: row.status,
    pageUrl: row.start_page_url,
    messageBody: row.message_body,
    visitorEmail: row.visitor_email,
    locale: row.locale ?? row.site_locale,
    withinHours: serviceStatus(schedule, now).open,
    attributes: storedAttributes(row.attributes),
  };
}
