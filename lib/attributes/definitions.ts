import type { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { AppError } from "../core/errors";
import type { attributeDefinition, AttributeDefinitionShape, AttributeType, CreateAttributeInput } from "../contracts/attributes";
import { REMOVE_ATTRIBUTE_VALUES } from "./statements";

// Attribute definitions (decisions.md, round 4; docs/attributes.md): owners create and delete them,
// every member reads them. A key is unique (the primary key, so two creates at once cannot both
// win) and is never renamed: its values on conversations are stored under it.

export type WireAttributeDefinition = z.infer<typeof attributeDefinition>;

const view = { key: true, label: true, type: true, options: true, createdAt: true } as const;

const toWire = (row: { key: string; label: string; type: string; options: string[]; createdAt: Date }): WireAttributeDefinition => ({
  key: row.key,
  label: row.label,
  type: row.type as AttributeType, // stored only through the contract (and a CHECK)
  options: row.options,
  created_at: row.createdAt.toISOString(),
});

export const attributeNotFound = () => new AppError("not_found", "No attribute has this key.");

/** Every definition, by key. */
export async function listAttributeDefinitions(): Promise<WireAttributeDefinition[]> {
  const rows = await (await db()).attributeDefinition.findMany({ orderBy: { key: "asc" }, select: view });
  return rows.map(toWire);
}

/** The definitions of these keys, by key (unknown keys are absent). */
export async function definitionsOf(keys: string[]): Promise<Map<string, AttributeDefinitionShape & { label: string }>> {
  if (keys.length === 0) return new Map();
  const rows = await (await db()).attributeDefinition.findMany({ where: { key: { in: keys } }, select: view });
  return new Map(rows.map((row) => [row.key, { key: row.key, label: row.label, type: row.type as AttributeType, options: row.options }]));
}

export async function createAttributeDefinition(input: CreateAttributeInput): Promise<WireAttributeDefinition> {
  try {
    const row = await (await db()).attributeDefinition.create({ data: { key: input.key, label: input.label, type: input.type, options: input.options }, select: view });
    return toWire(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("already_exists", "An attribute with this key already exists.");
    throw error;
  }
}

/**
 * Deletes the definition and, in the same transaction, its values on every conversation (so a key
 * defined again later, perhaps with another type, never meets values of the old one). A pre-chat
 * form that names the key skips it from then on (lib/attributes/prechat.ts).
 */
export async function deleteAttributeDefinition(key: string) {
  await (await db()).$transaction(async (tx) => {
    const { count } = await tx.attributeDefinition.deleteMany({ where: { key } });
    if (count === 0) throw attributeNotFound();
    await tx.$executeRawUnsafe(REMOVE_ATTRIBUTE_VALUES.text, key);
  });
  return { key, deleted: true as const };
}
