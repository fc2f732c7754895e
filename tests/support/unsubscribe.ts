/** Calls the one-click unsubscribe route as a mail client or a browser would (GET shows, POST records). */
export async function unsubscribeCall(method: "GET" | "POST", pathAndQuery: string, form?: string) {
  const route = await import("../../app/api/v1/email/unsubscribe/route");
  const request = new Request(new URL(pathAndQuery, "http://localhost:3000"), {
    method,
    body: form,
    headers: form ? { "Content-Type": "application/x-www-form-urlencoded" } : {},
  });
  const response = await (method === "GET" ? route.GET(request) : route.POST(request));
  return { status: response.status, text: await response.text() };
}
