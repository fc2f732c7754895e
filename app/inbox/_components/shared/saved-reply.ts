/** A saved reply as the inbox shows it: the composer's `/` picker and Settings → Saved replies read it. */
export interface SavedReplyView {
  id: string;
  scope: "team" | "personal";
  shortcut: string;
  title: string;
  body: string;
}
