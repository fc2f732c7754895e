import { z } from "zod";
import { singleLineValue } from "../core/validation/strings";

// Web Push subscriptions from the inbox (lib/push): what PushSubscription.toJSON() gives a page.

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url")
    .refine((value) => Buffer.from(value, "base64url").length === bytes, `must hold ${bytes} bytes`);

export const pushSubscriptionBody = z.strictObject({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
  expirationTime: z.number().nullable().optional(),
});

export const pushUnsubscribeBody = z.strictObject({ endpoint: singleLineValue(2000) });

export type PushSubscriptionInput = z.output<typeof pushSubscriptionBody>;
