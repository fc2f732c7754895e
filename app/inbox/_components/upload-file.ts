import { inboxApi, type ApiOutcome } from "./api";

// A staff file into a conversation (docs/api.md "Files in chat"): described to the service, then
// PUT to the one-use URL it answers. The result is the attachment's id, to send with the message.

interface ChatUpload {
  attachment_id: string;
  upload_url: string;
  upload_headers?: Record<string, string>;
}

export async function uploadFile(conversationPath: string, file: File): Promise<ApiOutcome<string>> {
  const described = await inboxApi<ChatUpload>("POST", `${conversationPath}/uploads`, {
    name: file.name.slice(0, 255),
    content_type: file.type,
    bytes: file.size,
  });
  if (!described.ok) return { ...described, message: `${file.name}: ${described.message}`, result: "" };
  const { attachment_id, upload_url, upload_headers } = described.result;
  const put = await fetch(upload_url, { method: "PUT", headers: { ...upload_headers, "Content-Type": file.type }, body: file }).catch(() => null);
  if (!put?.ok) {
    const why = put?.status === 400 ? "the file's content does not match its type" : "the upload failed";
    return { ok: false, status: put?.status ?? 0, result: "", message: `${file.name}: ${why}.` };
  }
  return { ok: true, status: 200, result: attachment_id, message: "" };
}
