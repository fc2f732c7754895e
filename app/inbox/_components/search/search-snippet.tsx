// A search snippet: plain text whose matched words come wrapped in << >> (docs/search.md). Rendered
// as text nodes and <mark>s, never as HTML, so a message's own markup shows as typed.
export function SearchSnippet({ snippet }: { snippet: string }) {
  const parts: { text: string; marked: boolean }[] = [];
  let marked = false;
  for (const part of snippet.split(/(<<|>>)/)) {
    if (part === "<<" || part === ">>") marked = part === "<<";
    else if (part) parts.push({ text: part, marked });
  }
  return <>{parts.map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}</>;
}
