import { serviceOrigin } from "../../core/env";
import { isSignature, textSignature, type SigningFormat } from "../../core/signing";
import { serviceSigningSecret } from "../../secrets/signing-secret";

// One-click rating links in emails after a close (decisions.md, round 3, "Satisfaction and
// reports"; docs/reports.md). The token names the conversation and the close it rates (its
// closed_at, which keys ratings) and is signed with the service's secret under a purpose of its
// own: it rates only that close of that conversation. Opening a link only shows a confirmation
// (link scanners follow GETs); its POST records the rating (app/api/v1/chat/rate).

export interface RatedClose {
  conversationId: string;
  closedAt: Date;
}

const RATING_TOKEN: SigningFormat = { purpose: "rate", separator: ":" };

export async function ratingToken({ conversationId, closedAt }: RatedClose): Promise<string> {
  const payload = Buffer.from(JSON.stringify([conversationId, closedAt.getTime()])).toString("base64url");
  return `${payload}.${textSignature(await serviceSigningSecret(), RATING_TOKEN, payload)}`;
}

/** The close a token rates; null for anything not signed by this service. */
export async function verifyRatingToken(token: string): Promise<RatedClose | null> {
  const [payload, given, ...rest] = token.split(".");
  if (!payload || !given || rest.length > 0 || token.length > 600) return null;
  if (!isSignature(await serviceSigningSecret(), RATING_TOKEN, payload, Buffer.from(given, "base64url"))) return null;
  const [conversationId, closedAt] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [string, number];
  return { conversationId, closedAt: new Date(closedAt) };
}

/** The five links (1 to 5) an email about a closed conversation carries; other templates use it too. */
export async function ratingLinks(close: RatedClose): Promise<{ score: number; url: string }[]> {
  const token = await ratingToken(close);
  return [1, 2, 3, 4, 5].map((score) => ({ score, url: `${serviceOrigin()}/api/v1/chat/rate?${new URLSearchParams({ t: token, score: String(score) })}` }));
}
