// A customer's website for the browser tests: a plain page on another origin than the service,
// embedding the widget with one tag, as a site owner would. Served by node:http, nothing else.
//   /?site=ID             the page, embedding /widget.js with data-site=ID
//   /pricing?site=ID      the same page at another path (rules matching the page's URL)
//   /?site=ID&hostile=1   the same page under a stylesheet that tries to break the widget
//   /?site=ID&locale=de&consent=required&sound=on   the same tag with those data-* attributes
//   /?site=ID&csp=documented   under a strict Content-Security-Policy with the lines docs/widget.md
//                              tells a site to add; csp=no-images: the same with img-src 'none'
import { createServer } from "node:http";

const port = Number(process.env.CUSTOMER_PORT);
const service = process.env.SERVICE_URL;
if (!port || !service) throw new Error("customer-server.mjs: CUSTOMER_PORT and SERVICE_URL are required");

// Everything a careless or hostile page might do to whatever it embeds.
const HOSTILE_CSS = `
body * { display: none !important; }
* { font: italic 700 44px/3 "Comic Sans MS", cursive !important; color: #f0f !important; letter-spacing: 6px !important;
    margin: 11px !important; padding: 13px !important; box-sizing: content-box !important; border: 3px dashed #0f0 !important; }
parley-chat { display: none !important; visibility: hidden !important; opacity: 0 !important; position: static !important;
    transform: scale(3) !important; width: 900px !important; height: 900px !important; z-index: -1 !important; }
div, p, button, input, textarea, form, svg, span { all: unset !important; display: none !important; }
[hidden] { display: block !important; }
:root { --a: #f00; --bg: #000; --fg: #0f0; --ln: #ff0; color-scheme: dark; font-size: 60px !important; }
html { background: #fff !important; }
`;

// Only these, with plain values, become data-* attributes of the widget's tag.
const OPTIONS = ["locale", "consent", "sound"];
const attributes = (params) =>
  OPTIONS.filter((name) => /^[A-Za-z-]{1,20}$/.test(params.get(name) ?? "")).map((name) => ` data-${name}="${params.get(name)}"`).join("");

// The page's own inline script and style carry a nonce, so the policy allows nothing else inline:
// what the widget needs is exactly what docs/widget.md lists.
const NONCE = "customer-page-nonce";
const strictPolicy = (images) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${NONCE}' ${service}`,
    `style-src 'nonce-${NONCE}'`,
    `connect-src ${service}`,
    `img-src ${images}`,
    "base-uri 'none'",
  ].join("; ");
const POLICIES = { documented: strictPolicy("blob: data:"), "no-images": strictPolicy("'none'") };

const page = (site, hostile, extra = "") => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Customer shop</title>
<style nonce="${NONCE}">
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #222; background: #fff; }
  main { max-width: 560px; padding: 32px; }
</style>
${hostile ? `<style>${HOSTILE_CSS}</style>` : ""}
</head>
<body>
<main>
  <h1>Customer shop</h1>
  <p>A page on a customer's own origin that embeds the Parley widget.</p>
  <button id="counter" type="button">Clicked 0 times</button>
</main>
<script nonce="${NONCE}">
  let clicks = 0;
  document.getElementById("counter").addEventListener("click", (e) => { e.target.textContent = "Clicked " + ++clicks + " times"; });
</script>
<script src="${service}/widget.js" data-site="${site}"${extra} async></script>
</body>
</html>`;

const PATHS = new Set(["/", "/pricing"]);

createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://customer.invalid");
  if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
  const site = url.searchParams.get("site") ?? "";
  if (!PATHS.has(url.pathname) || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(site)) {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    return;
  }
  const policy = POLICIES[url.searchParams.get("csp") ?? ""];
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...(policy && { "Content-Security-Policy": policy }) });
  res.end(page(site, url.searchParams.get("hostile") === "1", attributes(url.searchParams)));
}).listen(port, () => console.log(`customer page on port ${port}`));
