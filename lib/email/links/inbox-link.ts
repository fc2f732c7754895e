import { serviceOrigin } from "../../core/env";

/** The conversation in the inbox, as the staff emails link it. */
export const inboxConversationUrl = (conversationId: string) =>
  `${serviceOrigin()}/inbox/conversations/${encodeURIComponent(conversationId)}`;
