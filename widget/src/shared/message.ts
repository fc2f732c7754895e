// A message as the visitor routes answer it, and its files (a leaf: types only).

export interface Attachment {
  id: string;
  name: string;
  content_type: string;
  bytes: number;
  url: string;
}

export interface Source {
  article_id?: string;
  title: string;
  url: string;
}

export interface Message {
  sequence: number;
  conversation_id: string;
  client_id: string;
  author_id: string;
  author_type: string;
  /** system messages: what happened (act on this, never on the body) */
  event?: "conversation_closed" | "conversation_reopened" | "handoff_requested";
  body: string;
  created_at: string;
  author_name: string | null;
  author_avatar: string | null;
  /** always sent by the server; [] when none */
  attachments?: Attachment[];
  /** round 4: the help center articles a bot answer was drawn from ([] when none) */
  sources?: Source[];
}
