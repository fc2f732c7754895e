// Glob matching for rules' `glob` operator (docs/rules.md): `*` is any run of characters (also
// none), `?` is one character, everything else is itself; case is ignored. It never builds a
// regular expression from the pattern: the pattern is cut at its stars, the first piece must
// start the text, the last must end it, and each piece between is taken at its leftmost place
// after the one before (leftmost is always safe for globs). Nothing backtracks, so a hostile
// pattern against a long message costs at most length × pattern, never more.

/** Whether `text` matches the glob `pattern`. */
export function globMatch(pattern: string, text: string): boolean {
  const glob = pattern.toLowerCase();
  const subject = text.toLowerCase();
  const pieces = glob.split("*");
  if (pieces.length === 1) return glob.length === subject.length && pieceAt(glob, subject, 0);
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (first.length + last.length > subject.length) return false;
  if (!pieceAt(first, subject, 0) || !pieceAt(last, subject, subject.length - last.length)) return false;
  let from = first.length;
  const end = subject.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    if (piece.length === 0) continue;
    const found = findPiece(piece, subject, from, end);
    if (found < 0) return false;
    from = found + piece.length;
  }
  return true;
}

/** Whether `piece` (with `?` for any one character) stands in `subject` at `at`. */
function pieceAt(piece: string, subject: string, at: number): boolean {
  if (at < 0 || at + piece.length > subject.length) return false;
  for (let index = 0; index < piece.length; index++) {
    const char = piece[index];
    if (char !== "?" && char !== subject[at + index]) return false;
  }
  return true;
}

/** The leftmost place at or after `from` where `piece` stands and ends by `end`; -1 for none. */
function findPiece(piece: string, subject: string, from: number, end: number): number {
  if (!piece.includes("?")) {
    const found = subject.indexOf(piece, from);
    return found >= 0 && found + piece.length <= end ? found : -1;
  }
  for (let at = from; at + piece.length <= end; at++) if (pieceAt(piece, subject, at)) return at;
  return -1;
}
