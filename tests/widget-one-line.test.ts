import { expect, test } from "vitest";
import { oneLine } from "../widget/src/shared/cut";

// The widget sends the page's title on one line: the API refuses line breaks and controls in it
// (tests/contract/single-line-fields.test.ts), and a page's title is not the visitor's to fix.
test("a page title with line or paragraph separators and controls is sent on one line, cut to its length", () => {
  expect(oneLine("Shop\u2028Deals\u2029\u0085Now\u0001\n!", 300)).toBe("Shop Deals Now !");
  expect(oneLine("x".repeat(299) + "\u{1F600}", 300)).toBe("x".repeat(299));
});
