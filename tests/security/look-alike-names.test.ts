import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ticketBody } from "../../lib/contracts/tickets";
import { displayName, email } from "../../lib/core/validation/strings";
import { createWebhookBody } from "../../lib/contracts/webhooks";
import { api } from "../support/api";
import { createSite, ORIGIN } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";

// threats.md, OnionShare GHSA-68vr-8f46-vc9f: look-alike names. Issue 9, item 8: member and visitor
// names took invisible format characters (Unicode category Cf) other than the few listed before.

/** Every code point of category Cf, from the running engine's Unicode tables. */
const FORMAT_CHARACTERS: string[] = [];
for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
  const character = String.fromCodePoint(codePoint);
  if (/\p{Cf}/u.test(character)) FORMAT_CHARACTERS.push(character);
}

const REPORTED = ["\u00AD", "\u200E", "\u200F", "\u061C", "\u2062", "\u2063", "\u180E", "\uFEFF"];
const hex = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** Name pieces that are fine alone: letters, digits, spaces, accents, emoji, other scripts. */
const namePiece = fc.string({
  unit: fc.constantFrom(..."AdaLovelace José 1815 Øyvind ÅSE Ωμέγα Дарья 李 ن 😀".split("")),
  minLength: 1,
  maxLength: 12,
}).filter((piece) => piece.trim().length > 0);

const nameSchema = displayName(80);

