// The bot's SQL (docs/answers.md). The cycle a conversation is in starts at its last reopen (or
// its beginning); in it the bot is silent once a person (a member who is not a bot) has sent a
// public message or the visitor asked for a person (a `handoff_requested` system line).

const CYCLE_START = `coalesce((SELECT max(r.sequence) FROM messages r WHERE r.conversation_id = $1 AND r.event = 'conversation_reopened'), 0)`;

/** Conversation $1's cycle: whether the bot must stay silent, whether a handoff was asked, and its site's answer mode. */
export const CYCLE_STATE = `
  SELECT c.site_id, c.status, s.answers,
         EXISTS (SELECT 1 FROM messages h WHERE h.conversation_id = $1 AND h.event = 'handoff_requested' AND h.sequence > ${CYCLE_START}) AS handed_off,
         EXISTS (SELECT 1 FROM messages p JOIN members pm ON pm.id = p.member_id
                  WHERE p.conversation_id = $1 AND p.author_type = 'staff' AND p.kind = 'message' AND NOT pm.bot
                    AND p.sequence > ${CYCLE_START}) AS person_replied
    FROM conversations c JOIN sites s ON s.id = c.site_id
   WHERE c.id = $1`;

export interface CycleStateRow {
  site_id: string;
  status: string;
  answers: string;
  handed_off: boolean;
  person_replied: boolean;
}

/**
 * The question's words ($1) against site $2's published articles: any word may match (a question
 * is not a search box: its words are ORed), ranked by ts_rank_cd normalised to 0..1, the best $3,
 * each with `coverage`: the share of the question's distinct words (folded, stemmed, stop words
 * out) that the article holds. No row when the question has no searchable word.
 */
export const MATCH_QUESTION = `
    WITH words AS (
      SELECT array(SELECT DISTINCT unnest(tsvector_to_array(parley_search_vector($1)))) AS lexemes
    ), q AS (
      SELECT lexemes, array_to_string(array(SELECT quote_literal(l) FROM unnest(lexemes) l), ' | ')::tsquery AS query
        FROM words WHERE cardinality(lexemes) > 0
    )
    SELECT a.id, a.site_id, a.title, a.body, a.locale, a.slug,
           ts_rank_cd(a.search_vector, q.query, 32) AS rank,
           (SELECT count(*) FROM unnest(q.lexemes) l WHERE l = ANY (tsvector_to_array(a.search_vector)))::float
             / cardinality(q.lexemes) AS coverage,
           q.lexemes
      FROM articles a CROSS JOIN q
     WHERE a.search_vector @@ q.query AND a.site_id = $2 AND a.status = 'published'
     ORDER BY coverage DESC, rank DESC, a.views DESC, a.id
     LIMIT $3`;

export interface QuestionMatchRow {
  id: string;
  site_id: string;
  title: string;
  body: string;
  locale: string;
  slug: string;
  rank: number;
  coverage: number;
  lexemes: string[];
}

/** Each text of $1 as its search lexemes (folded, stemmed), in order. */
export const TEXT_LEXEMES = `
  SELECT t.ordinality AS index, tsvector_to_array(parley_search_vector(t.text)) AS lexemes
    FROM unnest($1::text[]) WITH ORDINALITY AS t(text, ordinality)
   ORDER BY t.ordinality`;

/**
 * "Questions no article answers" (docs/answers.md): the first visitor message of each conversation
 * of site $1 (null: every site) started in [$2, $3), grouped by their search lexemes (folded,
 * stemmed, stop words out, sorted: "How long does shipping take?" and "how long does shipping
 * take" are one group), else by the folded text; the $4 largest groups, each with its most
 * frequent wording and its latest three conversations.
 */
