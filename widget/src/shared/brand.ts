// A brand colour and the text colour that reads best on it (WCAG relative luminance).

const channel = (hex: string, at: number): number => {
  const value = parseInt(hex.slice(at, at + 2), 16) / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
};

const luminance = (hex: string): number => 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);

/** White or near-black, whichever contrasts more with `#rrggbb`. */
export function textOn(hex: string): string {
  const light = luminance(hex);
  // Contrast with white: 1.05 / (light + .05); with #111 (luminance ~.0056): (light + .05) / .0556
  return 1.05 / (light + 0.05) >= (light + 0.05) / 0.0556 ? "#fff" : "#111";
}

export const isHexColor = (value: unknown): value is string => typeof value === "string" && /^#[0-9a-f]{6}$/i.test(value);
