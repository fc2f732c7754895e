import { describe, expect, it } from "vitest";
import { contrastRatio, readableTextOn } from "./brand-text";

describe("readableTextOn", () => {
  it("puts white on dark brand colours and dark text on light ones, always at WCAG AA for large text or better", () => {
    expect(readableTextOn("#1e3a8a")).toBe("#ffffff");
    expect(readableTextOn("#b45309")).toBe("#ffffff");
    expect(readableTextOn("#facc15")).toBe("#111827");
    expect(readableTextOn("#fff")).toBe("#111827");
    for (const brand of ["#facc15", "#22d3ee", "#2563eb", "#f97316", "#000"]) {
      expect(contrastRatio(brand, readableTextOn(brand))).toBeGreaterThanOrEqual(4.5);
    }
  });
});
