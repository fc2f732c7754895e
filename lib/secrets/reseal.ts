import { sqlExecutor } from "../db/client";
import { keyring as processKeyring, type Keyring } from "./keyring";
import { SEALED_COLUMNS } from "./places";
import { isSealed, isSealedUnder, logUnreadable, openSecret, SealedSecretError, sealSecret, type SecretPlace } from "./seal";

// Seals stored secrets under the current key: values an older version kept in the clear (every
// start and `npm run db:migrate`: SQL migrations cannot encrypt), and with `rotate` also values
// sealed under an older key (`npm run secrets:rotate`; not at start, where an instance that already
// has a new key would lock out the ones still running with the old). Idempotent: a value already
// sealed under the current key is left alone, and each row is replaced only if it still holds what
// was read (a secret replaced meanwhile by an operator stays as they set it).

export interface ResealCounts {
  /** Values that were in the clear. */
  sealed: number;
  /** Values sealed under an older key. */
  resealed: number;
  /** Values that did not open (altered, or their key is missing): left as they are, and logged. */
  unreadable: SecretPlace[];
}

export async function resealSecrets({ rotate }: { rotate: boolean }, keyring: Keyring = processKeyring()): Promise<ResealCounts> {
  const sql = await sqlExecutor();
  const counts: ResealCounts = { sealed: 0, resealed: 0, unreadable: [] };
  for (const { table, column, key, only } of SEALED_COLUMNS) {
    const filter = only ? `AND "${key}" = ANY($2::text[])` : "";
    const skip = rotate ? `sealed:v1:${keyring.current.id}:%` : "sealed:%";
    const { rows } = await sql.executeSql(
      `SELECT "${key}" AS id, "${column}" AS stored FROM "${table}" WHERE "${column}" IS NOT NULL AND "${column}" NOT LIKE $1 ${filter}`,
      only ? [skip, only] : [skip],
    );
    for (const { id, stored } of rows as { id: string; stored: string }[]) {
      if (isSealedUnder(stored, keyring)) continue;
      const place = { table, column, id };
      let next: string;
      try {
        next = sealSecret(openSecret(stored, place, keyring), place, keyring);
      } catch (error) {
        if (!(error instanceof SealedSecretError)) throw error;
        logUnreadable(error);
        counts.unreadable.push(place);
        continue;
      }
      const { rowCount } = await sql.executeSql(`UPDATE "${table}" SET "${column}" = $1 WHERE "${key}" = $2 AND "${column}" = $3`, [next, id, stored]);
      if (rowCount > 0) counts[isSealed(stored) ? "resealed" : "sealed"] += 1;
    }
  }
  return counts;
}
