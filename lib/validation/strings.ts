import { z } from "zod";

// Every string field: no U+0000 (PostgreSQL cannot store it) and no unpaired surrogates
// (neither can be shown honestly).
const storable = (value: string) => !value.includes("\u0000") && value.isWellFormed();
const STORABLE_PROBLEM = "must not contain U+0000 or unpaired surrogates";

// Characters that make one name look like another or hide text: C0/C1 controls, zero-width
// space and no-break, bidirectional overrides and isolates. (ZWJ/ZWNJ stay: scripts and emoji need them.)
const DECEPTIVE = /[\p{Cc}\u200B\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/u;

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
    .refine((value) => !DECEPTIVE.test(value), "must not contain control or invisible characters");

export const email = () => z.string().refine(storable, STORABLE_PROBLEM).trim().max(254).pipe(z.email());

/** Client-chosen ids (client_id, visitor_id): 1..max, no control characters. */
export const clientId = (max = 100) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max)
    .refine(storable, STORABLE_PROBLEM)
    .refine((value) => !/\p{Cc}/u.test(value), "must not contain control characters");
