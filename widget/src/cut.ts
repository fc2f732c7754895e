/** At most `max` UTF-16 units, never ending on half of a surrogate pair (the API refuses those). */
export const cut = (value: string, max: number) => value.slice(0, max).replace(/[\ud800-\udbff]$/, "");
