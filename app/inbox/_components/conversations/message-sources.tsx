import styles from "../../inbox.module.css";

// The articles a bot answer (or a suggestion) was drawn from (decisions.md, round 4: `sources`),
// under the message in the thread, so staff see what the visitor was told and where it came from.

export interface SourceLink {
  article_id: string;
  title: string;
  url: string;
}

const isWebUrl = (url: string) => {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
};

export function MessageSources({ sources }: { sources: SourceLink[] }) {
  if (sources.length === 0) return null;
  return (
    <p className={styles.meta} data-testid="message-sources">
      {sources.length === 1 ? "Source: " : "Sources: "}
      {sources.map((source, index) => (
        <span key={source.article_id}>
          {index > 0 ? ", " : ""}
          {isWebUrl(source.url) ? (
            <a href={source.url} target="_blank" rel="noopener noreferrer" dir="auto">
              {source.title}
            </a>
          ) : (
            <span dir="auto">{source.title}</span>
          )}
        </span>
      ))}
    </p>
  );
}