export const QUESTION_GROUPS = `
  WITH firsts AS (
    SELECT DISTINCT ON (m.conversation_id) m.conversation_id, c.site_id, btrim(m.body) AS question, m.created_at
      FROM conversations c JOIN messages m ON m.conversation_id = c.id AND m.author_type = 'visitor' AND m.kind = 'message'
     WHERE ($1::text IS NULL OR c.site_id = $1) AND c.created_at >= $2 AND c.created_at < $3
     ORDER BY m.conversation_id, m.sequence
  ), keyed AS (
    SELECT f.*, coalesce(nullif(array_to_string(tsvector_to_array(parley_search_vector(f.question)), ' '), ''), parley_fold(f.question)) AS key
      FROM firsts f WHERE f.question <> ''
  )
  SELECT site_id, key, count(*)::int AS count,
         mode() WITHIN GROUP (ORDER BY question) AS question,
         (array_agg(conversation_id ORDER BY created_at DESC, conversation_id))[1:3] AS examples
    FROM keyed
   GROUP BY site_id, key
   ORDER BY count(*) DESC, min(created_at), key
   LIMIT $4`;

export interface QuestionGroupRow {
  site_id: string;
  key: string;
  count: number;
  question: string;
  examples: string[];
}

const PUBLIC_STAFF = `m.author_type = 'staff' AND m.kind = 'message'`;

/**
 * Answer outcomes of the conversations of site $1 (null: every site) started in [$2, $3): answered
 * by the bot; answered by the bot and closed with neither a person's public reply nor a handoff;
 * handed off.
 */
export const ANSWER_OUTCOMES = `
  WITH flags AS (
    SELECT EXISTS (SELECT 1 FROM messages m JOIN members mm ON mm.id = m.member_id WHERE m.conversation_id = c.id AND ${PUBLIC_STAFF} AND mm.bot) AS bot,
           EXISTS (SELECT 1 FROM messages m JOIN members mm ON mm.id = m.member_id WHERE m.conversation_id = c.id AND ${PUBLIC_STAFF} AND NOT mm.bot) AS person,
           EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.event = 'handoff_requested') AS handed_off,
           EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.event = 'conversation_closed') AS closed
      FROM conversations c
     WHERE ($1::text IS NULL OR c.site_id = $1) AND c.created_at >= $2 AND c.created_at < $3
  )
  SELECT count(*)::int AS conversations,
         count(*) FILTER (WHERE bot)::int AS bot_answered,
         count(*) FILTER (WHERE bot AND closed AND NOT person AND NOT handed_off)::int AS bot_resolved,
         count(*) FILTER (WHERE handed_off)::int AS handed_off
    FROM flags`;

export interface AnswerOutcomeRow {
  conversations: number;
  bot_answered: number;
  bot_resolved: number;
  handed_off: number;
}

/** Article votes given in [$2, $3) on site $1's articles (null: every site). */
export const FEEDBACK_COUNTS = `
  SELECT count(*) FILTER (WHERE f.helpful)::int AS helpful, count(*) FILTER (WHERE NOT f.helpful)::int AS not_helpful
    FROM article_feedback f JOIN articles a ON a.id = f.article_id
   WHERE ($1::text IS NULL OR a.site_id = $1) AND f.created_at >= $2 AND f.created_at < $3`;

/** Model calls and tokens of site $1 (null: every site) on the UTC days $2..$3 (dates, both included). */
export const MODEL_USAGE_SUM = `
  SELECT coalesce(sum(calls), 0)::int AS calls, coalesce(sum(prompt_tokens), 0)::int AS prompt_tokens, coalesce(sum(completion_tokens), 0)::int AS completion_tokens
    FROM model_usage
   WHERE ($1::text IS NULL OR site_id = $1) AND day >= $2::date AND day <= $3::date`;

/** Takes one of site $1's model calls for today (UTC) unless $2 are taken already: a row when taken, none at the cap. */
export const TAKE_MODEL_CALL = `
  INSERT INTO model_usage (site_id, day, calls) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 1)
  ON CONFLICT (site_id, day) DO UPDATE SET calls = model_usage.calls + 1 WHERE model_usage.calls < $2
  RETURNING calls`;

/** Adds an answer's `usage` tokens ($2 prompt, $3 completion) to site $1's row of today. */
export const ADD_MODEL_TOKENS = `
  UPDATE model_usage SET prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3
   WHERE site_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`;
