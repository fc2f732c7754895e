import styles from "../../inbox.module.css";

// A message's files in the thread: raster images small and inline, every other file a download
// link. Both use the staff download (`url`: /api/v1/inbox/attachments/{id}, session only).

interface MessageFile {
  id: string;
  name: string;
  content_type: string;
  bytes: number;
  url: string;
}

const IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.ceil(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export function MessageFiles({ files }: { files: MessageFile[] }) {
  if (files.length === 0) return null;
  return (
    <ul className={styles.messageFiles} aria-label="Files">
      {files.map((file) => (
        <li key={file.id}>
          {IMAGE.test(file.content_type) ? (
            <a href={file.url} download={file.name} title={`Download ${file.name}`}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a private, session-only download, not an optimisable asset */}
              <img src={file.url} alt={file.name} width={160} height={120} loading="lazy" />
            </a>
          ) : (
            <a href={file.url} download={file.name} dir="auto">
              {file.name} <span className={styles.hint}>({size(file.bytes)})</span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
