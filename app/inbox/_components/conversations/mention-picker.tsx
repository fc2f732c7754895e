"use client";

import { useState } from "react";
import styles from "../../inbox.module.css";
import { useListboxPicker } from "../ui/use-listbox-picker";

// The note's `@` picker (decisions.md round 3): in a private note, `@` and the start of a name
// list the team's members; arrows choose, Enter or a click inserts "@Name ", Esc closes. The
// textarea keeps the focus (aria-activedescendant). The names picked and still in the text are
// the note's `mentions`.

export interface MentionMember {
  id: string;
  name: string;
}

const LISTBOX_ID = "mention-listbox";
const MAX_SHOWN = 8;
/** `@` at the start or after a space, then the name being typed, up to the caret. */
const TYPING_MENTION = /(^|\s)@([\p{L}\p{N}._-]*)$/u;

export function mentionedIds(text: string, picked: MentionMember[]): string[] {
  return [...new Set(picked.filter((member) => text.includes(`@${member.name}`)).map((member) => member.id))];
}

export function useMentionPicker(members: MentionMember[], enabled: boolean, text: string, caret: number, insert: (text: string, caret: number) => void) {
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const [picked, setPicked] = useState<MentionMember[]>([]);
  const before = text.slice(0, caret);
  const typed = enabled ? TYPING_MENTION.exec(before) : null;
  const query = typed ? typed[2]!.toLowerCase() : null;
  const shown = query === null ? [] : members.filter((member) => member.name.toLowerCase().split(/\s+/).some((word) => word.startsWith(query)) || member.name.toLowerCase().startsWith(query)).slice(0, MAX_SHOWN);
  const open = query !== null && dismissedAt !== before && shown.length > 0;

  const pick = (member: MentionMember) => {
    const start = before.length - query!.length - 1;
    const inserted = `@${member.name} `;
    setPicked((list) => (list.some((entry) => entry.id === member.id) ? list : [...list, member]));
    insert(text.slice(0, start) + inserted + text.slice(caret), start + inserted.length);
  };

  const { chosen, onKeyDown, choose } = useListboxPicker({ open, shown, pick, dismiss: () => setDismissedAt(before) });

  const optionId = (member: MentionMember) => `mention-option-${member.id}`;
  const textareaProps = open ? { "aria-controls": LISTBOX_ID, "aria-activedescendant": optionId(shown[chosen]!) } : {};
  const listbox = open ? (
    <ul className={styles.picker} id={LISTBOX_ID} role="listbox" aria-label="Mention a teammate" data-testid="mention-picker">
      {shown.map((member, index) => (
        <li
          key={member.id}
          id={optionId(member)}
          role="option"
          aria-selected={index === chosen}
          className={styles.pickerOption}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => choose(member)}
        >
          @{member.name}
        </li>
      ))}
    </ul>
  ) : null;

  return { open, onKeyDown, textareaProps, listbox, mentions: mentionedIds(text, picked), reset: () => setPicked([]) };
}
