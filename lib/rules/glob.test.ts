import { describe, expect, test } from "vitest";
import { globMatch } from "./glob";

describe("globMatch", () => {
  test.each([
    ["/pricing", "/pricing", true],
    ["/pricing", "/pricing/", false],
    ["/pricing*", "/pricing/team?x=1", true],
    ["*/pricing*", "https://example.com/pricing", true],
    ["*refund*", "I want a REFUND now", true],
    ["*refund*", "I want money back", false],
    ["a?c", "abc", true],
    ["a?c", "ac", false],
    ["*", "", true],
    ["", "", true],
    ["", "x", false],
    ["a*b*c", "abc", true],
    ["a*b*c", "acb", false],
    ["*.example.com", "shop.example.com", true],
    ["*a*a", "aa", true],
    ["*a*a", "a", false],
    ["[x]", "[x]", true],
    ["(a+)+$", "(a+)+$", true],
    ["(a+)+$", "aaaa", false],
  ])("%j against %j is %j", (pattern, text, matched) => {
    expect(globMatch(pattern, text)).toBe(matched);
  });

  test("a ReDoS-shaped pattern against a long message answers at once", () => {
    const message = "a".repeat(100_000);
    const pattern = `${"*a".repeat(200)}*b`;
    const started = performance.now();
    expect(globMatch(pattern, message)).toBe(false);
    expect(globMatch("*?a?a?a?a?a?a?a?a?a?a?b", message)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
