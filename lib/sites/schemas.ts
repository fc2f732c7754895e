import { z } from "zod";
import { canonicalOrigin } from "../origins/origin";
import { displayName } from "../validation/strings";

const siteId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "must be 1-100 letters, digits, '.', '_' or '-'");

/** Origins are stored canonical; an entry that is not an http(s) origin is refused, not guessed at. */
const origins = z
  .array(z.string().max(300))
  .max(50)
  .transform((entries, ctx) => {
    const canonical = entries.map((entry, index) => {
      const origin = canonicalOrigin(entry);
      if (!origin) ctx.addIssue({ code: "custom", path: [index], message: "must be an http(s) origin such as https://shop.example" });
      return origin ?? "";
    });
    return [...new Set(canonical)];
  });

const dailyAllowance = z.number().int().min(0).max(1_000_000);

export const createSiteBody = z
  .strictObject({
    id: siteId,
    name: displayName(120).optional(),
    origins,
    daily_allowance: dailyAllowance.optional(),
    offline: z.boolean().optional(),
  })
  .transform(({ daily_allowance, ...rest }) => ({ ...rest, dailyAllowance: daily_allowance }));

export const updateSiteBody = z
  .strictObject({
    name: displayName(120).optional(),
    origins: origins.optional(),
    daily_allowance: dailyAllowance.optional(),
    offline: z.boolean().optional(),
  })
  .transform(({ daily_allowance, ...rest }) => ({ ...rest, dailyAllowance: daily_allowance }));

export type CreateSiteInput = z.output<typeof createSiteBody>;
export type UpdateSiteInput = z.output<typeof updateSiteBody>;
