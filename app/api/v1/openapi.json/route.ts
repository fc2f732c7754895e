import { openApiDocument } from "@/lib/openapi/document";

// The OpenAPI 3.1 document itself (not the envelope: tools read it as it is). Public, like the docs.
export function GET(): Response {
  return Response.json(openApiDocument(), {
    headers: { "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*" },
  });
}
