import { z } from "zod";
import { displayName, withoutInvisible } from "./strings";

// One rule for a file's name, whatever the door: widget and inbox uploads, files in chat, ticket
// files, emailed attachments (issue 38; threats.md "look-alike file names"). First NFC, so that a
// name is judged and stored in one spelling; then no control character, line break or invisible
// character — bidirectional controls (U+202A–202E, U+2066–2069, U+200E/200F, U+061C), zero-width
// and every other format character (Cf), default-ignorables, blanks (the display-name rule of
// strings.ts) — at most 255 characters. Only the media type (and the bytes' signature) decides
// what a file is; the name is display only, never a path. A door that can answer refuses a bad
// name (400); an emailed file cannot be refused (the mail is in), so its name is cleaned instead.

export const MAX_FILE_NAME_LENGTH = 255;

/** A file name a client gives: NFC, trimmed, 1..255, no control, line break or invisible character. */
export const fileName = () =>
  z
    .string()
    .transform((value) => value.normalize("NFC"))
    .pipe(displayName(MAX_FILE_NAME_LENGTH));

/** A file name that cannot be refused, made to pass the rule: "" when nothing is left of it. */
export function cleanFileName(raw: string): string {
  const cleaned = withoutInvisible(raw.toWellFormed().normalize("NFC")).trim();
  return Array.from(cleaned).slice(0, MAX_FILE_NAME_LENGTH).join("").trim();
}

/** The last part of a name that looks like a path (`a/b\\c.pdf` → `c.pdf`): what a download is saved as. */
export const lastPathPart = (name: string) => name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
