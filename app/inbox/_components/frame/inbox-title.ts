/** The inbox tab's title: the unread total first, so it shows in a crowded tab bar. */
export function inboxTitle(unreadTotal: number): string {
  return unreadTotal > 0 ? `(${unreadTotal}) Parley inbox` : "Parley inbox";
}
