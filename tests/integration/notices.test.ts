import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { createSite, startConversation } from "../support/fixtures";

// The server's public lines are written in the language the conversation's widget shows (round 4,
// "the first hour"): the site's locale setting, else the visitor's browser language, else English.

async function closeAndReopen(siteLocale: string | null, browserLocale?: string) {
  const site = await createSite();
  if (siteLocale) expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { locale: siteLocale } })).status).toBe(200);
  const started = await startConversation(site.id, { body: "Hello", client_id: "v1", ...(browserLocale ? { locale: browserLocale } : {}) });
  expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
  expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/reopen`, { admin: true })).status).toBe(200);
  const lines = await (await db()).message.findMany({ where: { conversationId: started.conversationId, authorType: "system" }, orderBy: { sequence: "asc" } });
  return lines.map((line) => [line.event, line.body]);
}

describe("closed and reopened lines", () => {
  test("in the visitor's browser language when the site sets none (Arabic)", async () => {
    expect(await closeAndReopen(null, "ar-EG")).toEqual([
      ["conversation_closed", "أُغلقت هذه المحادثة."],
      ["conversation_reopened", "أُعيد فتح هذه المحادثة."],
    ]);
  });

  test("in the site's language when it sets one, whatever the browser's", async () => {
    expect(await closeAndReopen("de", "fr-FR")).toEqual([
      ["conversation_closed", "Dieses Gespräch wurde beendet."],
      ["conversation_reopened", "Dieses Gespräch wurde wieder geöffnet."],
    ]);
  });

  test("English for a language the widget does not speak, or none", async () => {
    const english = [
      ["conversation_closed", "This conversation was closed."],
      ["conversation_reopened", "This conversation was reopened."],
    ];
    expect(await closeAndReopen(null, "ja-JP")).toEqual(english);
    expect(await closeAndReopen(null)).toEqual(english);
  });
});
