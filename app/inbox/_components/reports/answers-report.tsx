import Link from "next/link";
import { answerOutcomes, questionsNoArticleAnswers } from "@/lib/answers/questions-report";
import type { AnswersReportQuery } from "@/lib/contracts/reports";
import styles from "../../inbox.module.css";

// The Reports page's answers (docs/answers.md, "In the reports"): the questions no article answers
// (what to write next) and what the answers did.

const SHOWN_QUESTIONS = 20;

export async function AnswersReport({ range }: { range: AnswersReportQuery }) {
  const [questions, outcomes] = await Promise.all([questionsNoArticleAnswers(range), answerOutcomes(range)]);
  const unanswered = questions.items.filter((item) => item.article === null).slice(0, SHOWN_QUESTIONS);
  return (
    <>
      <section className={styles.card} aria-labelledby="questions-title">
        <h2 id="questions-title">Questions no article answers</h2>
        <p className={styles.hint}>Visitors&apos; first messages in this range, grouped by their words, that no published article answers: the articles to write next.</p>
        {unanswered.length === 0 ? (
          <p className={styles.hint}>Every question of this range has an article.</p>
        ) : (
          <ol data-testid="unanswered-questions">
            {unanswered.map((item) => (
              <li key={item.examples[0]}>
                <span dir="auto">“{item.question}”</span> <span className={styles.meta}>× {item.count}</span>{" "}
                {item.examples.map((id, index) => (
                  <span key={id}>
                    {" "}
                    <Link href={`/inbox/conversations/${encodeURIComponent(id)}`} aria-label={`Example conversation ${index + 1} of “${item.question}”`}>
                      #{index + 1}
                    </Link>
                  </span>
                ))}
              </li>
            ))}
          </ol>
        )}
        <p>
          <Link href="/inbox/articles/new">Write an article</Link>
        </p>
      </section>
      <section className={styles.card} aria-labelledby="answers-title">
        <h2 id="answers-title">Answers</h2>
        <dl className={styles.summary} data-testid="answer-outcomes">
          <dt>Answered by the bot</dt>
          <dd>
            {outcomes.bot_answered} of {outcomes.conversations} conversations
          </dd>
          <dt>Closed without a person after the bot&apos;s answer</dt>
          <dd>{outcomes.bot_resolved}</dd>
          <dt>Handed off to a person</dt>
          <dd>{outcomes.handed_off}</dd>
          <dt>Article votes</dt>
          <dd>
            {outcomes.feedback.helpful} helpful, {outcomes.feedback.not_helpful} not helpful
          </dd>
          <dt>Model calls (tokens in / out)</dt>
          <dd>
            {outcomes.model.calls} ({outcomes.model.prompt_tokens} / {outcomes.model.completion_tokens})
          </dd>
        </dl>
      </section>
    </>
  );
}
