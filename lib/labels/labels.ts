import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { Label } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import { labelNameKey, type CreateLabelInput, type UpdateLabelInput } from "../contracts/labels";
import type { label } from "../contracts/workspace-wire";

// Labels (decisions.md, round 3): owners create, rename and delete them; every member applies them
// to conversations (./conversation-labels.ts). A name is unique case-insensitively: `nameKey` is
// the name lower-cased here, and unique in the database, so two creates at once cannot both win.

export type WireLabel = z.infer<typeof label>;

export const labelColumns = { id: true, name: true, color: true } as const;

export const toWireLabel = (row: Pick<Label, "id" | "name" | "color">): WireLabel => ({ id: row.id, name: row.name, color: row.color });

const labelNotFound = () => new AppError("not_found", "No label has this identifier.");
const nameTaken = () => new AppError("already_exists", "A label with this name already exists (names are compared without case).");

/** Every label, by name. */
export async function listLabels(): Promise<WireLabel[]> {
  const rows = await (await db()).label.findMany({ orderBy: [{ nameKey: "asc" }, { id: "asc" }], select: labelColumns });
  return rows.map(toWireLabel);
}

export async function createLabel(input: CreateLabelInput): Promise<WireLabel> {
  try {
    const row = await (await db()).label.create({
      data: { id: `lb_${randomUUID()}`, name: input.name, nameKey: labelNameKey(input.name), color: input.color },
      select: labelColumns,
    });
    return toWireLabel(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function updateLabel(id: string, input: UpdateLabelInput): Promise<WireLabel> {
  const prisma = await db();
  try {
    const { count } = await prisma.label.updateMany({
      where: { id },
      data: { name: input.name, nameKey: input.name === undefined ? undefined : labelNameKey(input.name), color: input.color, updatedAt: new Date() },
    });
    if (count === 0) throw labelNotFound();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
  return toWireLabel(await prisma.label.findUniqueOrThrow({ where: { id }, select: labelColumns }));
}

/** Deletes the label and takes it off every conversation. */
export async function deleteLabel(id: string) {
  const { count } = await (await db()).label.deleteMany({ where: { id } });
  if (count === 0) throw labelNotFound();
  return { id, deleted: true as const };
}
