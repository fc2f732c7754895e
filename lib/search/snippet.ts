import { MAX_SNIPPET_LENGTH } from "../contracts/search";

// A search result's snippet: plain text around the match, matched words wrapped in << >>, at most
// MAX_SNIPPET_LENGTH characters. The database highlights the accent-folded text (ts_headline on
// parley_fold(doc), `<` `>` made `‹` `›`: that is where the stemmed words match, and no `<<` there
// is the text's own); the folding maps one character to one, so the excerpt is put back into the
// original's characters here — except `<` and `>`, which stay `‹` `›`.

const OPEN = "<<";
const CLOSE = ">>";
const ELLIPSIS = "…";
/** Characters of context kept before the first match when the excerpt must be cut. */
const LEAD = 60;

interface Segment {
  text: string;
  marked: boolean;
}

export function searchSnippet(doc: string, folded: string, headline: string | null): string {
  const segments = headline === null ? [{ text: folded, marked: false }] : splitMarkers(headline);
  return fitted(collapseWhitespace(restoreOriginal(segments, doc, folded)));
}

function splitMarkers(headline: string): Segment[] {
  const segments: Segment[] = [];
  let marked = false;
  for (const part of headline.split(/(<<|>>)/)) {
    if (part === OPEN || part === CLOSE) marked = part === OPEN;
    else if (part) segments.push({ text: part, marked });
  }
  return segments;
}

/** The segments' text taken from the original at the same offsets (unless it cannot be found). */
function restoreOriginal(segments: Segment[], doc: string, folded: string): Segment[] {
  let at = folded.indexOf(segments.map((segment) => segment.text).join(""));
  if (at < 0 || doc.length !== folded.length) return segments;
  return segments.map(({ text, marked }) => {
    let restored = "";
    for (let i = 0; i < text.length; i++, at++) restored += doc[at] === "<" || doc[at] === ">" ? folded[at] : doc[at];
    return { text: restored, marked };
  });
}

function collapseWhitespace(segments: Segment[]): Segment[] {
  const collapsed = segments.map(({ text, marked }) => ({ text: text.replace(/\s+/g, " "), marked }));
  const first = collapsed[0];
  const last = collapsed.at(-1);
  if (first) first.text = first.text.trimStart();
  if (last) last.text = last.text.trimEnd();
  return collapsed.filter((segment) => segment.text);
}

const rendered = (segment: Segment) => (segment.marked ? `${OPEN}${segment.text}${CLOSE}` : segment.text);

/** The segments as one string; when too long, a window from shortly before the first match. */
function fitted(segments: Segment[]): string {
  const whole = segments.map(rendered).join("");
  if (whole.length <= MAX_SNIPPET_LENGTH) return whole;
  const firstMatch = segments.findIndex((segment) => segment.marked);
  const before = segments.slice(0, Math.max(firstMatch, 0)).reduce((length, segment) => length + segment.text.length, 0);
  let skip = Math.max(0, before - LEAD);
  let out = skip > 0 ? ELLIPSIS : "";
  const budget = MAX_SNIPPET_LENGTH - ELLIPSIS.length;
  for (const segment of segments) {
    const text = segment.text.slice(Math.min(skip, segment.text.length));
    skip = Math.max(0, skip - segment.text.length);
    if (!text) continue;
    const piece = rendered({ text, marked: segment.marked });
    if (out.length + piece.length <= budget) {
      out += piece;
      continue;
    }
    // A match that does not fit whole is left out; plain text is cut.
    if (!segment.marked) out += text.slice(0, Math.max(0, budget - out.length));
    return out.trimEnd() + ELLIPSIS;
  }
  return out;
}
