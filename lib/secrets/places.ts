import type { SecretPlace } from "./seal";

// Every column that holds sealed secrets, in one list: the start seals what an older version left
// in the clear, and `npm run secrets:rotate` re-seals all of it under a new key (reseal.ts).

/** Settings rows whose value is a secret kept for later use (the VAPID private key, for web push, will be one). */
export const SEALED_SETTINGS = ["upload_signing_secret", "vapid_private_key"] as const;
export type SealedSettingName = (typeof SEALED_SETTINGS)[number];

export interface SealedColumn {
  table: string;
  column: string;
  /** The row's key column. */
  key: string;
  /** Only rows whose key is one of these (settings). */
  only?: readonly string[];
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "sites", column: "identity_secret", key: "id" },
  { table: "webhooks", column: "secret", key: "id" },
  { table: "settings", column: "value", key: "key", only: SEALED_SETTINGS },
];

export const identitySecretPlace = (siteId: string): SecretPlace => ({ table: "sites", column: "identity_secret", id: siteId });
export const webhookSecretPlace = (webhookId: string): SecretPlace => ({ table: "webhooks", column: "secret", id: webhookId });
export const settingPlace = (name: SealedSettingName): SecretPlace => ({ table: "settings", column: "value", id: name });
