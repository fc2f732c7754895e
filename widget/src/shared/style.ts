/** Adds a style sheet to the shadow root: constructable (not blocked by a page's style-src CSP), else a <style>. */
export function adoptStyle(root: ShadowRoot, css: string): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement("style");
    style.textContent = css;
    root.prepend(style);
  }
}
