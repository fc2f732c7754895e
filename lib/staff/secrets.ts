import { createHash, randomBytes } from "node:crypto";

/** A bearer secret: 32 random bytes, base64url, with a prefix saying what it is. Only its hash is stored. */
export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;

export const sha256Hex = (value: string) => createHash("sha256").update(value).digest("hex");
