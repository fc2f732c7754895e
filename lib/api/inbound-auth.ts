import { bearerMatches, sha256 } from "../core/bearer";
import { env } from "../core/env";
import { AppError } from "../core/errors";

// The inbound family's check (lib/api/route.ts inboundRoute): a provider forwarding raw MIME sends
// `Authorization: Bearer <INBOUND_EMAIL_SECRET>`, compared in constant time. Without the secret
// nothing can match: an unset secret never opens the route.

export function assertInboundSecret(authorization: string | null): void {
  const secret = env().INBOUND_EMAIL_SECRET;
  if (!secret) throw new AppError("unauthorized", "Inbound email over HTTP is off: INBOUND_EMAIL_SECRET is not set.");
  if (!bearerMatches(authorization, sha256(secret))) throw new AppError("unauthorized", "A valid inbound email secret is required.");
}
