import { ok } from "@/lib/http/envelope";
import { defineRoute, probeRoute } from "@/lib/api/route";

// Liveness: the process answers. Touches no backend, so a database outage never restarts it.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("probe", {
  GET: probeRoute(async () => ok({ status: "ok" }, "Alive.")),
});
