import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const visitorRenew = routes({
  "v1/chat/visitor/renew": {
    POST: {
      summary: "Renew (rotate) the visitor token",
      answers: { 200: wire.renewedToken },
    },
  },
});
