import { cut } from "./cut";
import { session } from "./session";

// Parley.identify({name, email, user_id, user_hash}) as the panel uses it: strings only, bounded
// as the API bounds them. The email the visitor types in the offline prompt is kept here too.

const text = (value: unknown, max: number) => (typeof value === "string" ? cut(value.trim(), max) : "");

export const me = {
  get name() {
    return text(session.boot.me.name, 80);
  },
  get email() {
    return text(session.boot.me.email, 254);
  },
  set email(value: string) {
    session.boot.me.email = value;
  },
  get userId() {
    return text(session.boot.me.user_id, 100);
  },
  get userHash() {
    return text(session.boot.me.user_hash, 128);
  },
};
