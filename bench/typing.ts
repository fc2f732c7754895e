import { RARE, TOPICS, VERBS } from "./article-seed";

// What visitors type into the widget's composer, as the suggestions see it: each visitor types a
// question a few characters at a time (a burst of typing, then a pause: one lookup), and starts
// another once it is written out. Questions are drawn evenly from the list (no favourite question,
// which would flatter a cache); text under 3 characters asks nothing, as in the widget.

export const QUESTIONS = [
  ...VERBS.flatMap((verb) => TOPICS.map((topic) => `how do I ${verb} my ${topic}`)),
  ...TOPICS.map((topic) => `where is my ${topic}`),
  ...TOPICS.map((topic) => `${topic} problem`),
  ...RARE.map((word) => `my ${word} arrived broken`),
  ...Array.from({ length: 5 }, (_, i) => `xylophone tuning ${i}`),
];

/** For each visitor, the text of its next lookup (null: too short to ask); `distinct` counts the different texts sent. */
export function typists(visitors: number, random: () => number) {
  const typing = Array.from({ length: visitors }, () => ({ question: "", typed: 0 }));
  const seen = new Set<string>();
  let asked = 0;
  return {
    next(visitor: number): string | null {
      const state = typing[visitor]!;
      if (state.typed >= state.question.length) Object.assign(state, { question: QUESTIONS[Math.floor(random() * QUESTIONS.length)]!, typed: 0 });
      state.typed = Math.min(state.question.length, state.typed + 2 + Math.floor(random() * 6));
      const text = state.question.slice(0, state.typed).trim();
      if (text.length < 3) return null;
      asked++;
      seen.add(text);
      return text;
    },
    /** Different texts ÷ lookups so far: what a cache keyed on the text could at best save is 1 minus this. */
    distinctShare: () => (asked ? seen.size / asked : 0),
  };
}
