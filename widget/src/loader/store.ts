import type { Store } from "../shared/types";

/**
 * localStorage, or memory only: while consent is pending (nothing may be stored in the visitor's
 * browser) and where storage is blocked. On consent, what was kept in memory is written out.
 */
export function createStore(granted: boolean): Store & { grant(): void } {
  const memory = new Map<string, string>();
  return {
    granted: () => granted,
    get(key) {
      if (granted) {
        try {
          return localStorage.getItem(key);
        } catch {
          /* blocked: memory only */
        }
      }
      return memory.get(key) ?? null;
    },
    set(key, value) {
      memory.set(key, value);
      if (granted) {
        try {
          localStorage.setItem(key, value);
        } catch {
          /* blocked: memory only */
        }
      }
    },
    grant() {
      if (granted) return;
      granted = true;
      memory.forEach((value, key) => this.set(key, value));
    },
  };
}
