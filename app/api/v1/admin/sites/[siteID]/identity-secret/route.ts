import { created } from "@/lib/http/envelope";
import { adminRoute, defineRoute } from "@/lib/api/route";
import { identitySecretShown } from "@/lib/api/audit-actions";
import { createIdentitySecret } from "@/lib/identity/identity";

// Creates (or replaces) the site's identity secret; this answer is the only time it is shown.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {
  POST: adminRoute({ audit: identitySecretShown }, async ({ params }) => created(await createIdentitySecret(params.siteID!), "Identity secret created: store it now, it is not shown again.")),
});
