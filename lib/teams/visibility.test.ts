import { expect, test } from "vitest";
import { db } from "../db/client";
import { canSee, visibleConversationSql, visibleConversationWhere, visibleTicketSql, visibleTicketWhere, type Viewer } from "./visibility";

// The rule's three forms agree: for every viewer (an owner, an agent in the team, in another team,
// in none) and every kind of conversation and ticket (no team, the team's, another team's assigned
// to the viewer, another team's mentioning the viewer), the row, Prisma and SQL forms pick the same.

const MEMBERS = ["m_owner", "m_sales", "m_support", "m_loner"] as const;
const viewers: Viewer[] = [
  { id: "m_owner", role: "owner", teamIds: [] },
  { id: "m_sales", role: "agent", teamIds: ["t_sales"] },
  { id: "m_support", role: "agent", teamIds: ["t_support"] },
  { id: "m_loner", role: "agent", teamIds: [] },
];

interface Thing {
  id: string;
  teamId: string | null;
  assigneeId: string | null;
  mentionedMemberIds: string[];
}
const conversations: Thing[] = [
  { id: "c_none", teamId: null, assigneeId: null, mentionedMemberIds: [] },
  { id: "c_sales", teamId: "t_sales", assigneeId: null, mentionedMemberIds: [] },
  { id: "c_support", teamId: "t_support", assigneeId: null, mentionedMemberIds: [] },
  { id: "c_sales_to_loner", teamId: "t_sales", assigneeId: "m_loner", mentionedMemberIds: [] },
  { id: "c_sales_mentions_support", teamId: "t_sales", assigneeId: null, mentionedMemberIds: ["m_support"] },
];
const tickets: Thing[] = [
  { id: "k_none", teamId: null, assigneeId: null, mentionedMemberIds: [] },
  { id: "k_sales", teamId: "t_sales", assigneeId: null, mentionedMemberIds: [] },
  { id: "k_support_to_loner", teamId: "t_support", assigneeId: "m_loner", mentionedMemberIds: [] },
];

async function seed() {
  const prisma = await db();
  await prisma.member.createMany({ data: MEMBERS.map((id) => ({ id, name: id, role: id === "m_owner" ? "owner" : "agent" })) });
  await prisma.team.createMany({ data: ["t_sales", "t_support"].map((id) => ({ id, name: id, nameKey: id })) });
  await prisma.teamMember.createMany({ data: [{ teamId: "t_sales", memberId: "m_sales" }, { teamId: "t_support", memberId: "m_support" }] });
  await prisma.inbox.create({ data: { id: "i_1", name: "Inbox" } });
  await prisma.site.create({ data: { id: "s_1", name: "Site", inboxId: "i_1" } });
  for (const thing of conversations) {
    await prisma.conversation.create({
      data: { id: thing.id, siteId: "s_1", inboxId: "i_1", origin: "https://a.example", visitorId: "v", teamId: thing.teamId, assignedMemberId: thing.assigneeId },
    });
    for (const memberId of thing.mentionedMemberIds) {
      const messageId = `${thing.id}_note`;
      await prisma.message.create({ data: { id: messageId, conversationId: thing.id, sequence: 0, noteNumber: 1, clientId: messageId, authorType: "staff", authorId: "m_owner", kind: "note", body: "@you" } });
      await prisma.messageMention.create({ data: { id: `${messageId}_${memberId}`, messageId, conversationId: thing.id, memberId } });
    }
  }
  let number = 0;
  for (const thing of tickets) {
    await prisma.ticket.create({
      data: { id: thing.id, siteId: "s_1", inboxId: "i_1", number: ++number, origin: "https://a.example", email: "f@a.example", subject: "s", body: "b", teamId: thing.teamId, assigneeId: thing.assigneeId },
    });
  }
}

test("the row, Prisma and SQL forms of 'may see' pick the same conversations and tickets for each viewer", async () => {
  await seed();
  const prisma = await db();
  const sorted = (ids: string[]) => [...ids].sort();
  const seen: Record<string, string[]> = {};
  for (const viewer of viewers) {
    const byRow = sorted(conversations.filter((thing) => canSee(viewer, thing)).map((thing) => thing.id));
    const byPrisma = sorted((await prisma.conversation.findMany({ where: visibleConversationWhere(viewer), select: { id: true } })).map((row) => row.id));
    const bySql = sorted(
      (await prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT c.id FROM conversations c WHERE ${visibleConversationSql({ row: "c", member: "$1", role: "$2" })}`, viewer.id, viewer.role)).map(
        (row) => row.id,
      ),
    );
    // The join form (alert recipients): the viewer is a members row.
    const byJoin = sorted(
      (
        await prisma.$queryRawUnsafe<{ id: string }[]>(
          `SELECT c.id FROM conversations c JOIN members m ON m.id = $1 WHERE ${visibleConversationSql({ row: "c", member: "m.id", role: "m.role" })}`,
          viewer.id,
        )
      ).map((row) => row.id),
    );
    expect(byPrisma, viewer.id).toEqual(byRow);
    expect(bySql, viewer.id).toEqual(byRow);
    expect(byJoin, viewer.id).toEqual(byRow);

    const ticketsByRow = sorted(tickets.filter((thing) => canSee(viewer, thing)).map((thing) => thing.id));
    const ticketsByPrisma = sorted((await prisma.ticket.findMany({ where: visibleTicketWhere(viewer), select: { id: true } })).map((row) => row.id));
    const ticketsBySql = sorted(
      (await prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT t.id FROM tickets t WHERE ${visibleTicketSql({ row: "t", member: "$1", role: "$2" })}`, viewer.id, viewer.role)).map((row) => row.id),
    );
    expect(ticketsByPrisma, viewer.id).toEqual(ticketsByRow);
    expect(ticketsBySql, viewer.id).toEqual(ticketsByRow);
    seen[viewer.id] = [...byRow, ...ticketsByRow];
  }
  // And the rule is the one decisions.md states.
  expect(seen).toEqual({
    m_owner: ["c_none", "c_sales", "c_sales_mentions_support", "c_sales_to_loner", "c_support", "k_none", "k_sales", "k_support_to_loner"],
    m_sales: ["c_none", "c_sales", "c_sales_mentions_support", "c_sales_to_loner", "k_none", "k_sales"],
    m_support: ["c_none", "c_sales_mentions_support", "c_support", "k_none", "k_support_to_loner"],
    m_loner: ["c_none", "c_sales_to_loner", "k_none", "k_support_to_loner"],
  });
});
