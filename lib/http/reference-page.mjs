// @ts-check
// The /reference page (app/reference/route.ts): Scalar's viewer of /api/v1/openapi.json, served
// whole by this service. Its script is Scalar's browser bundle, which scripts/copy-scalar.mjs
// copies from the @scalar/api-reference package into public/ (part of `npm run dev` and
// `npm run build`): the page makes no request to another origin, so it works offline, behind a
// firewall, and under a Content-Security-Policy of 'self' (lib/http/page-headers.mjs).

/** The installed @scalar/api-reference, as package.json pins it (a test holds the two together). */
export const SCALAR_VERSION = "1.46.4";

/** Where the bundle is served: named by its version, so it may be cached for good. */
export const SCALAR_SCRIPT_PATH = `/scalar/api-reference-${SCALAR_VERSION}.js`;

export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

// Scalar's options (read from the data-configuration attribute): none of its features that talk to
// scalar.com (its web fonts, the AI agent, the request proxy, telemetry, the buttons that open its
// hosted client or share and deploy the document there), and once it has drawn the reference, it
// hides the page's own fallback line with this stylesheet.
const CONFIGURATION = {
  url: OPENAPI_DOCUMENT_PATH,
  withDefaultFonts: false,
  agent: { disabled: true },
  proxyUrl: "",
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  documentDownloadType: "json",
  customCss: ".parley-reference-fallback { display: none; }",
};

/** @param {string} text */
const attribute = (text) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

/**
 * The page's HTML. Until Scalar draws the reference (and for good if its script cannot load, or
 * JavaScript is off) the page says where the document itself is.
 * @param {{ title?: string }} [options]
 */
export function referencePageHtml({ title = "Parley API reference" } = {}) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${attribute(title)}</title>
    <link rel="icon" href="/icon.svg" type="image/svg+xml" />
  </head>
  <body>
    <p class="parley-reference-fallback">
      ${attribute(title)}: if the interactive reference does not appear, read the OpenAPI document
      itself at <a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>.
    </p>
    <script id="api-reference" type="application/json" data-url="${OPENAPI_DOCUMENT_PATH}" data-configuration="${attribute(JSON.stringify(CONFIGURATION))}"></script>
    <script src="${SCALAR_SCRIPT_PATH}"></script>
  </body>
</html>
`;
}
