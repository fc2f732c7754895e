import { z } from "zod";

// Every string field: no U+0000 (PostgreSQL cannot store it) and no unpaired surrogates
// (neither can be shown honestly).
const storable = (value: string) => !value.includes("\u0000") && value.isWellFormed();
const STORABLE_PROBLEM = "must not contain U+0000 or unpaired surrogates";

// Characters that make one name look like another or hide text (threats.md, "look-alike names"):
// controls (Cc), every invisible format character (Cf: soft hyphen, bidirectional marks and
// overrides, invisible operators, BOM, tags, ...) and the other default-ignorable code points
// (Hangul fillers, the combining grapheme joiner, ...). Variation selectors stay (emoji and CJK
// need them), and so do ZWJ and ZWNJ where they change how text is drawn: inside an emoji ZWJ
// sequence, and between letters or marks of the scripts that join or stack (Arabic, Indic, ...).
// The v flag (set difference) is spelled through RegExp so the target need not be ES2024.
const INVISIBLE = new RegExp(
  String.raw`[[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]--[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u{180B}-\u{180D}\u{180F}]]`,
  "v",
);
const JOINING_SCRIPTS = ["Arabic", "Syriac", "Nko", "Mandaic", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Myanmar", "Khmer"];
const JOINING = `[${JOINING_SCRIPTS.map((script) => String.raw`\p{scx=${script}}`).join("")}]`;
/** The joiners that are visible in their place: removed before INVISIBLE looks at the rest. */
const MEANINGFUL_JOINER = new RegExp(
  String.raw`(?<=${JOINING})[\u200C\u200D](?=${JOINING})|(?<=\p{Extended_Pictographic}[\u{FE0F}\p{Emoji_Modifier}]?)\u200D(?=\p{Extended_Pictographic})`,
  "gu",
);

/** Whether a name carries a control or invisible character (other than a meaningful joiner). */
export const hasInvisible = (value: string) => INVISIBLE.test(value.replace(MEANINGFUL_JOINER, ""));

/** Any string field. */
export const text = (max: number) => z.string().max(max).refine(storable, STORABLE_PROBLEM);

/** Free text that must say something: trimmed, then 1..max. */
export const requiredText = (max: number) =>
  z.string().refine(storable, STORABLE_PROBLEM).trim().min(1, "must not be empty").max(max);

/** A person's or site's display name: trimmed, no control or invisible characters. */
export const displayName = (max: number) =>
  z
    .string()
    .refine(storable, STORABLE_PROBLEM)
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .refine((value) => !hasInvisible(value), "must not contain control or invisible characters");

export const email = () => z.string().refine(storable, STORABLE_PROBLEM).trim().max(254).pipe(z.email());

/** Client-chosen ids (client_id, visitor_id): 1..max, no control characters. */
export const clientId = (max = 100) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max)
    .refine(storable, STORABLE_PROBLEM)
    .refine((value) => !/\p{Cc}/u.test(value), "must not contain control characters");
