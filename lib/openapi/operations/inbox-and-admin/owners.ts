/** The two APIs that share an operation: the operator's (token) and the inbox's (session). */
export type StaffApi = "admin" | "inbox";

/** How an inbox operation that only owners may call says so in its summary (the operator API's does not). */
export const ownersOnly = (api: StaffApi): string => (api === "inbox" ? " (owners)" : "");
