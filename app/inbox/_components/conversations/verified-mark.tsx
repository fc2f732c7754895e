import styles from "../../inbox.module.css";

/** A conversation whose visitor identity was verified (a valid user_hash at its start). */
export function VerifiedMark() {
  return (
    <span className={styles.verified} title="The site verified this visitor's identity" data-testid="verified">
      ✓ Verified
    </span>
  );
}
