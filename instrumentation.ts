// Next.js calls register() once per server start, before serving requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("./lib/prepare-service")).prepareServerStart();
}
