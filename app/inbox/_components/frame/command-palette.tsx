"use client";

import { plural } from "../shared/plural";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import styles from "../../inbox.module.css";
import { runPageAction, targetOf, type PageAction } from "./shortcut-actions";

// Ctrl-K / Cmd-K: a modal dialog with one box that filters what can be done here — go to any page
// or view of the rail, or act on the open conversation (only what this page offers).
// ↑ ↓ choose, Enter runs, Esc closes; the box keeps the focus (aria-activedescendant).

interface Command {
  label: string;
  run: () => void;
}

const PAGE_COMMANDS: { action: PageAction; label: string; available: () => boolean }[] = [
  { action: "reply", label: "Reply", available: () => document.getElementById("composer-text") !== null },
  { action: "note", label: "Write a private note", available: () => document.getElementById("composer-text") !== null },
  { action: "close", label: "Close conversation", available: () => targetOf("close") !== null },
  { action: "reopen", label: "Reopen conversation", available: () => targetOf("reopen") !== null },
  { action: "assign-me", label: "Assign to me", available: () => targetOf("assign-me") !== null },
  { action: "snooze", label: "Snooze conversation", available: () => targetOf("snooze") !== null },
  { action: "label", label: "Labels", available: () => targetOf("label") !== null },
  { action: "search", label: "Search conversations and tickets", available: () => document.getElementById("inbox-search") !== null },
];

function commandsHere(go: (href: string) => void, help: () => void): Command[] {
  // The rail's pages and views; a link's data-command is its name without the count.
  const pages = Array.from(document.querySelectorAll<HTMLAnchorElement>('[id="inbox-rail"] nav a')).map((link) => ({
    label: `Go to ${link.dataset.command ?? link.textContent?.trim() ?? ""}`,
    run: () => go(link.getAttribute("href") ?? "/inbox"),
  }));
  const actions = PAGE_COMMANDS.filter((command) => command.available()).map((command) => ({ label: command.label, run: () => void runPageAction(command.action) }));
  return [...actions, ...pages, { label: "Keyboard shortcuts", run: help }];
}

const matches = (label: string, query: string) => {
  const text = label.toLowerCase();
  return query.toLowerCase().split(/\s+/).every((word) => text.includes(word));
};

export function CommandPalette({ onClose, onHelp }: { onClose: () => void; onHelp: () => void }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [commands, setCommands] = useState<Command[]>([]);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);

  useEffect(() => {
    setCommands(commandsHere((href) => router.push(href), onHelp));
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [router, onHelp]);

  const shown = commands.filter((command) => matches(command.label, query.trim()));
  const chosen = Math.min(active, shown.length - 1);
  const run = (command: Command | undefined) => {
    if (!command) return;
    dialog.current?.close();
    // After the dialog has handed the focus back, so the command's own focus wins.
    setTimeout(command.run, 0);
  };

  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby={`${id}-title`} onClose={onClose}>
      <h2 id={`${id}-title`} className={styles.srOnly}>
        Command palette
      </h2>
      <label htmlFor={`${id}-box`} className={styles.label}>
        Type a command
      </label>
      <input
        id={`${id}-box`}
        className={styles.input}
        style={{ width: "100%", boxSizing: "border-box" }}
        role="combobox"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown.length > 0 ? `${id}-option-${chosen}` : undefined}
        autoComplete="off"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            const step = event.key === "ArrowDown" ? 1 : -1;
            setActive((chosen + step + shown.length) % Math.max(shown.length, 1));
          } else if (event.key === "Enter") {
            event.preventDefault();
            run(shown[chosen]);
          }
        }}
      />
      {shown.length === 0 ? <p className={styles.pickerEmpty}>No command matches.</p> : null}
      <ul id={`${id}-list`} role="listbox" aria-label="Commands" className={styles.picker} hidden={shown.length === 0}>
        {shown.map((command, index) => (
          <li
            key={command.label}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === chosen}
            className={styles.pickerOption}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(command)}
          >
            {command.label}
          </li>
        ))}
      </ul>
      <p className={styles.srOnly} role="status" aria-live="polite">
        {plural(shown.length, "command")}
      </p>
    </dialog>
  );
}
