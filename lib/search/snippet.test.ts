import { describe, expect, test } from "vitest";
import { MAX_SNIPPET_LENGTH } from "../contracts/search";
import { searchSnippet } from "./snippet";

// Snippets from the database's headline (docs/search.md, "Snippets"); the integration tests run
// them through both databases, these pin the cutting and the mapping back onto the original.

describe("searchSnippet", () => {
  test("the folded headline comes back in the original's characters, < and > as ‹ ›", () => {
    const doc = "Un CAFÉ <crème> s'il vous plaît";
    const folded = "Un CAFE ‹creme› s'il vous plait";
    expect(searchSnippet(doc, folded, "Un <<CAFE>> ‹<<creme>>› s'il vous plait")).toBe("Un <<CAFÉ>> ‹<<crème>>› s'il vous plaît");
  });

  test("an excerpt the original does not hold is shown as the database gave it", () => {
    expect(searchSnippet("abc", "abd", "<<x>> y")).toBe("<<x>> y");
  });

  test("no headline (a ticket number): the text's start, whitespace runs as one space", () => {
    expect(searchSnippet("Broken\n\n  lamp", "Broken\n\n  lamp", null)).toBe("Broken lamp");
  });

  test("a long text: at most 240 characters from shortly before the first match, cut with …", () => {
    const before = "word ".repeat(80);
    const after = " more".repeat(80);
    const doc = `${before}needle${after}`;
    const snippet = searchSnippet(doc, doc, `${before}<<needle>>${after}`);
    expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).toContain("<<needle>>");
    expect(snippet.indexOf("<<needle>>")).toBeLessThanOrEqual(62);
  });

  test("a match that does not fit whole is left out, never half-marked", () => {
    const doc = `${"a ".repeat(100)}${"b".repeat(300)}`;
    const snippet = searchSnippet(doc, doc, `${"a ".repeat(100)}<<${"b".repeat(300)}>>`);
    expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_LENGTH);
    expect(snippet).not.toContain("<<");
    expect(snippet).not.toContain(">>");
    expect(snippet.endsWith("…")).toBe(true);
  });
});
