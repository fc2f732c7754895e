import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const probeHealth = routes({
  "health": {
    GET: {
      summary: "Liveness",
      extension: true,
      answers: { 200: wire.health },
    },
  },
});
