import { AppError } from "../core/errors";
import { cleanFileName, lastPathPart } from "../core/validation/file-names";
import type { StoredFile } from "./presign-upload";
import { storageOf } from "./storage";

// A stored file as a download, the same for staff (ticket and chat files) and visitors: its
// stored media type, never sniffed, never run as a page.

/** Shown in the page rather than saved: raster images only (never SVG, which can carry script). */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

const fileNotFound = () => new AppError("not_found", "No uploaded file has this identifier.");

export interface ServedFile extends StoredFile {
  name: string;
  uploadedAt: Date | null;
}

/**
 * The file's bytes (404 while they have not arrived). `Content-Disposition: attachment` unless
 * `inline` is asked for and the type is a raster image.
 */
export async function serveFile(file: ServedFile, { inline = false } = {}): Promise<Response> {
  const storage = storageOf(file.storage);
  if (!storage) throw fileNotFound();
  // S3 uploads are confirmed lazily; a file that is there (and passes the checks) is served either way.
  if (file.uploadedAt === null && file.storage === "local") throw fileNotFound();
  if (file.uploadedAt === null) {
    const confirmed = await storage.confirmUpload({ attachmentId: file.id, storageKey: file.storageKey, bytes: file.bytes, contentType: file.contentType });
    if (!confirmed) throw fileNotFound();
  }
  const body = await storage.read(file.storageKey);
  if (!body) throw fileNotFound();
  // Saved under its last part only, in both spellings; a name stored before the one rule is cleaned here.
  const name = cleanFileName(lastPathPart(file.name)) || "file";
  const fallbackName = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const disposition = inline && INLINE_TYPES.has(file.contentType) ? "inline" : "attachment";
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes),
      "Content-Disposition": `${disposition}; filename="${fallbackName}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
