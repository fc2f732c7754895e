// Set by playwright.config.ts for the runner and its workers.
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests through playwright.config.ts`);
  return value;
}

export const SERVICE_URL = required("E2E_SERVICE_URL");
export const CUSTOMER_URL = required("E2E_CUSTOMER_URL");
export const ADMIN_TOKEN = required("E2E_ADMIN_TOKEN");
/** The customer page's other name: the same server, an origin no site allows. */
export const FOREIGN_URL = CUSTOMER_URL.replace("127.0.0.1", "localhost");
export const STAFF = { id: "grace", name: "Grace Hopper" } as const;
