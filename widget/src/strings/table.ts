import type { ANSWERS_EN } from "./answers";
import type { HOURS_EN } from "./hours";
import type { EN } from "./panel";
import type { RATING_EN } from "./rating";
import type { UPLOADS_EN } from "./uploads";
import type { PRECHAT_EN } from "./prechat";

// The shape of a language: every key of every part (the panel's and each chunk's English), and a
// language as the build ships it (scripts/build-widget.mjs).

export type Key = keyof typeof EN | keyof typeof UPLOADS_EN | keyof typeof RATING_EN | keyof typeof HOURS_EN | keyof typeof ANSWERS_EN | keyof typeof PRECHAT_EN;
export type Table = Record<Key, string>;
export type Part = "panel" | "uploads" | "rating" | "hours" | "answers" | "prechat";
/** A language as the build ships it: each part's values in the order of its English keys. */
export type Language = Partial<Record<Part, string[]>>;
