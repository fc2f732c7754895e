import { db } from "../db/client";
import { settingPlace, type SealedSettingName } from "./places";
import { openSecret, sealSecret } from "./seal";

/**
 * A secret the service makes for itself and keeps in the settings table, sealed: created by
 * `create()` on first use, once across every instance sharing the database (the first insert
 * wins, the others read it).
 */
export async function sealedSetting(name: SealedSettingName, create: () => string): Promise<string> {
  const prisma = await db();
  const place = settingPlace(name);
  await prisma.setting.createMany({ data: [{ key: name, value: sealSecret(create(), place) }], skipDuplicates: true });
  const stored = await prisma.setting.findUniqueOrThrow({ where: { key: name } });
  return openSecret(stored.value, place);
}
