import * as wire from "../../../contracts/wire";
import { routes } from "../../operation";

export const probeReady = routes({
  "ready": {
    GET: {
      summary: "Readiness: the database and (when configured) Redis answer",
      extension: true,
      answers: { 200: wire.readiness },
      errors: ["service_unavailable"],
    },
  },
});
