import { z } from "zod";
import { canonicalTimeZone } from "./time-zone";

// Every string field: no U+0000 (PostgreSQL cannot store it) and no unpaired surrogates
// (neither can be shown honestly).
const storable = (value: string) => !value.includes("\u0000") && value.isWellFormed();
const STORABLE_PROBLEM = "must not contain U+0000 or unpaired surrogates";

// Single-line fields (subjects, names, titles, emails, file names): no character that ends a line
// anywhere it is shown or sent — CR, LF, VT, FF, NEL (U+0085: all in Cc, with every other
// control), LINE SEPARATOR (U+2028, Zl) and PARAGRAPH SEPARATOR (U+2029, Zp), Unicode's mandatory
// breaks (UAX #14 BK, CR, LF, NL). An email client or a log reader may break the line there
// (issue 23, item 7). Checked on the trimmed value: what surrounds it is trimmed away, not stored.
const LINE_BREAK_OR_CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const SINGLE_LINE_PROBLEM = "must be a single line: no line breaks (CR, LF, NEL, U+2028, U+2029) or control characters";

/** Whether a value holds no control character and no line or paragraph separator. */
export const isSingleLine = (value: string) => !LINE_BREAK_OR_CONTROL.test(value);

// Characters that make one name look like another or hide text (threats.md, "look-alike names"):
// controls (Cc), every invisible format character (Cf: soft hyphen, bidirectional marks and
// overrides, invisible operators, BOM, tags, ...), the other default-ignorable code points
// (Unicode's own list of what is drawn as nothing: the Hangul fillers U+115F, U+1160, U+3164 and
// U+FFA0, the combining grapheme joiner, ...), the line and paragraph separators (Zl, Zp), and the
// characters that are not default-ignorable yet are drawn blank by design: U+2800 BRAILLE PATTERN
// BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD and U+16FE4 KHITAN SMALL SCRIPT FILLER. Spaces
// (Zs) stay inside a name (a no-break or an ideographic space is a real space) and are trimmed at
// its ends. Variation selectors stay (emoji and CJK need them), and so do ZWJ and ZWNJ where they
// change how text is drawn: inside an emoji ZWJ sequence, and between letters or marks of the
// scripts that join or stack (Arabic, Indic, ...).
// The v flag (set difference) is spelled through RegExp so the target need not be ES2024.
const INVISIBLE = new RegExp(
  String.raw`[[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u{2800}\u{1D159}\u{16FE4}]--[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}\u{180B}-\u{180D}\u{180F}]]`,
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

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gv");

/**
 * The name with what `hasInvisible` finds taken out, for a name that cannot be refused: a line
 * break or control becomes a space (it separated words), any other invisible character nothing.
 */
export function withoutInvisible(value: string): string {
  const kept = new Set(Array.from(value.matchAll(MEANINGFUL_JOINER), (match) => match.index));
  return value.replace(INVISIBLE_ALL, (character: string, offset: number) =>
    kept.has(offset) ? character : LINE_BREAK_OR_CONTROL.test(character) ? " " : "",
  );
}

/** Any string field. */
export const text = (max: number) => z.string().max(max).refine(storable, STORABLE_PROBLEM);

/** Free text that may be empty: trimmed, then 0..max. */
export const trimmedText = (max: number) => z.string().refine(storable, STORABLE_PROBLEM).trim().max(max);

/** Free text that must say something: trimmed, then 1..max. */
export const requiredText = (max: number) =>
  z.string().refine(storable, STORABLE_PROBLEM).trim().min(1, "must not be empty").max(max);

/** A subject: required text on one line (no control character, line or paragraph separator). */
export const singleLineText = (max: number) => requiredText(max).refine(isSingleLine, SINGLE_LINE_PROBLEM);

/** Optional one-line text (a description): at most max, may be empty, on one line. */
export const singleLineOptionalText = (max: number) => text(max).refine(isSingleLine, SINGLE_LINE_PROBLEM);

/** A person's, file's or site's display name: trimmed, one line, no control, invisible or blank characters. */
export const displayName = (max: number) =>
  z
    .string()
    .refine(storable, STORABLE_PROBLEM)
    .trim()
    .min(1, "must not be empty")
    .max(max)
    .superRefine((value, context) => {
      // One problem per name: a line break is named as such, anything else invisible as that.
      if (!isSingleLine(value)) context.addIssue({ code: "custom", message: SINGLE_LINE_PROBLEM });
      else if (hasInvisible(value)) context.addIssue({ code: "custom", message: "must not contain invisible or blank characters (e.g. U+200B, U+2800, U+3164)" });
    });

export const email = () => z.string().refine(storable, STORABLE_PROBLEM).trim().max(254).pipe(z.email());

/** A one-line value taken as sent (a hash, a URL, an origin, a search term): at most max, on one line. */
export const singleLineValue = (max: number) => z.string().max(max).refine(storable, STORABLE_PROBLEM).refine(isSingleLine, SINGLE_LINE_PROBLEM);

/** Ids (client_id, visitor_id, a member's, a site's, a label's): 1..max, on one line. */
export const clientId = (max = 100) => singleLineValue(max).min(1, "must not be empty");

/** An IANA time zone the runtime knows ("Europe/Berlin", "UTC"). */
export const timeZone = (max = 64) =>
  z
    .string()
    .max(max)
    .refine((value) => canonicalTimeZone(value) !== null, "must be an IANA time zone, e.g. Europe/Berlin");

const isLocale = (value: string) => {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
};

/** A BCP 47 language tag ("de-CH", "pt-BR"). */
export const localeTag = (max = 35) => z.string().max(max).refine(isLocale, "must be a BCP 47 language tag, e.g. de-CH");
