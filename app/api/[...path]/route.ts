import { AppError } from "@/lib/core/errors";
import { errorReply, toResponse, type Exchange } from "@/lib/http/respond";

// Anything under /api that no route matched: the envelope's 404, whatever the method.
function notFound(request: Request): Response {
  const exchange: Exchange = { request, requestId: crypto.randomUUID(), allowOrigin: null };
  return toResponse(errorReply(exchange, new AppError("not_found", "No such API route.")));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