describe("names refuse every invisible format character (category Cf)", () => {
  test("the table holds the whole category, the reported characters included", () => {
    expect(FORMAT_CHARACTERS.length).toBeGreaterThan(150);
    for (const character of REPORTED) expect(FORMAT_CHARACTERS, hex(character)).toContain(character);
  });

  test("property: any Cf character anywhere inside a name is refused", () => {
    fc.assert(
      fc.property(namePiece, fc.constantFrom(...FORMAT_CHARACTERS), namePiece, (before, character, after) => {
        const name = `${before.trimStart()}${character}${after.trimEnd()}`;
        expect(nameSchema.safeParse(name).success, `${hex(character)} in ${JSON.stringify(name)}`).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  test("each Cf character is refused between Latin letters", () => {
    const accepted = FORMAT_CHARACTERS.filter((character) => nameSchema.safeParse(`Ad${character}a`).success).map(hex);
    expect(accepted).toEqual([]);
  });

  test("other invisible fillers are refused too (Hangul fillers, combining grapheme joiner)", () => {
    for (const character of ["\u3164", "\u115F", "\u1160", "\uFFA0", "\u034F"]) {
      expect(nameSchema.safeParse(`Ad${character}a`).success, hex(character)).toBe(false);
      expect(nameSchema.safeParse(character).success, hex(character)).toBe(false);
    }
  });

  test("joiners stay where they are visible: emoji sequences, Persian and Devanagari", () => {
    for (const name of ["Family 👨\u200D👩\u200D👧", "❤\uFE0F\u200D🔥 fan", "👍🏽 Sam", "می\u200Cخواهم", "क्\u200Dष", "Kanji 葛\u{E0100}", "José"]) {
      expect(nameSchema.safeParse(name).success, JSON.stringify(name)).toBe(true);
    }
    // ...but not alone, doubled, at an end, or between letters of a script that never joins.
    for (const name of ["\u200D", "Ada\u200D", "می\u200C\u200Cخواهم", "A\u200Cda", "😀\u200Da", "Д\u200Dа"]) {
      expect(nameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
    }
  });

  test.each(REPORTED.map((character) => [hex(character), character]))(
    "a visitor name and a member name with %s are refused by the API, and nothing is stored",
    async (_, character) => {
      const site = await createSite();
      const name = `Ad${character}a`;
      const start = await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: { name } });
      expect(start.status).toBe(400);
      expect(start.json.result.code).toBe("invalid_request");
      expect(start.json.result.fields).toEqual([expect.objectContaining({ path: "name" })]);

      const id = `member-${character.codePointAt(0)}`;
      const member = await api.post("/api/v1/admin/members", { admin: true, body: { id, name } });
      expect(member.status).toBe(400);
      expect(member.json.result.code).toBe("invalid_request");
      const members = await api.get("/api/v1/admin/members", { admin: true });
      expect(JSON.stringify(members.json.result ?? [])).not.toContain(id);
    },
  );
});

// Issue 23, item 7: line and paragraph separators and NEL were accepted in subjects and names (an
// email client may break the line there), and names took characters drawn blank.
const LINE_BREAKS = ["\u2028", "\u2029", "\u0085", "\r\n", "\n", "\r", "\u000B", "\u000C"];
const BLANKS = ["\u2800", "\u3164", "\u115F", "\u1160", "\uFFA0", "\u{1D159}", "\u{16FE4}"];

describe("single-line fields refuse line breaks; names refuse blank characters", () => {
  const subject = ticketBody.shape.subject;
  const description = createWebhookBody.shape.description;

  const named = (character: string) => (character === "\r\n" ? "CR LF" : hex(character));
  test.each(LINE_BREAKS.map((character) => [named(character), character]))("%s inside a subject, a name, an email or a description is refused", (_, character) => {
    expect(subject.safeParse(`Hi${character}Bcc: victim@example.com`).success).toBe(false);
    expect(nameSchema.safeParse(`Ada${character}Lovelace`).success).toBe(false);
    expect(email().safeParse(`ada@example.com${character}bcc@evil.example`).success).toBe(false);
    expect(description.safeParse(`CRM${character}sync`).success).toBe(false);
  });

  test.each(BLANKS.map((character) => [hex(character), character]))("a name with %s, alone or between letters, is refused", (_, character) => {
    expect(nameSchema.safeParse(character).success).toBe(false);
    expect(nameSchema.safeParse(`Ad${character}a`).success).toBe(false);
    expect(nameSchema.safeParse(`Ada${character}${character}`).success).toBe(false);
  });

  test("a line break or a blank gets one clear problem", () => {
    const [issue] = nameSchema.safeParse("Ada\u2028Lovelace").error!.issues;
    expect(issue!.message).toMatch(/single line/);
    expect(nameSchema.safeParse("Ada\u0085Lovelace").error!.issues).toHaveLength(1);
    expect(nameSchema.safeParse("\u2800").error!.issues[0]!.message).toMatch(/invisible or blank/);
  });

  test("what a one-line field may hold stays: spaces of other widths, =?, quotes, accents, other scripts", () => {
    for (const name of ["Ada\u00A0Lovelace", "李\u3000雷", "Ada\u2009Lovelace", "=?utf-8?B?QWRh?=", "O'Brien \"Bob\"", "Zoë Müller"]) {
      expect(nameSchema.safeParse(name).success, JSON.stringify(name)).toBe(true);
    }
    for (const text of ["Price =?", "=?utf-8?B?SGkNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?=", "½ off — 50 %", "Où est ma commande ?", "注文について"]) {
      expect(subject.safeParse(text).success, JSON.stringify(text)).toBe(true);
    }
    // Around the value: trimmed away, as before (the stored subject has no break).
    expect(subject.parse("\u2028 My order \n")).toBe("My order");
  });

  test.each(["\u2028", "\u2029", "\u0085"].map((character) => [hex(character), character]))(
    "%s in a ticket subject, a ticket name, a visitor name and a member name: 400 naming the field, nothing stored",
    async (_, character) => {
      const site = await createSite();
      const before = await rowCounts();
      const ticket = (fields: Record<string, string>) =>
        api.post(`/api/v1/chat/widget/${site.id}/tickets`, { origin: ORIGIN, body: { email: "ada@example.com", subject: "Order", body: "Where is it?", ...fields } });
      for (const [response, field] of [
        [await ticket({ subject: `Hi${character}Bcc: victim@example.com` }), "subject"],
        [await ticket({ name: `Ada${character}Lovelace` }), "name"],
        [await api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: { name: `Ada${character}Lovelace` } }), "name"],
        [await api.post("/api/v1/admin/members", { admin: true, body: { id: `lb-${character.codePointAt(0)}`, name: `Eve${character}Admin` } }), "name"],
      ] as const) {
        expect({ field, status: response.status, code: response.json.result.code }).toEqual({ field, status: 400, code: "invalid_request" });
        expect(response.json.result.fields).toEqual([expect.objectContaining({ path: field })]);
      }
      expect(await rowCounts()).toEqual(before);
    },
  );
});
