import { db, sqlExecutor } from "../db/client";
import type { SuggestedReply } from "../contracts/suggestions";
import { fillPlaceholders } from "../contracts/placeholders";
import { readInboxConversation } from "../conversations/inbox-conversations";
import { listSavedReplies } from "../saved-replies/saved-replies";
import type { StaffMember } from "../staff/sessions";
import { answerFromPassage, MATCH_THRESHOLD, topPassages } from "./best-answer";
import { modelAnswer, modelConfigured } from "./model";
import { TEXT_LEXEMES } from "./statements";

// "Suggest a reply" (docs/answers.md): a draft answering the visitor's latest message, for the
// agent to edit and send (nothing here sends). With a model configured, the model's answer from
// the top passages; otherwise (or when it fails) the best of the member's saved replies (team and own) or the best
// article passage, whichever holds more of the question's words (the article on a tie: it cites a
// source), each only above the bot's threshold. The conversation is read as the member may read
// it, so what the member may not see is 404 here too.

const NOTHING: SuggestedReply = { body: "", sources: [] };

/** The share of the question's words each text holds (the bot's coverage), in order. */
async function coverages(question: string, texts: string[]): Promise<number[]> {
  const { rows } = await (await sqlExecutor()).executeSql(TEXT_LEXEMES, [[question, ...texts]]);
  const [asked, ...others] = (rows as { lexemes: string[] }[]).map((row) => new Set(row.lexemes));
  if (!asked || asked.size === 0) return texts.map(() => 0);
  return others.map((words) => [...asked].filter((word) => words.has(word)).length / asked.size);
}

export async function suggestReply(member: StaffMember, conversationId: string): Promise<SuggestedReply> {
  const conversation = await readInboxConversation(member, conversationId);
  const question = conversation.messages.findLast((message) => message.author_type === "visitor" && message.kind === "message" && message.body.trim() !== "")?.body;
  if (!question) return NOTHING;
  const [passages, replies] = await Promise.all([topPassages(conversation.site_id, question), listSavedReplies(member)]);
  if (modelConfigured() && passages.length > 0) {
    const site = await (await db()).site.findUnique({ where: { id: conversation.site_id }, select: { id: true, origins: true } });
    const phrased = site ? await modelAnswer(site, question, passages) : null;
    if (phrased) return phrased;
  }
  const scores = await coverages(question, replies.map((reply) => `${reply.title} ${reply.body}`));
  const best = scores.reduce((top, score, index) => (score > (scores[top] ?? -1) ? index : top), 0);
  const reply = replies[best];
  if (reply && scores[best]! >= MATCH_THRESHOLD && scores[best]! > (passages[0]?.coverage ?? 0)) {
    return { body: fillPlaceholders(reply.body, { visitorName: conversation.visitor_name, agentName: member.name, siteName: conversation.site_name }), sources: [] };
  }
  if (passages.length === 0) return NOTHING;
  const { body, sources } = answerFromPassage(passages[0]!);
  return { body, sources };
}
