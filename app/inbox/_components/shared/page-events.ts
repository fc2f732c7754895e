// The DOM events one area of the inbox's page sends another on \`window\`, named here so that
// neither imports the other: the live channel (frame/live-updates.tsx) passes a visitor's typing
// to the open thread (conversations/conversation-actions.tsx).

/** A visitor started or stopped typing; \`detail\` is the stream's typing event. */
export const TYPING_EVENT = "parley:typing";
