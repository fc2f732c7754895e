// The text colour the help center's header uses on the site's brand colour: white or near-black,
// whichever contrasts more (WCAG 2 relative luminance), so a light brand colour keeps a readable title.

export const LIGHT_TEXT = "#ffffff";
export const DARK_TEXT = "#111827";

/** Relative luminance of a `#rrggbb` / `#rgb` colour (WCAG 2.x). */
function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join("") : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = Number.parseInt(digits.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

/** White or near-black, whichever reads better on `brand`. */
export function readableTextOn(brand: string): string {
  return contrastRatio(brand, LIGHT_TEXT) >= contrastRatio(brand, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
}
