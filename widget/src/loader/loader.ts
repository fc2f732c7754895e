/*! Parley chat widget: Parley.open(), .close(), .identify({name, email, user_id, user_hash}), .consent(), .openArticle(id), .searchArticles(q) */
// The loader (public/widget.js, the bundle of widget/src/loader/): the launcher, a queue for early
// calls, the page view and the site config. The panel (public/widget/panel-<hash>.js) loads on first open, on idle after page
// load, or at once when a conversation is being resumed.
import { isHexColor, textOn } from "../shared/brand";
import { createStore } from "./store";
import { cut } from "../shared/cut";
import { LAUNCHER_CSS } from "./loader-style";
import { StateKey, type ConversationState } from "../shared/state";
import type { ParleyGlobal, ParleyWindow } from "../shared/global";
import type { Boot, PanelApi, PanelStart, SiteConfig } from "../shared/types";

declare const __PANEL__: string;

(() => {
  const doc = document;
  const win = window as ParleyWindow;
  if (win.Parley?._l) return; // loaded twice
  const script = (doc.currentScript || doc.querySelector("script[data-site][src*='widget']")) as HTMLScriptElement | null;
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

  const host = doc.createElement("parley-chat");
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
    const style = doc.createElement("style");
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
      async (response) => {
        refuse(response.status);
        return response.ok ? ((await response.json()) as { result: unknown }).result : null;
      },
      () => null,
    );
  let configLoad: Promise<SiteConfig | null> | null = null;
  const config = () =>
    (configLoad ||= (call("/config") as Promise<SiteConfig | null>).then((siteConfig) => {
      if (siteConfig) {
        if (isHexColor(siteConfig.brand_color)) {
          frame.style.cssText = "--a:" + siteConfig.brand_color + ";--af:" + textOn(siteConfig.brand_color); // the frame's only inline style
        }
        if (siteConfig.position === "left") frame.classList.add("L");
        if (siteConfig.launcher_label) launcher.dataset.label = siteConfig.launcher_label; // not data-t: that names a string to translate (shared/dom.ts)
      }
      return siteConfig;
    }));

  // The browser's visitor id links page views and conversations. Privacy first: it is made and
  // stored only once the visitor interacts (or the page calls Parley.consent()), unless the site
  // tracks before interaction; page views before that count but link to no one.
  let acted = false;
  const vid = (make?: unknown) => {
    let id = store.get(key + ":vid");
    if (!id && make) store.set(key + ":vid", (id = crypto.randomUUID?.() || String(Math.random()).slice(2)));
    return id || undefined;
  };
  let viewed = false;
  const pageView = () => {
    if (viewed) return;
    viewed = true;
    void config().then((siteConfig) =>
      call("/visitors", { visitor_id: vid(acted || siteConfig?.track_before_interaction), page_url: location.href.slice(0, 2000), page_title: cut(doc.title, 300), referrer: doc.referrer.slice(0, 2000) }),
    );
  };

  const inject = (file: string, failed: () => void) => {
    const tag = doc.createElement("script");
    tag.src = new URL("widget/" + file, script.src).href;
    // a script inserted by script is async already (its "non-blocking" flag): nothing waits for it
    tag.addEventListener("error", failed);
    doc.head.append(tag);
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
    site, api, route: widgetRoute, root, frame, launcher, badge, store, me, config, inject, quiet, consent, vid,
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
    if (open) void loadPanel().then((loaded) => loaded?.toggle(true));
  };
  launcher.addEventListener("click", () => {
    consent(); // the visitor's own click
    toggle(!panel?.isOpen());
  });

  /** Parley.openArticle(id), Parley.searchArticles(q): the panel opens on them (it checks the value). */
  const article = (search: boolean) => (value: unknown) => void loadPanel().then((loaded) => loaded?.article(search, value));
  const methods: Record<string, (...args: unknown[]) => void> = {
    open: () => toggle(true),
    close: () => toggle(false),
    consent,
    openArticle: article(false),
    searchArticles: article(true),
    // Kept as given; the panel reads and bounds it (identity.ts).
    identify: (given) => {
      if (given && typeof given === "object") Object.assign(me, given);
      panel?.identified();
    },
  };
  /** [method, args] or arguments-like ['method', ...args] */
  const run = (queued: unknown) => {
    try {
      const list = queued as ArrayLike<unknown>; // null throws into the catch; a string or number names no method
      const method = typeof list[0] === "string" && Object.hasOwn(methods, list[0]) ? methods[list[0]] : null;
      if (method) method(...(Array.isArray(list[1]) ? (list[1] as unknown[]) : [].slice.call(list, 1)));
    } catch {
      /* never break the page */
    }
  };
  const early = win.Parley;
  const Parley: ParleyGlobal = Object.assign((name: string, ...args: unknown[]) => run([name, args]), methods, {
    _l: 1 as const,
    q: { push: run } as unknown as unknown[],
  });
  win.Parley = Parley;

  const mount = () => {
    if (!off) (doc.body || doc.documentElement).append(host);
  };
  if (doc.body) mount();
  else doc.addEventListener("DOMContentLoaded", mount);
  if (store.granted()) pageView();
  if (early && Array.isArray(early.q)) early.q.forEach(run);

  let resuming = false;
  try {
    resuming = Boolean(store.granted() && (JSON.parse(store.get(key) || "{}") as ConversationState)[StateKey.ConversationId]);
  } catch {
    /* unreadable: nothing to resume */
  }
  if (resuming) void loadPanel();
  else if (store.granted()) {
    // On idle after page load, so the first open is instant; never in consent mode before consent.
    const idle = () => (win.requestIdleCallback ? win.requestIdleCallback(() => void loadPanel(), { timeout: 5000 }) : setTimeout(loadPanel, 3000));
    if (doc.readyState === "complete") idle();
    else win.addEventListener("load", idle, { once: true });
  }
})();
