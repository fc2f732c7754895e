import { sqlExecutor } from "../db/client";
import type { MessageSource } from "../conversations/message-view";
import { textBlocks } from "../articles/plain-text";
import { articleUrl } from "../articles/urls";
import { MATCH_QUESTION, TEXT_LEXEMES, type QuestionMatchRow } from "./statements";

// The deterministic answer (docs/answers.md, "The threshold"): the published article that covers
// most of the question's words, and from it the passage (one block of text) that holds most of
// them. An article answers only when it holds at least MATCH_THRESHOLD of the question's distinct
// searchable words; otherwise there is no answer and the bot says nothing.

/** The share of the question's distinct words (folded, stemmed, stop words out) the article must hold. */
export const MATCH_THRESHOLD = 0.6;
/** A passage is at most this many characters. */
export const MAX_PASSAGE = 600;
const CANDIDATES = 3;

export interface Answer {
  body: string;
  passage: string;
  sources: MessageSource[];
  coverage: number;
}

/** The text cut to `max` characters at a word, with an ellipsis when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** The block (scored with the heading above it) that holds most of the question's words; the first on a tie. */
async function bestPassage(article: QuestionMatchRow): Promise<string> {
  const passages: { text: string; scored: string }[] = [];
  let heading = "";
  for (const block of textBlocks(article.body)) {
    if (block.heading) heading = block.text;
    else passages.push({ text: block.text, scored: `${heading} ${block.text}` });
  }
  if (passages.length === 0) return cut(article.title, MAX_PASSAGE);
  const { rows } = await (await sqlExecutor()).executeSql(TEXT_LEXEMES, [passages.map((passage) => passage.scored)]);
  const wanted = new Set(article.lexemes);
  let best = 0;
  let bestScore = -1;
  for (const [index, row] of (rows as { lexemes: string[] }[]).entries()) {
    const score = new Set(row.lexemes.filter((lexeme) => wanted.has(lexeme))).size;
    if (score > bestScore) [best, bestScore] = [index, score];
  }
  return cut(passages[best]!.text, MAX_PASSAGE);
}

/** Site `siteId`'s published articles that clear the threshold for `question`, best first (at most three). */
export async function matchingArticles(siteId: string, question: string): Promise<QuestionMatchRow[]> {
  const { rows } = await (await sqlExecutor()).executeSql(MATCH_QUESTION, [question, siteId, CANDIDATES]);
  return (rows as QuestionMatchRow[]).filter((row) => Number(row.coverage) >= MATCH_THRESHOLD);
}

/** Site `siteId`'s published article that best answers `question`, or null when none clears the threshold. */
export async function bestArticle(siteId: string, question: string): Promise<QuestionMatchRow | null> {
  return (await matchingArticles(siteId, question))[0] ?? null;
}

export interface Passage {
  source: MessageSource;
  text: string;
  coverage: number;
}

const passageOf = async (article: QuestionMatchRow): Promise<Passage> => {
  const url = articleUrl({ siteId: article.site_id, locale: article.locale, slug: article.slug });
  return { source: { article_id: article.id, title: article.title, url }, text: await bestPassage(article), coverage: Number(article.coverage) };
};

/** The best passage of each article that clears the threshold, best article first (what a model phrases its answer from). */
export async function topPassages(siteId: string, question: string): Promise<Passage[]> {
  return Promise.all((await matchingArticles(siteId, question)).map(passageOf));
}

/** The deterministic answer: the passage, a blank line, and `<title>: <url>`. */
export const answerFromPassage = (passage: Passage): Answer => ({
  passage: passage.text,
  body: `${passage.text}\n\n${passage.source.title}: ${passage.source.url}`,
  sources: [passage.source],
  coverage: passage.coverage,
});

/** The answer to `question` from site `siteId`'s published articles, or null when none clears the threshold. */
export async function bestAnswer(siteId: string, question: string): Promise<Answer | null> {
  const article = await bestArticle(siteId, question);
  return article ? answerFromPassage(await passageOf(article)) : null;
}
