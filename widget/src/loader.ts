/*! Parley chat widget: Parley.open(), .close(), .identify({name, email, user_id, user_hash}), .consent() */
// The loader (public/widget.js): the launcher, a queue for early calls, the page view and the
// site config. The panel (public/widget/panel-<hash>.js) loads on first open, on idle after page
// load, or at once when a conversation is being resumed.
import { isHexColor, textOn } from "./brand";
import { createStore } from "./store";
import { cut } from "./cut";
import { LAUNCHER_CSS } from "./loader-style";
import type { Boot, PanelApi, PanelStart, ParleyGlobal, ParleyWindow, SiteConfig } from "./types";

declare const __PANEL__: string;

(() => {
  const D = document;
  const w = window as ParleyWindow;
  if (w.Parley?._l) return; // loaded twice
  const script = (D.currentScript || D.querySelector("script[data-site][src*='widget']")) as HTMLScriptElement | null;
  const site = script?.dataset.site;
  if (!script || !site) return console.warn("Parley: no data-site");
  const data = script.dataset;
  const api = (data.api || new URL(script.src || "/", location.href).origin).replace(/\/+$/, "");
  const widgetRoute = api + "/api/v1/chat/widget/" + encodeURIComponent(site);
  const key = "parley:" + site;
  const consentNeeded = data.consent === "required";
  const store = createStore(!consentNeeded);
  const me: Record<string, unknown> = {};
  let off = false;
  let warned = false;
  const quiet = () => {
    if (!warned) console.warn('Parley: site "' + site + '" is not available on ' + location.origin);
    warned = true;
  };
  /** The site refused this page (403/404): stay out of the way. */
  const refuse = (status: number) => {
    if (status !== 403 && status !== 404) return;
    quiet();
    off = true;
    host.remove();
  };

  const host = D.createElement("parley-chat");
  // Inline !important beats page rules like `* {display:none !important}`
  host.style.cssText =
    "all:initial!important;display:block!important;position:fixed!important;z-index:2147483647!important;right:0!important;bottom:0!important;width:0!important;height:0!important;visibility:visible!important;opacity:1!important";
  const root = host.attachShadow({ mode: "open" });
  const icon = (cls: string, path: string) => `<svg class=${cls} viewBox="0 0 24 24" aria-hidden=true>${path}</svg>`;
  // Static markup only: every user-supplied string is set later with textContent.
  root.innerHTML = `<div class=r id=r><button class=l id=l type=button aria-expanded=false aria-controls=p aria-label="Open chat">${icon(
    "i1",
    '<path fill=currentColor d="M12 3C6.5 3 2 6.9 2 11.7c0 2.6 1.3 4.9 3.4 6.5L4.6 22l4.3-2.3c1 .3 2 .4 3.1.4 5.5 0 10-3.9 10-8.4S17.5 3 12 3z"/>',
  )}${icon("i2", '<path d="M6 6l12 12M18 6L6 18" stroke=currentColor stroke-width=2.2 stroke-linecap=round />')}<span class=bg id=bg aria-hidden=true hidden></span></button></div>`;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(LAUNCHER_CSS); // constructable sheet: not blocked by a page's style-src CSP
    root.adoptedStyleSheets = [sheet];
  } catch {
    const style = D.createElement("style");
    style.textContent = LAUNCHER_CSS;
    root.prepend(style);
  }
  const frame = root.getElementById("r") as HTMLElement;
  const launcher = root.getElementById("l") as HTMLButtonElement;
  const badge = root.getElementById("bg") as HTMLElement;

  /** The loader's two requests (the panel has the full client); a failure is status 0. */
  const call = (path: string, body?: unknown) =>
    fetch(widgetRoute + path, {
      method: body ? "POST" : "GET",
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : null,
      credentials: "omit",
    }).then(
      async (r) => {
        refuse(r.status);
        return r.ok ? ((await r.json()) as { result: unknown }).result : null;
      },
      () => null,
    );
  let configLoad: Promise<SiteConfig | null> | null = null;
  const config = () =>
    (configLoad ||= call("/config").then((result) => {
      const c = result as SiteConfig | null;
      if (c) {
        if (isHexColor(c.brand_color)) {
          frame.style.setProperty("--a", c.brand_color);
          frame.style.setProperty("--af", textOn(c.brand_color));
        }
        if (c.position === "left") frame.classList.add("L");
        if (c.launcher_label) launcher.dataset.label = c.launcher_label; // not data-t: that names a string to translate (view.ts)
      }
      return c;
    }));

  // The browser's visitor id links page views and conversations. Privacy first: it is made and
  // stored only once the visitor interacts (or the page calls Parley.consent()), unless the site
  // tracks before interaction; page views before that count but link to no one.
  let acted = false;
  const vid = (make?: unknown) => {
    let v = store.get(key + ":vid");
    if (!v && make) store.set(key + ":vid", (v = crypto.randomUUID?.() || String(Math.random()).slice(2)));
    return v || undefined;
  };
  let viewed = false;
  const pageView = () => {
    if (viewed) return;
    viewed = true;
    void config().then((c) =>
      call("/visitors", { visitor_id: vid(acted || c?.track_before_interaction), page_url: location.href.slice(0, 2000), page_title: cut(D.title, 300), referrer: D.referrer.slice(0, 2000) }),
    );
  };

  const inject = (file: string, failed: () => void) => {
    const s = D.createElement("script");
    s.src = new URL("widget/" + file, script.src).href;
    s.async = true;
    s.addEventListener("error", failed);
    D.head.append(s);
  };

  let panel: PanelApi | null = null;
  let panelLoad: Promise<PanelApi | null> | null = null;
  /** The visitor interacted, or the page says they consented. */
  const consent = () => {
    acted = true;
    if (!store.granted()) store.grant();
    vid(1);
    pageView();
  };
  const boot: Boot = {
    site, api, root, frame, launcher, badge, store, me, config, inject, quiet, consent, vid,
    title: data.title || null,
    locale: data.locale || null,
    sound: data.sound === "on",
    off: () => off,
    label: (text) => launcher.setAttribute("aria-label", text),
  };
  const loadPanel = () =>
    (panelLoad ||= new Promise<PanelApi | null>((done) => {
      Parley._panel = (start: PanelStart) => done((panel = start(boot)));
      inject(__PANEL__, () => {
        panelLoad = null;
        done(null);
      });
    }));

  const toggle = (open: boolean) => {
    if (off) return;
    if (panel) return panel.toggle(open);
    if (open) void loadPanel().then((p) => p?.toggle(true));
  };
  launcher.addEventListener("click", () => {
    consent(); // the visitor's own click
    toggle(!panel?.isOpen());
  });

  const fns: Record<string, (...args: unknown[]) => void> = {
    open: () => toggle(true),
    close: () => toggle(false),
    consent,
    // Kept as given; the panel reads and bounds it (identity.ts).
    identify: (o) => {
      if (o && typeof o === "object") Object.assign(me, o);
      panel?.identified();
    },
  };
  /** [method, args] or arguments-like ['method', ...args] */
  const run = (e: unknown) => {
    try {
      if (!e || typeof e !== "object") return;
      const list = e as ArrayLike<unknown>;
      const fn = typeof list[0] === "string" && Object.prototype.hasOwnProperty.call(fns, list[0]) ? fns[list[0]] : null;
      if (fn) fn(...(Array.isArray(list[1]) ? (list[1] as unknown[]) : Array.prototype.slice.call(list, 1)));
    } catch {
      /* never break the page */
    }
  };
  const early = w.Parley;
  const Parley: ParleyGlobal = Object.assign((m: string, ...a: unknown[]) => run([m, a]), fns, {
    _l: 1 as const,
    q: { push: run } as unknown as unknown[],
  });
  w.Parley = Parley;

  const mount = () => {
    if (!off) (D.body || D.documentElement).append(host);
  };
  if (D.body) mount();
  else D.addEventListener("DOMContentLoaded", mount);
  if (store.granted()) pageView();
  if (early && Array.isArray(early.q)) early.q.forEach(run);

  let resuming = false;
  try {
    resuming = Boolean(store.granted() && (JSON.parse(store.get(key) || "{}") as { c?: string }).c);
  } catch {
    /* unreadable: nothing to resume */
  }
  if (resuming) void loadPanel();
  else if (store.granted()) {
    // On idle after page load, so the first open is instant; never in consent mode before consent.
    const idle = () => (w.requestIdleCallback ? w.requestIdleCallback(() => void loadPanel(), { timeout: 5000 }) : setTimeout(loadPanel, 3000));
    if (D.readyState === "complete") idle();
    else w.addEventListener("load", idle, { once: true });
  }
})();
