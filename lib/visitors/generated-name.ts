import { createHash } from "node:crypto";

// An anonymous visitor gets a stable two-word name and a colour, so five rows of "Visitor" become
// five people an agent can tell apart. The same seed (the browser's visitor id) always gives the
// same name and colour; it is a label, never an identity.

const ADJECTIVES = [
  "Amber", "Azure", "Bright", "Calm", "Coral", "Crimson", "Dawn", "Dusky", "Ember", "Fern",
  "Frost", "Golden", "Hazel", "Indigo", "Ivory", "Jade", "Lilac", "Lunar", "Maple", "Misty",
  "Olive", "Pearl", "Quiet", "Rosy", "Russet", "Sage", "Silver", "Sunny", "Teal", "Velvet",
  "Willow", "Zesty",
];
const ANIMALS = [
  "Badger", "Bear", "Crane", "Deer", "Dolphin", "Eagle", "Falcon", "Finch", "Fox", "Gecko",
  "Hare", "Heron", "Ibis", "Koala", "Lark", "Lynx", "Marten", "Moose", "Newt", "Otter",
  "Owl", "Panda", "Puffin", "Quail", "Raven", "Robin", "Seal", "Swan", "Tiger", "Turtle",
  "Whale", "Wren",
];
/** Tailwind's 700 shades: each holds white text above 4.5:1 (WCAG AA). */
const COLORS = ["#b91c1c", "#c2410c", "#a16207", "#4d7c0f", "#15803d", "#0f766e", "#0e7490", "#0369a1", "#1d4ed8", "#6d28d9", "#a21caf", "#be123c"];

function pick(seed: string): [number, number, number] {
  const digest = createHash("sha256").update(seed).digest();
  return [digest.readUInt16BE(0), digest.readUInt16BE(2), digest.readUInt16BE(4)];
}

export interface VisitorLook {
  display_name: string;
  avatar_color: string;
  named: boolean;
}

/** The given name, else the generated one; the colour always comes from the seed. */
export function visitorLook(givenName: string | null, seed: string): VisitorLook {
  const [a, b, c] = pick(seed);
  return {
    display_name: givenName ?? `${ADJECTIVES[a % ADJECTIVES.length]} ${ANIMALS[b % ANIMALS.length]}`,
    avatar_color: COLORS[c % COLORS.length]!,
    named: givenName !== null,
  };
}

/** The seed of a conversation's visitor: the browser's id when the widget sent one, else the conversation's own. */
export const visitorSeed = (row: { browserVisitorId: string | null; visitorId: string }) => row.browserVisitorId ?? row.visitorId;
