"use client";

import { CircleHelp, Command } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import styles from "../../inbox.module.css";
import { CommandPalette } from "./command-palette";
import { ENTER_OPENS, SHORTCUTS, shortcutFor } from "./keymap";
import { arrowsBelongToList, runPageAction } from "./shortcut-actions";

// The inbox's keyboard: one listener for the whole inbox (keys in ./keymap.ts), the shortcuts'
// list (`?`) and the command palette (Ctrl-K / Cmd-K), each also opened by a top bar button (the
// shortcuts' list also by the member menu, through SHOW_SHORTCUTS_EVENT).

export const SHOW_SHORTCUTS_EVENT = "parley:show-shortcuts";

export function KeyboardShortcuts() {
  const help = useRef<HTMLDialogElement>(null);
  const [paletteOpen, setPaletteOpen] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = shortcutFor(event);
      if (!action || event.defaultPrevented) return;
      if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !arrowsBelongToList(event.target)) return;
      // Within an open dialog only the palette's own keys count.
      if (document.querySelector("dialog[open]") && action !== "palette") return;
      let handled = true;
      if (action === "palette") setPaletteOpen(true);
      else if (action === "help") help.current?.showModal();
      else handled = runPageAction(action);
      if (handled) event.preventDefault();
    };
    const showHelp = () => help.current?.showModal();
    document.addEventListener("keydown", onKey);
    window.addEventListener(SHOW_SHORTCUTS_EVENT, showHelp);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener(SHOW_SHORTCUTS_EVENT, showHelp);
    };
  }, []);

  return (
    <>
      {/* Phones have no keyboard to speak of: their menu carries the same pages and actions. */}
      <span className={`${styles.barTools} ${styles.hideNarrow}`}>
        <button type="button" className={styles.commandButton} aria-keyshortcuts="Control+K Meta+K" onClick={() => setPaletteOpen(true)}>
          <Command aria-hidden="true" size={14} />
          Commands
          <kbd className={styles.kbd} aria-hidden="true">
            Ctrl K
          </kbd>
        </button>
        <button type="button" className={styles.iconButton} aria-keyshortcuts="?" title="Keyboard shortcuts (?)" onClick={() => help.current?.showModal()}>
          <CircleHelp aria-hidden="true" size={18} />
          <span className={styles.srOnly}>Shortcuts</span>
        </button>
      </span>
      {paletteOpen ? <CommandPalette onClose={() => setPaletteOpen(false)} onHelp={() => help.current?.showModal()} /> : null}
      <dialog ref={help} className={styles.dialog} aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <p className={styles.hint}>Single keys work when you are not typing in a field.</p>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Does</th>
            </tr>
          </thead>
          <tbody>
            {[...SHORTCUTS.slice(0, 2), ENTER_OPENS, ...SHORTCUTS.slice(2)].map((shortcut) => (
              <tr key={shortcut.description}>
                <td>
                  {shortcut.shown.map((key, index) => (
                    <span key={key}>
                      {index > 0 ? " or " : ""}
                      <kbd className={styles.kbd}>{key}</kbd>
                    </span>
                  ))}
                </td>
                <td>{shortcut.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <form method="dialog">
          <button className={styles.button}>Close</button>
        </form>
      </dialog>
    </>
  );
}
