import { inboxApi, type ApiOutcome } from "../shared/api";

// A staff file into a conversation (docs/api.md "Files in chat"): described to the service, then
// PUT to the one-use URL it answers. The result is the attachment's id, to send with the message.
// `signal` cancels it (the member's Cancel); a file described but never sent is pruned after a day.

interface ChatUpload {
  attachment_id: string;
  upload_url: string;
  upload_headers?: Record<string, string>;
}

export async function uploadFile(conversationPath: string, file: File, signal?: AbortSignal): Promise<ApiOutcome<string>> {
  const cancelled = { ok: false, status: 0, result: "", message: `${file.name}: the upload was cancelled.` };
  const described = await inboxApi<ChatUpload>("POST", `${conversationPath}/uploads`, {
    name: file.name.slice(0, 255),
    content_type: file.type,
    bytes: file.size,
  });
  if (signal?.aborted) return cancelled;
  if (!described.ok) return { ...described, message: `${file.name}: ${described.message}`, result: "" };
  const { attachment_id, upload_url, upload_headers } = described.result;
  const put = await fetch(upload_url, { method: "PUT", headers: { ...upload_headers, "Content-Type": file.type }, body: file, signal }).catch(() => null);
  if (signal?.aborted) return cancelled;
  if (!put?.ok) {
    const why = put?.status === 400 ? "the file's content does not match its type" : "the upload failed";
    return { ok: false, status: put?.status ?? 0, result: "", message: `${file.name}: ${why}.` };
  }
  return { ok: true, status: 200, result: attachment_id, message: "" };
}
