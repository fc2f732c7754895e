import * as inbox from "../../../contracts/inbox-wire";
import { acceptInviteBody } from "../../../contracts/staff";
import { routes } from "../../operation";

export const inboxInvites = routes({
  "v1/inbox/invites/accept": {
    POST: {
      summary: "Accept a setup or invite link (sets a password and the session cookie)",
      description: "`email` only for the setup link (invites carry theirs); `name` is required where the link has none.",
      extension: true,
      body: acceptInviteBody,
      answers: { 200: inbox.signedIn },
      errors: ["invite_invalid", "already_exists"],
    },
  },
});
