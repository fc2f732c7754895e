import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { displayName } from "../../lib/validation/strings";
import { api } from "../support/api";
import { createSite, ORIGIN } from "../support/fixtures";

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
