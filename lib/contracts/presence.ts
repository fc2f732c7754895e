import { z } from "zod";

const booleanParam = z.enum(["true", "false"]).transform((value) => value === "true");

/** GET /visitor/presence?typing=true|false */
export const presenceQuery = z.strictObject({ typing: booleanParam.optional() });
