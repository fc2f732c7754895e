"use client";

import { useEffect, useState } from "react";
import { fillPlaceholders, type PlaceholderValues } from "@/lib/contracts/placeholders";
import styles from "../../inbox.module.css";
import type { SavedReplyView } from "../shared/saved-reply";
import { useListboxPicker } from "../ui/use-listbox-picker";

// The composer's `/` picker (decisions.md, round 3): typing `/` at the start of the composer lists
// the saved replies whose shortcut (or title) matches what follows it; arrows choose, Enter
// inserts the reply with its placeholders filled, Esc closes it. The textarea keeps the focus
// throughout (aria-activedescendant points at the chosen option).

const LISTBOX_ID = "saved-replies-listbox";
const MAX_SHOWN = 8;
/** The whole text is `/` and a shortcut being typed (no space yet). */
const TYPING_SHORTCUT = /^\/([a-z0-9_-]*)$/i;

function matching(replies: SavedReplyView[], query: string): SavedReplyView[] {
  const first = replies.filter((reply) => reply.shortcut.startsWith(query));
  const then = replies.filter((reply) => !reply.shortcut.startsWith(query) && (reply.shortcut.includes(query) || reply.title.toLowerCase().includes(query)));
  return [...first, ...then].slice(0, MAX_SHOWN);
}

/**
 * The picker's state for the composer's text: its props for the textarea, a key handler that
 * answers before the composer's own (true: the key was the picker's), and the listbox.
 */
export function useSavedReplyPicker(replies: SavedReplyView[], values: PlaceholderValues, text: string, insert: (text: string) => void) {
  // Esc closes the picker until the text no longer starts with `/` (then a `/` opens it again).
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (!text.startsWith("/")) setDismissed(false);
  }, [text]);
  const typed = TYPING_SHORTCUT.exec(text);
  const query = typed ? typed[1]!.toLowerCase() : null;
  const shown = query === null ? [] : matching(replies, query);
  const open = query !== null && !dismissed;
  const { chosen, onKeyDown, choose } = useListboxPicker({ open, shown, pick: (reply: SavedReplyView) => insert(fillPlaceholders(reply.body, values)), dismiss: () => setDismissed(true) });

  const optionId = (reply: SavedReplyView) => `saved-reply-option-${reply.id}`;
  const textareaProps = {
    "aria-autocomplete": "list" as const,
    "aria-controls": open ? LISTBOX_ID : undefined,
    "aria-activedescendant": open && shown.length > 0 ? optionId(shown[chosen]!) : undefined,
  };

  const listbox = (
    <>
      {open ? (
        <ul className={styles.picker} id={LISTBOX_ID} role="listbox" aria-label="Saved replies">
          {replies.length === 0 ? (
            <li className={styles.pickerEmpty} role="presentation">
              No saved replies yet: create them in <a href="/inbox/settings#saved-replies-title">Settings → Saved replies</a>.
            </li>
          ) : shown.length === 0 ? (
            <li className={styles.pickerEmpty} role="presentation">
              No saved reply starts with “/{query}”.
            </li>
          ) : (
            shown.map((reply, index) => (
              <li
                key={reply.id}
                id={optionId(reply)}
                role="option"
                aria-selected={index === chosen}
                className={styles.pickerOption}
                // Keep the focus in the textarea: the click picks, it does not move the caret away.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(reply)}
              >
                <span className={styles.pickerShortcut}>/{reply.shortcut}</span> <span dir="auto">{reply.title}</span>{" "}
                <span className={styles.meta}>{reply.scope === "team" ? "team" : "yours"}</span>
                <span className={styles.pickerPreview} dir="auto">
                  {reply.body}
                </span>
              </li>
            ))
          )}
        </ul>
      ) : null}
      <p className={styles.srOnly} aria-live="polite">
        {open ? (replies.length === 0 ? "No saved replies yet: create them in Settings, Saved replies." : shown.length === 0 ? "No matching saved reply." : `${shown.length} saved ${shown.length === 1 ? "reply" : "replies"}: up and down to choose, Enter to insert, Escape to close.`) : ""}
      </p>
    </>
  );

  return { open, onKeyDown, textareaProps, listbox };
}
