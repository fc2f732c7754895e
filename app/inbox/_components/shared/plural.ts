// Counts in words: "1 conversation", "2 conversations" (English plural rules; the inbox is in English).

const rules = new Intl.PluralRules("en");

/** `count` and the noun in the form the count takes; `plural` when adding "s" is wrong. */
export const plural = (count: number, singular: string, pluralForm = `${singular}s`): string =>
  `${count} ${rules.select(count) === "one" ? singular : pluralForm}`;
