// New labels get distinct colours: the first of this palette no label uses yet (then round again).
// Dark enough for a swatch beside text on the light and dark themes; the owner can still pick any.

export const LABEL_PALETTE = ["#0b5cad", "#b42318", "#1a7f37", "#8a4baf", "#b35900", "#0f766e", "#a3127f", "#5c6b00", "#4b5563", "#7c4a03"] as const;

export function nextLabelColor(used: readonly string[]): string {
  const taken = new Set(used.map((color) => color.toLowerCase()));
  return LABEL_PALETTE.find((color) => !taken.has(color)) ?? LABEL_PALETTE[used.length % LABEL_PALETTE.length]!;
}
