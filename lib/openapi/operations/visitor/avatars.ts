import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const visitorAvatars = routes({
  "v1/chat/visitor/avatars/[userID]": {
    GET: {
      summary: "A staff member's picture",
      description: "Only for a member who posted a public message in this conversation.",
      answers: { 200: wire.memberPicture },
      errors: ["member_not_found"],
    },
  },
});
