import { describe, expect, test } from "vitest";
import { canonicalOrigin, isCanonicalOrigin } from "./origin";

describe("canonicalOrigin", () => {
  test.each([
    ["https://Shop.Example", "https://shop.example"],
    ["https://shop.example:443/", "https://shop.example"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["https://bücher.example", "https://xn--bcher-kva.example"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["http://[::1]:3000", "http://[::1]:3000"],
  ])("%s → %s", (input, expected) => {
    expect(canonicalOrigin(input)).toBe(expected);
  });

  test.each(["https://*.shop.example", "https://shop.example/path", "https://shop.example?x=1", "ftp://shop.example", "shop.example", "https://user@shop.example", "null", ""])(
    "%s is not an origin",
    (input) => {
      expect(canonicalOrigin(input)).toBeNull();
    },
  );
});

describe("isCanonicalOrigin", () => {
  test("accepts only what a browser would send", () => {
    expect(isCanonicalOrigin("https://shop.example")).toBe(true);
    expect(isCanonicalOrigin("https://shop.example/")).toBe(false);
    expect(isCanonicalOrigin("https://SHOP.example")).toBe(false);
    expect(isCanonicalOrigin("https://shop.example:443")).toBe(false);
    expect(isCanonicalOrigin(null)).toBe(false);
  });

  test("answers alike when asked again, however many other headers came between", () => {
    const headers = ["https://shop.example", "https://SHOP.example", "https://shop.example/"];
    const first = headers.map(isCanonicalOrigin);
    for (let i = 0; i < 2_500; i++) isCanonicalOrigin(`https://site-${i}.example`);
    expect(headers.map(isCanonicalOrigin)).toEqual(first);
    expect(headers.map(isCanonicalOrigin)).toEqual([true, false, false]);
    const long = `https://${"a".repeat(300)}.example`;
    expect([isCanonicalOrigin(long), isCanonicalOrigin(long)]).toEqual([true, true]);
  });
});
