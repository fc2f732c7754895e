import { bearerMatches, sha256 } from "../core/bearer";
import { env } from "../core/env";
import { AppError } from "../core/errors";

// The cron family's check (lib/api/route.ts cronRoute): Vercel Cron sends
// `Authorization: Bearer <CRON_SECRET>`. Without CRON_SECRET nothing can match, so every request
// is refused: an unset secret never opens the route.

export function assertCronSecret(authorization: string | null): void {
  const secret = env().CRON_SECRET;
  if (!secret) throw new AppError("unauthorized", "The cron routes are off: CRON_SECRET is not set.");
  if (!bearerMatches(authorization, sha256(secret))) throw new AppError("unauthorized", "A valid cron secret is required.");
}
