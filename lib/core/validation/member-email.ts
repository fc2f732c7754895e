import { z } from "zod";
import { email } from "./strings";

// How an email identifies a member (threats.md, "GitHub password reset, 2019"): compared by ASCII
// case folding only, never by Unicode's. `toLowerCase()` maps the Kelvin sign (U+212A) onto "k",
// `toUpperCase()` the dotless ı (U+0131) onto "I" and the long s (U+017F) onto "S", and NFKC maps
// fullwidth letters and ligatures onto ASCII: an address holding such a character would land on
// another member's address wherever any code, a database collation or a mail system folds it.
// So an address with a non-ASCII character that folds onto ASCII, in any of these ways, is refused
// at every door where an email names a member (sign-in, invites, members, the staff CLI, single
// sign-on), and the rest is lower-cased A-Z only.

const foldsOntoAscii = (character: string): boolean =>
  [character.toLowerCase(), character.toUpperCase(), character.normalize("NFKC"), character.normalize("NFKC").toLowerCase()].some((folded) =>
    /[\x21-\x7E]/.test(folded),
  );

/** Whether the address holds a non-ASCII character that case mapping or NFKC turns into ASCII. */
export const hasAsciiLookalike = (address: string): boolean => [...address].some((c) => c > "\x7F" && foldsOntoAscii(c));

/** The address as a member key: A-Z lower-cased, nothing else touched. */
export const foldEmailCase = (address: string): string => address.replace(/[A-Z]/g, (c) => c.toLowerCase());

export const LOOKALIKE_PROBLEM = "must not contain a non-ASCII character that stands for an ASCII one (e.g. U+212A KELVIN SIGN, U+0131 dotless i)";

/** A member's email at a door: a valid address, no ASCII look-alike, lower-cased by ASCII rules. */
export const memberEmail = () =>
  z
    .string()
    .refine((address) => !hasAsciiLookalike(address), LOOKALIKE_PROBLEM)
    .pipe(email())
    .transform(foldEmailCase);

/** A member's email from elsewhere (a provider's claim): the key, or null when it is none. */
export function memberEmailKey(address: string): string | null {
  const parsed = memberEmail().safeParse(address);
  return parsed.success ? parsed.data : null;
}
