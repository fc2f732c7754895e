import type { Operation } from "./operations";

// The inbox's own API (/api/v1/inbox, session cookie) and the operator API's inbox additions.
export const inboxOperations: Operation[] = [];
