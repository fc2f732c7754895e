import { checkReadiness } from "@/lib/health/readiness";
import { ok } from "@/lib/http/envelope";
import { defineRoute, probeRoute } from "@/lib/api/route";

// Readiness: the backends a request needs answer (503 `service_unavailable` otherwise).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("probe", {
  GET: probeRoute(async () => ok(await checkReadiness(), "Ready.")),
});
