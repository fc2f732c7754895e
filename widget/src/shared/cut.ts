/** At most `max` UTF-16 units, never ending on half of a surrogate pair (the API refuses those). */
export const cut = (value: string, max: number) => value.slice(0, max).replace(/[\ud800-\udbff]$/, "");

/** A page's title on one line (the API refuses controls and line or paragraph separators in it). */
export const oneLine = (value: string, max: number) => cut(value.replace(/[\p{Cc}\u2028\u2029]+/gu, " "), max);
