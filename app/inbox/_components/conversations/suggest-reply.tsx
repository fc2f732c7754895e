"use client";

import { useState } from "react";
import styles from "../../inbox.module.css";
import { inboxApi } from "../shared/api";
import { MessageSources, type SourceLink } from "./message-sources";

// "Suggest a reply" (decisions.md, round 4; docs/answers.md): drafts an answer into the composer
// with its sources. It only fills the text box: nothing is sent until the agent sends it.

export function SuggestReply({ conversationId, disabled, onDraft }: { conversationId: string; disabled: boolean; onDraft: (body: string) => void }) {
  const [state, setState] = useState<{ busy: boolean; note: string; sources: SourceLink[] }>({ busy: false, note: "", sources: [] });
  const suggest = async () => {
    setState({ busy: true, note: "", sources: [] });
    const outcome = await inboxApi<{ body: string; sources: SourceLink[] }>("POST", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/suggest`);
    if (!outcome.ok) return setState({ busy: false, note: outcome.message, sources: [] });
    if (outcome.result.body === "") return setState({ busy: false, note: "Nothing to suggest: no article or saved reply answers the visitor's last message.", sources: [] });
    onDraft(outcome.result.body);
    setState({ busy: false, note: "Suggested: check it, then send.", sources: outcome.result.sources });
  };
  return (
    <div className={styles.row} data-testid="suggest-reply">
      <button type="button" className={styles.linkButton} onClick={() => void suggest()} disabled={disabled || state.busy}>
        {state.busy ? "Suggesting…" : "Suggest a reply"}
      </button>
      <span className={styles.meta} role="status">
        {state.note}
      </span>
      <MessageSources sources={state.sources} />
    </div>
  );
}
