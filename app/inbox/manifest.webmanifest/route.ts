// The inbox as an installable web app (a phone's home screen, a desktop window).
const MANIFEST = {
  name: "Parley inbox",
  short_name: "Parley",
  description: "Answer your visitors' chats and requests.",
  start_url: "/inbox",
  scope: "/inbox",
  display: "standalone",
  background_color: "#ffffff",
  theme_color: "#1f56c8",
  icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
};

export function GET() {
  return new Response(JSON.stringify(MANIFEST), {
    headers: { "Content-Type": "application/manifest+json", "Cache-Control": "public, max-age=3600" },
  });
}
