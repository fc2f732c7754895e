// @ts-check
/*! Parley chat widget. Parley.open(), .close(), .identify({name, email}) */
(() => {
  'use strict';
  const D = document;
  const S = /** @type {HTMLScriptElement|null} */ (D.currentScript || D.querySelector('script[data-site][src*="widget"]'));
  /** @type {any} */
  const W = window;
  if (W.Parley && W.Parley._l) return; // loaded twice
  const site = S && S.dataset.site;
  if (!S || !site) return console.warn('Parley: the widget script needs a data-site attribute.');
  const API = (S.dataset.api || new URL(S.src || '/', location.href).origin).replace(/\/+$/, '');
  const WR = API + '/api/v1/chat/widget/' + encodeURIComponent(site);
  const V = '/api/v1/chat/visitor';
  const KEY = 'parley:' + site;
  const TITLE = S.dataset.title || 'Chat with us';
  const ENDED = 'This conversation has ended. Send a message to start a new one.';

  /** @typedef {{sequence:number, conversation_id:string, client_id:string, author_id:string, author_type:string, body:string, created_at:string, author_name:string|null, author_avatar:string|null}} Msg */
  /** @typedef {{ok:boolean, status:number, code?:string, result:any, message?:string, ra:number}} Res */
  /** @typedef {{t?:string|null, x?:number, c?:string|null, s?:number, o?:number, e?:number}} St  token, expiry ms, conversation, last seen sequence, offline, ended */

  /** @param {()=>void} f @param {number} ms @returns {number} */
  const later = (f, ms) => W.setTimeout(f, ms);
  const now = () => Date.now();
  /** @param {string} k @param {string} [v] @returns {string|null} */
  const store = (k, v) => {
    try {
      if (v == null) return localStorage.getItem(k);
      localStorage.setItem(k, v);
      return v;
    } catch (_) { return null; } // storage blocked: keep state in memory only
  };
  /** @returns {St} */
  const read = () => { try { return JSON.parse(store(KEY) || '{}') || {}; } catch (_) { return {}; } };
  const rid = () => typeof crypto.randomUUID == 'function' ? crypto.randomUUID() : crypto.getRandomValues(new Uint32Array(4)).join('-');
  /** @template {keyof HTMLElementTagNameMap} K @param {K} tag @param {string} [cls] @param {string} [text] @returns {HTMLElementTagNameMap[K]} */
  const h = (tag, cls, text) => {
    const e = D.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  };
  let warned = 0;
  const quiet = () => { if (!warned++) console.warn('Parley: site "' + site + '" is not available on ' + location.origin); };

  const NO = /** @type {Res} */ ({ ok: false, status: 0, result: null, ra: 0 });
  /** Never throws: a network or CORS failure is status 0.
   * @param {string} method @param {string} url @param {any} [body] @param {Record<string,string>} [hd] @param {AbortSignal} [signal] @returns {Promise<Res>} */
  async function req(method, url, body, hd = {}, signal) {
    if (body !== undefined) hd['Content-Type'] = 'application/json';
    try {
      const r = await fetch(url, { method, headers: hd, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store', signal });
      /** @type {any} */
      let j = {};
      try { j = (await r.json()) || {}; } catch (_) { /* not JSON */ }
      return {
        ok: r.ok && j.success !== false, status: r.status, code: j.result && j.result.code, result: j.result, message: j.message,
        ra: +(r.headers.get('Retry-After') || 0) || 0,
      };
    } catch (_) { return NO; }
  }

  let st = read();
  const save = () => { const j = JSON.stringify(st); if (j !== store(KEY)) store(KEY, j); moved(); };
  const me = { name: '', email: '' };
  // hold: no polling before (Retry-After); gen: one per conversation, orders rows
  let hold = 0, rn = 0, cur = 0, gen = 0, off = 0;
  /** @type {Promise<void>|null} */
  let renewing = null;
  /** @type {number[]} */
  let inc = []; // for the unread badge

  /** With the token, renewed when under an hour is left.
   * @param {string} m @param {string} path @param {any} [body] @param {AbortSignal} [sg] the long-poll's @returns {Promise<Res>} */
  async function vcall(m, path, body, sg) {
    if (st.t && (st.x || 0) - now() < 36e5) await renew();
    for (let i = 0; i < 2; i++) {
      const t = st.t;
      if (!t || off) break;
      if (sg) ht = t;
      const r = await req(m, API + path, body, { Authorization: 'Bearer ' + t }, sg);
      if (r.status === 429 || r.status === 503) hold = now() + (r.ra || 5) * 1e3;
      if (r.status !== 401 && r.status !== 403) return r;
      adopt(read()); // another tab may have renewed or restarted
      if (st.t === t) {
        if (r.status === 403) quiet();
        forget('Your chat session has ended. Send a message to start a new conversation.');
        return r;
      }
    }
    return NO;
  }

  function renew() {
    return (renewing ||= (async () => {
      const run = async () => {
        adopt(read());
        if (!st.t || (st.x || 0) - now() > 36e5 || now() < rn) return;
        if ((st.x || 0) <= now()) return forget();
        rn = now() + 3e5;
        const r = await req('POST', API + V + '/renew', undefined, { Authorization: 'Bearer ' + st.t });
        if (r.ok && r.result) {
          st.t = r.result.visitor_token;
          st.x = now() + 864e5; // local clock, as at start: immune to skew
          save();
        }
      };
      try {
        // One tab at a time: a second renew of a token gets 401.
        const L = navigator.locks;
        await (L ? L.request(KEY, run) : run());
      } catch (_) { /* keep the current token */ }
      renewing = null;
    })());
  }

  /** @param {string} [note] */
  function forget(note) {
    st = {};
    save();
    TY.textContent = '';
    if (note) sys(note);
  }

  /** Take over what another tab stored. @param {St} o */
  function adopt(o) {
    if (o.c !== st.c) {
      if (o.c) { st = o; newConv(); kick(); }
      else if (st.c) forget('Your chat session has ended. Send a message to start a new conversation.');
    } else if (o.c) {
      if (o.t) { st.t = o.t; st.x = o.x; }
      if ((o.s || 0) > (st.s || 0)) st.s = o.s;
      st.o = o.o;
      st.e = o.e;
      seen();
    }
    moved();
  }

  function newConv() {
    drop();
    gen++;
    cur = 0;
    inc = [];
    EA.hidden = true;
    note();
  }

  const CSS = `:host{all:initial}
.r{--bg:#fff;--fg:#1c1f24;--mu:#595f69;--ln:#dde1e7;--bo:#868c96;--th:#eef0f4;--a:#1f56c8;--lk:#1a4fb8;--er:#b3261e;color-scheme:light;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);text-align:left}
@media (prefers-color-scheme:dark){.r{--bg:#17191d;--fg:#eceef1;--mu:#a9afb9;--ln:#343942;--bo:#6f7682;--th:#272b32;--a:#2f63d6;--lk:#9dbdff;--er:#ff8f87;color-scheme:dark}}
*,::before,::after{box-sizing:border-box}
[hidden]{display:none!important}
button,input,textarea{font:inherit;font-size:14px;color:inherit;margin:0}
button{cursor:pointer}
:focus-visible{outline:2px solid var(--lk);outline-offset:2px}
svg{display:block;width:22px;height:22px}
.l{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border:0;border-radius:50%;background:var(--a);color:#fff;display:grid;place-items:center;box-shadow:0 4px 16px #0005;transition:transform .15s}
.l:hover{transform:scale(1.06)}
.l:focus-visible{outline:3px solid var(--lk);outline-offset:3px}
.l svg{width:26px;height:26px}
.o .i1,.r:not(.o) .i2{display:none}
.bg{position:absolute;top:-3px;right:-3px;min-width:20px;height:20px;padding:0 6px;border-radius:10px;background:#c4251c;color:#fff;font-size:12px;font-weight:700;line-height:20px}
.p{position:fixed;right:20px;bottom:88px;width:376px;height:min(620px,calc(100vh - 108px));display:flex;flex-direction:column;background:var(--bg);border:1px solid var(--ln);border-radius:16px;box-shadow:0 12px 48px #0004;overflow:hidden;animation:pin .18s ease-out}
@keyframes pin{from{opacity:0;transform:translateY(10px)}}
.hd{display:flex;align-items:center;gap:8px;padding:14px 12px 14px 18px;background:var(--a);color:#fff}
.hd div{flex:1;min-width:0}
.ti{font-size:16px;font-weight:700;margin:0}
.su{font-size:13px;margin:2px 0 0}
.ib{flex:none;width:36px;height:36px;border:0;border-radius:8px;background:none;color:#fff;display:grid;place-items:center}
.ib:hover{background:rgba(255,255,255,.16)}
.hd :focus-visible{outline-color:#fff}
.v,.t{flex:1;min-height:0;display:flex;flex-direction:column}
.n{margin:10px 12px 0;padding:8px 12px;border-radius:10px;background:var(--th);font-size:13px}
.ls{flex:1;overflow-y:auto;padding:16px 14px 8px;display:flex;flex-direction:column;gap:12px;overscroll-behavior:contain}
.e0{margin:auto 12px;text-align:center;color:var(--mu)}
.m{display:flex;gap:8px;align-items:flex-end;max-width:88%}
.me{align-self:flex-end;flex-direction:row-reverse}
.sy{align-self:center;max-width:100%}
.av{flex:none;width:30px;height:30px;border-radius:50%;background:var(--ln);display:grid;place-items:center;overflow:hidden;font-size:11px;font-weight:700}
.av img{width:100%;height:100%;object-fit:cover}
.bd{min-width:0;display:flex;flex-direction:column}
.me .bd{align-items:flex-end}
.nm,.mt{font-size:12px;color:var(--mu);margin:0 6px 2px}
.mt{margin:3px 6px 0}
.tx{padding:8px 12px;border-radius:16px;background:var(--th);white-space:pre-wrap;overflow-wrap:anywhere}
.tx a{color:var(--lk)}
.me .tx{background:var(--a);color:#fff}
.me .tx a{color:#fff}
.sy .tx{background:none;padding:0;color:var(--mu);font-size:13px;text-align:center}
.f .mt{color:var(--er)}
.lk{border:0;background:none;padding:0 2px;color:var(--lk);text-decoration:underline;font-size:inherit}
.ty{min-height:22px;padding:0 18px 4px;font-size:12px;color:var(--mu)}
.ea{display:grid;gap:6px;padding:10px 12px;border-top:1px solid var(--ln);font-size:13px}
.rw{display:flex;gap:8px}
.rw input{flex:1;min-width:0}
.c{display:flex;gap:8px;align-items:flex-end;padding:10px 12px;border-top:1px solid var(--ln)}
.c textarea{flex:1;resize:none;height:40px;max-height:120px;padding:9px 14px;line-height:20px;border-radius:20px}
input,textarea{border:1px solid var(--bo);border-radius:8px;padding:8px 10px;background:var(--bg);min-width:0}
.sb{flex:none;width:40px;height:40px;border:0;border-radius:50%;background:var(--a);color:#fff;display:grid;place-items:center}
.sb svg{width:20px;height:20px}
.go{align-self:center;margin:0 0 10px;font-size:13px}
.t{overflow-y:auto;padding:14px 18px 18px;gap:12px}
.t h2{font-size:16px;margin:0}
.t p{margin:0}
.t label{display:grid;gap:4px;font-size:13px;font-weight:600}
.t label input,.t label textarea{font-weight:400;resize:vertical}
.fl{list-style:none;margin:0;padding:0;display:grid;gap:8px;font-size:13px}
.fl li{display:grid;gap:3px;padding:8px 10px;border:1px solid var(--ln);border-radius:8px;overflow-wrap:anywhere}
.fl progress{width:100%;height:6px;accent-color:var(--a)}
.fs{color:var(--mu)}
.bad .fs,.er{color:var(--er)}
.er{font-size:13px}
.er:empty{display:none}
.bt{padding:10px 16px;border:0;border-radius:8px;background:var(--a);color:#fff;font-weight:600}
.st{align-self:start}
.bt:disabled{opacity:.6;cursor:default}
@media (max-width:480px){.p{inset:0;width:auto;height:auto;border:0;border-radius:0}.o .l{display:none}}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`;
  const svg = (/** @type {string} */ c, /** @type {string} */ d) => `<svg class=${c} viewBox="0 0 24 24" aria-hidden=true>${d}</svg>`;
  const X = svg('i2', '<path d="M6 6l12 12M18 6L6 18" stroke=currentColor stroke-width=2.2 stroke-linecap=round />');
  const TYPES = 'image/png image/jpeg image/gif image/webp application/pdf text/plain text/csv application/zip application/msword application/vnd.openxmlformats-officedocument.wordprocessingml.document application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'.split(' ');
  // Static markup only: every user-supplied string is set later with textContent.
  const HTML = `<div class=r id=r>
<button class=l id=l type=button aria-expanded=false aria-controls=p aria-label="Open chat">${svg('i1', '<path fill=currentColor d="M5 3h14a3 3 0 0 1 3 3v9a3 3 0 0 1-3 3H10l-5 4v-4.2A3 3 0 0 1 2 15V6a3 3 0 0 1 3-3z"/>')}${X}<span class=bg id=bg aria-hidden=true hidden></span></button>
<div class=p id=p role=dialog hidden>
<div class=hd><div><p class=ti id=ti></p><p class=su id=su></p></div><button class="ib i2" id=x type=button aria-label="Close chat">${X}</button></div>
<div class=v id=v>
<div class=n id=n role=status hidden></div>
<div class=ls id=ls role=log aria-live=polite aria-label=Messages tabindex=0><p class=e0 id=e0>Hi! How can we help you today?</p></div>
<div class=ty id=ty aria-live=off></div>
<form class=ea id=ea hidden><label for=ee>We're away. Leave your email and we'll reply there.</label><div class=rw><input id=ee type=email required maxlength=254 autocomplete=email placeholder="you@example.com"><button class=bt>Continue</button></div></form>
<form class=c id=c><textarea id=tx rows=1 maxlength=4000 aria-label="Message" placeholder="Write a message…"></textarea><button class=sb aria-label="Send message">${svg('', '<path fill=currentColor d="M3.4 20.4L21 12 3.4 3.6v6.4L16 12 3.4 14z"/>')}</button></form>
<button class="lk go" id=go type=button>Prefer email? Leave a message</button>
</div>
<form class=t id=t hidden>
<button class="lk st" id=bk type=button>← Back to chat</button>
<h2>Leave a message</h2><p>We'll reply by email.</p>
<label>Name<input id=tn maxlength=80 autocomplete=name></label>
<label>Email (required)<input id=te type=email required maxlength=254 autocomplete=email></label>
<label>Subject (required)<input id=ts required maxlength=120></label>
<label>Message (required)<textarea id=tb required maxlength=8000 rows=5></textarea></label>
<label>Attachments (up to 10 files, 10 MB each)<input id=tf type=file multiple accept="${TYPES.join(',')}"></label>
<ul class=fl id=fl></ul>
<p class=er id=er role=alert></p>
<button class=bt id=tsb>Send message</button>
</form>
<div class=t id=dn hidden><h2>Thank you!</h2><p id=dm></p><p class=er id=de role=alert></p><button class="bt st" id=db type=button>Back to chat</button></div>
</div></div>`;

  const host = h(/** @type {any} */ ('parley-chat'));
  // Inline !important beats page rules like `* {display:none !important}`
  host.style.cssText = 'all:initial!important;display:block!important;position:fixed!important;z-index:2147483647!important;right:0!important;bottom:0!important;width:0!important;height:0!important;visibility:visible!important;opacity:1!important';
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = HTML;
  try {
    const sh = new CSSStyleSheet();
    sh.replaceSync(CSS); // constructable sheet: not blocked by a page's style-src CSP
    root.adoptedStyleSheets = [sh];
  } catch (_) {
    root.prepend(h('style', '', CSS));
  }
  /** @param {string} id @returns {any} */
  const $ = (id) => root.getElementById(id);
  const R = $('r'), L = $('l'), P = $('p');
  const LS = $('ls'), TY = $('ty'), N = $('n');
  const EA = $('ea'), EE = $('ee');
  const C = $('c'), TX = $('tx');
  const VW = $('v'), T = $('t'), DN = $('dn');
  const TF = $('tf'), FL = $('fl'), ER = $('er');
  const TSB = $('tsb'), BG = $('bg');
  $('ti').textContent = TITLE;
  P.setAttribute('aria-label', TITLE);

  let isOpen = false;
  const active = () => isOpen && !D.hidden;
  /** @param {boolean} o @param {boolean} [focusLauncher] */
  function toggle(o, focusLauncher) {
    if (off) return;
    isOpen = o;
    P.hidden = !o;
    R.classList.toggle('o', o);
    L.setAttribute('aria-expanded', String(o));
    if (o) {
      (VW.hidden ? $(T.hidden ? 'db' : 'tn') : TX).focus();
      LS.scrollTop = LS.scrollHeight;
      kick();
      presence();
    } else {
      clearTimeout(pT);
      typingOff();
      TY.textContent = '';
      if (focusLauncher || (root.activeElement && root.activeElement !== L)) L.focus();
    }
    seen();
  }
  L.addEventListener('click', () => toggle(!isOpen));
  $('x').addEventListener('click', () => toggle(false, true));
  R.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
    if (e.key === 'Escape' && isOpen) {
      e.stopPropagation();
      toggle(false, true);
    }
  });

  /** @param {string} [text] */
  const note = (text) => {
    text ||= st.o ? "We're offline right now. We'll reply by email" + (me.email ? ' to ' + me.email : '') + '.' : '';
    N.textContent = text;
    N.hidden = !text;
    $('su').textContent = st.o ? "We're away. We'll reply by email." : 'We usually reply within a few minutes.';
  };

  /** @type {Map<string, HTMLElement>} */
  const rows = new Map();
  /** @type {Map<string, string>} */
  const names = new Map();
  /** @type {Map<string, Promise<string|null>>} */
  const pics = new Map();
  /** @type {Map<string, string>} */
  const tags = new Map();

  /** @param {string} text */
  function linkify(text) {
    const el = h('div', 'tx');
    let i = 0;
    for (const m of text.matchAll(/\bhttps?:\/\/[^\s<>"]+/gi)) {
      const u = m[0].replace(/[.,;:!?'")\]}]+$/, '');
      const at = m.index || 0;
      const a = h('a', '', u);
      a.href = u;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      el.append(text.slice(i, at), a);
      i = at + u.length;
    }
    el.append(text.slice(i));
    return el;
  }

  /** @param {string} type @param {string} body @param {string|null} [name] */
  function row(type, body, name) {
    const mine = type === 'visitor', sy = type === 'system';
    const el = h('div', 'm ' + (mine ? 'me' : sy ? 'sy' : 'th'));
    const bd = h('div', 'bd');
    if (!sy) {
      const who = name || (mine ? 'You' : 'Support');
      const av = h('span', 'av', who.split(/\s+/).map((w) => Array.from(w)[0] || '').join('').slice(0, 2).toUpperCase());
      av.setAttribute('aria-hidden', 'true');
      el.append(av);
      bd.append(h('div', 'nm', who));
    }
    bd.append(linkify(body), h('div', 'mt'));
    el.append(bd);
    return el;
  }

  /** Insert by (generation, sequence); rows still unsent stay at the end. @param {HTMLElement} el */
  function place(el) {
    const k = +(el.dataset.k || 0);
    const end = LS.scrollHeight - LS.scrollTop - LS.clientHeight < 80;
    let ref = null;
    if (k) for (const c of /** @type {HTMLElement[]} */ (Array.from(LS.children))) {
      if (c.classList.contains('m') && (!c.dataset.k || +c.dataset.k > k)) { ref = c; break; }
    }
    LS.insertBefore(el, ref);
    $('e0').hidden = true;
    if (end || el.classList.contains('me')) LS.scrollTop = LS.scrollHeight;
  }

  /** @param {string} text */
  function sys(text) {
    const el = row('system', text);
    el.dataset.k = String(gen * 1e9 + 999999999);
    place(el);
  }

  /** @param {HTMLElement} el @param {string} text @param {string} [cls] */
  function status(el, text, cls) {
    el.classList.remove('pd', 'f');
    if (cls) el.classList.add(cls);
    const mt = /** @type {HTMLElement} */ (el.querySelector('.mt'));
    mt.textContent = text;
    return mt;
  }

  /** @param {string} path @param {HTMLElement} av */
  function picture(path, av) {
    if (!/^\/api\/v1\/chat\/visitor\/avatars\/[^/?#]+$/.test(path)) return;
    let p = pics.get(path);
    if (!p) {
      p = vcall('GET', path).then((r) => {
        const x = r.ok && r.result;
        if (!x || !/^image\/(png|jpeg|gif|webp)$/.test(x.content_type) || typeof x.bytes !== 'string') return null;
        const u = tags.get(x.tag) || 'data:' + x.content_type + ';base64,' + x.bytes;
        tags.set(x.tag, u);
        return u;
      });
      pics.set(path, p);
    }
    p.then((u) => {
      if (!u) return;
      const img = h('img');
      img.alt = '';
      img.src = u;
      av.replaceChildren(img);
    });
  }

  /** @param {Msg} m */
  function add(m) {
    if (!m || m.conversation_id !== st.c) return;
    if (m.author_type === 'staff' && m.author_name) names.set(m.author_id, m.author_name);
    let el = rows.get(m.client_id);
    const fresh = !el;
    if (!el) {
      el = row(m.author_type, m.body, m.author_name);
      rows.set(m.client_id, el);
      if (m.author_type !== 'visitor') {
        inc.push(m.sequence);
        TY.textContent = '';
      }
    }
    const ts = new Date(m.created_at);
    status(el, isNaN(+ts) ? '' : ts.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
    if (!el.dataset.k) {
      el.dataset.k = String(gen * 1e9 + m.sequence);
      place(el);
    }
    const av = el.querySelector('.av');
    if (fresh && m.author_avatar && av) picture(m.author_avatar, /** @type {HTMLElement} */ (av));
  }

  function seen() {
    if (active() && cur > (st.s || 0)) {
      st.s = cur;
      save();
    }
    const n = inc.filter((s) => s > (st.s || 0)).length;
    BG.hidden = !n;
    BG.textContent = n > 9 ? '9+' : String(n);
    L.setAttribute('aria-label', (isOpen ? 'Close chat' : 'Open chat') + (n ? ', ' + n + ' unread' : ''));
  }

  let timer = 0, busy = 0, again = 0, fails = 0, hid = 0, ht = '';
  /** @type {AbortController|null} the poll in flight, sent with token ht */
  let held = null;
  const kick = () => { clearTimeout(timer); timer = later(tick, 0); };
  const drop = () => { if (held) held.abort(); }; // tick() then polls anew
  const moved = () => { if (held && ht !== st.t) drop(); }; // token changed

  /** Long-poll while visible (held up to 25 s), short-poll while hidden. @param {AbortSignal} sg */
  async function pollMessages(sg) {
    const g = gen;
    for (;;) {
      const r = await vcall('GET', V + '/messages?cursor=' + cur + '&limit=50' + (D.hidden ? '' : '&wait=25'), undefined, sg);
      if (!r.ok || g !== gen) return r;
      const { items = [], next_cursor: nc, has_more: more } = r.result || {};
      items.forEach(add);
      if (nc > cur) cur = nc;
      seen();
      if (!more || !items.length) return r;
    }
  }

  async function tick() {
    if (busy) return void (again = 1);
    if (!st.t || off || hid) return;
    if (hold > now()) return void (timer = later(tick, hold - now()));
    busy = 1;
    const t0 = now(), a = (held = new AbortController());
    const r = await pollMessages(a.signal);
    busy = 0;
    held = null;
    clearTimeout(timer);
    if (a.signal.aborted) return void (hid || kick());
    fails = r.ok ? 0 : fails + 1;
    if (!st.t) return;
    // Visible: again at once, but at most once a second
    timer = later(tick, again ? 0 : !r.ok ? Math.min(6e4, 2e3 * 2 ** fails) * (1 + Math.random()) / 2 : D.hidden ? 6e4 : t0 + 1e3 - now());
    again = 0;
  }

  let pT = 0, pf = 0, tyT = 0, stopT = 0, sentAt = 0, typingOn = false;
  /** Read others' presence; with a value, also report own typing. @param {boolean} [typing] */
  async function presence(typing) {
    clearTimeout(pT);
    if (!st.t || off) return;
    const r = typing == null && hold > now() ? NO : await vcall('GET', V + '/presence' + (typing == null ? '' : '?typing=' + typing));
    if (r.ok && Array.isArray(r.result)) {
      pf = 0;
      /** @type {string[]} */
      const who = [];
      for (const p of r.result) {
        const n = names.get(p.actor_id) || 'Support';
        if (p.author_type === 'staff' && p.typing && !who.includes(n)) who.push(n);
      }
      TY.textContent = who.length ? who.join(', ') + (who.length > 1 ? ' are' : ' is') + ' typing…' : '';
      clearTimeout(tyT);
      tyT = later(() => { TY.textContent = ''; }, 1e4); // entries live 10 s
    } else pf++;
    if (active() && st.t) pT = later(presence, pf ? Math.min(3e4, 3e3 * 2 ** pf) : 3e3);
  }
  // After a send, look again in a second: staff may start typing at once
  const soon = () => { if (active()) { clearTimeout(pT); pT = later(presence, 1e3); } };
  function typingOff() {
    clearTimeout(stopT);
    if (typingOn) {
      typingOn = false;
      sentAt = 0;
      presence(false);
    }
  }

  let chain = Promise.resolve();
  /** @type {(()=>void)[]} */
  let waiting = [];
  /** Messages go out one at a time, in order. @param {string} text @param {string} cid @param {HTMLElement} el */
  const enqueue = (text, cid, el) => { status(el, 'Sending…', 'pd'); chain = chain.then(() => deliver(text, cid, el)); };

  /** @param {Res} r */
  const why = (r) => r.status === 0 ? "Not sent: can't reach the server." : r.status === 429 ? 'Not sent: too many messages, try again shortly.'
    : r.status === 403 || r.status === 404 ? 'Not sent: chat is unavailable here.' : 'Not sent' + (r.status === 400 && r.message ? ': ' + r.message : '.');

  /** @param {HTMLElement} el @param {string} text @param {string} cid @param {string} msg */
  function fail(el, text, cid, msg) {
    const b = h('button', 'lk', 'Retry');
    b.type = 'button';
    b.addEventListener('click', () => enqueue(text, cid, el)); // same client_id: the server deduplicates
    status(el, msg + ' ', 'f').append(b);
    LS.scrollTop = LS.scrollHeight;
  }

  /** @param {string} text @param {string} cid @param {HTMLElement} el */
  async function deliver(text, cid, el) {
    if (!st.t || st.e) return start(text, cid, el);
    const r = await vcall('POST', V + '/messages', { body: text, client_id: cid });
    if (r.ok && r.result) {
      add(r.result.message);
      kick();
      soon();
    } else if (r.code === 'conversation_closed') {
      st.e = 1; // stored: after a reload too, the next message starts anew
      save();
      sys(ENDED);
      fail(el, text, cid, 'Not sent: the conversation has ended.');
    } else if (!st.t && !off) return start(text, cid, el); // token gone (401, expiry): start afresh
    else fail(el, text, cid, why(r));
  }

  /** @param {string} text @param {string} cid @param {HTMLElement} el */
  async function start(text, cid, el) {
    /** @type {Record<string,string>} */
    const b = { body: text, client_id: cid };
    if (me.name) b.name = me.name;
    if (me.email) b.email = me.email;
    const r = await req('POST', WR + '/conversations', b);
    const x = r.result;
    if (r.ok && x && x.visitor_token) {
      st = { t: x.visitor_token, x: now() + (x.expires_in_seconds || 86400) * 1e3, c: x.conversation_id, s: 0, o: x.offline ? 1 : 0 };
      save();
      newConv();
      status(el, 'Sent');
      kick();
      soon();
    } else if (r.code === 'email_required') {
      status(el, 'Waiting for your email…', 'pd');
      waiting.push(() => enqueue(text, cid, el));
      EA.hidden = false;
      EE.focus();
    } else {
      if (r.status === 403 || r.status === 404) quiet();
      fail(el, text, cid, why(r));
    }
  }

  EA.addEventListener('submit', (/** @type {Event} */ e) => {
    e.preventDefault();
    me.email = EE.value.trim();
    EA.hidden = true;
    const w = waiting;
    waiting = [];
    w.forEach((f) => f());
    TX.focus();
  });

  const grow = () => {
    TX.style.height = '';
    TX.style.height = Math.min(TX.scrollHeight + 2, 120) + 'px';
  };
  C.addEventListener('submit', (/** @type {Event} */ e) => {
    e.preventDefault();
    const text = TX.value.trim();
    if (!text) return;
    TX.value = '';
    grow();
    typingOff();
    const cid = rid();
    const el = row('visitor', text, me.name);
    rows.set(cid, el);
    place(el);
    enqueue(text, cid, el);
  });
  TX.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      C.requestSubmit();
    }
  });
  TX.addEventListener('input', () => {
    grow();
    if (!st.t || st.e) return;
    if (!TX.value) return typingOff();
    clearTimeout(stopT);
    stopT = later(typingOff, 4e3);
    if (now() - sentAt > 3e3) {
      sentAt = now();
      typingOn = true;
      presence(true);
    }
  });

  // Some browsers report no or another type (csv, docx): fall back on the extension
  const EXT = 'png jpe?g gif webp pdf txt csv zip doc docx xlsx'.split(' ');
  /** @param {File} f */
  const ftype = (f) => TYPES.includes(f.type) ? f.type : TYPES[EXT.findIndex((x) => RegExp('\\.(' + x + ')$', 'i').test(f.name))];
  const files = () => Array.from(TF.files || []);
  function checkFiles() {
    const fs = files();
    if (fs.length > 10) return 'You can attach at most 10 files.';
    for (const f of fs) {
      if (!ftype(f)) return `“${f.name}” can't be attached: use images, PDF, text, CSV, ZIP, Word or Excel files.`;
      if (f.size > 10485760) return `“${f.name}” is larger than 10 MB.`;
    }
    return '';
  }
  /** @param {number} n */
  const size = (n) => n < 1048576 ? Math.ceil(n / 1024) + ' KB' : (n / 1048576).toFixed(1) + ' MB';
  /** @type {HTMLLIElement[]} */
  let lis = [];
  TF.addEventListener('change', () => {
    lis = files().map((f) => {
      const li = h('li');
      const pg = h('progress');
      pg.hidden = true;
      pg.setAttribute('aria-label', 'Upload of ' + f.name);
      li.append(h('span', '', f.name + ' · ' + size(f.size)), pg, h('span', 'fs'));
      return li;
    });
    FL.replaceChildren(...lis);
    ER.textContent = checkFiles();
  });
  let ikey = '';
  T.addEventListener('input', () => { ikey = ''; }); // a changed request gets a new Idempotency-Key

  /** PUT with XHR for progress. @param {File} f @param {{upload_url:string, upload_headers?:any}} u @param {HTMLLIElement} li @returns {Promise<boolean>} */
  const put = (f, u, li) => new Promise((done) => {
    const pg = /** @type {HTMLProgressElement} */ (li.querySelector('progress')), fs = /** @type {HTMLElement} */ (li.querySelector('.fs'));
    const x = new XMLHttpRequest();
    /** @param {boolean} ok */
    const end = (ok) => {
      li.classList.toggle('bad', !ok);
      const refused = x.status === 400; // e.g. the bytes do not match the described type
      fs.textContent = ok ? 'Uploaded' : refused ? 'Refused: the file does not match its type.' : 'Upload failed. ';
      pg.hidden = !ok;
      if (ok) pg.value = 1;
      else if (!refused) {
        const b = h('button', 'lk', 'Retry upload');
        b.type = 'button';
        b.addEventListener('click', () => put(f, u, li).then(tally));
        fs.append(b);
      }
      done(ok);
    };
    pg.hidden = false;
    fs.textContent = 'Uploading…';
    li.classList.remove('bad');
    x.open('PUT', u.upload_url);
    x.setRequestHeader('Content-Type', /** @type {string} */ (ftype(f)));
    for (const k in u.upload_headers) x.setRequestHeader(k, u.upload_headers[k]);
    x.upload.addEventListener('progress', (e) => { if (e.lengthComputable) pg.value = e.loaded / e.total; });
    x.addEventListener('load', () => end(x.status >= 200 && x.status < 300));
    x.addEventListener('error', () => end(false));
    x.addEventListener('abort', () => end(false));
    x.send(f);
  });
  const tally = () => {
    const bad = lis.filter((li) => li.classList.contains('bad')).length;
    $('de').textContent = bad ? bad + (bad > 1 ? ' files' : ' file') + ' could not be uploaded.' : '';
  };

  T.addEventListener('submit', async (/** @type {Event} */ e) => {
    e.preventDefault();
    const bad = checkFiles();
    if (bad) return void (ER.textContent = bad);
    const fs = files();
    const val = (/** @type {string} */ id) => $(id).value.trim();
    /** @type {Record<string, any>} */
    const body = { email: val('te'), subject: val('ts'), body: val('tb') };
    if (val('tn')) body.name = val('tn');
    if (fs.length) body.files = fs.map((f) => ({ name: f.name.slice(0, 255), content_type: ftype(f), bytes: f.size }));
    ikey ||= rid(); // a retried submit replays instead of filing twice
    TSB.disabled = true;
    ER.textContent = '';
    const r = await req('POST', WR + '/tickets', body, { 'Idempotency-Key': ikey });
    TSB.disabled = false;
    if (!r.ok || !r.result) {
      if (r.status === 403 || r.status === 404) quiet();
      if (r.code === 'idempotency_conflict') ikey = '';
      ER.textContent = r.status === 0 ? "Can't reach the server. Please try again."
        : r.code === 'daily_allowance_exhausted' ? "We can't take more messages today. Please try again tomorrow."
        : r.status === 429 ? 'Too many attempts. Please wait a minute.'
        : r.status === 400 && r.message ? r.message
        : r.status === 403 || r.status === 404 ? "Messages can't be sent from this site." : 'Something went wrong. Please try again.';
      return;
    }
    /** @type {{name:string, upload_url:string}[]} */
    const ups = r.result.uploads || [];
    $('dm').textContent = 'We received your message' + (r.result.number != null ? ' (request #' + r.result.number + ')' : '') + " and will reply to " + body.email + '.';
    $('de').textContent = '';
    T.hidden = true;
    DN.hidden = false;
    DN.insertBefore(FL, $('de'));
    $('db').focus();
    await Promise.all(fs.map((f, i) => {
      const u = ups[i] && ups[i].name === f.name ? ups[i] : ups.find((x) => x.name === f.name) || ups[i];
      return u ? put(f, u, lis[i]) : false;
    }));
    tally();
  });
  /** @param {boolean} form */
  const view = (form) => {
    VW.hidden = form;
    T.hidden = !form;
    DN.hidden = true;
    (form ? $('tn') : TX).focus();
  };
  $('go').addEventListener('click', () => {
    $('tn').value ||= me.name;
    $('te').value ||= me.email;
    view(true);
  });
  $('bk').addEventListener('click', () => view(false));
  $('db').addEventListener('click', () => {
    T.reset();
    ikey = '';
    lis = [];
    FL.replaceChildren();
    T.insertBefore(FL, ER);
    view(false);
  });

  addEventListener('storage', (e) => { if (e.key === KEY || e.key === null) adopt(read()); });
  D.addEventListener('visibilitychange', () => {
    if (D.hidden) return;
    kick();
    if (isOpen) presence();
    seen();
  });
  // Unload or back/forward cache: free the held connection
  addEventListener('pagehide', () => { hid = 1; drop(); });
  addEventListener('pageshow', () => { hid = 0; kick(); });

  const mount = () => { if (!off) (D.body || D.documentElement).append(host); };
  D.body ? mount() : D.addEventListener('DOMContentLoaded', mount);

  if (st.t && (st.x || 0) <= now()) forget();
  if (st.e) sys(ENDED);
  note();
  kick();

  const vid = store(KEY + ':vid') || store(KEY + ':vid', rid()) || rid();
  req('POST', WR + '/visitors', {
    visitor_id: vid, page_url: location.href.slice(0, 2000), page_title: D.title.slice(0, 300), referrer: D.referrer.slice(0, 2000),
  }).then((r) => {
    if (r.status === 403 || r.status === 404) { // site not allowed here: stay out of the way
      quiet();
      off = 1;
      host.remove();
    }
  });

  /** @param {any} o */
  const identify = (o) => {
    if (!o || typeof o !== 'object') return;
    if (typeof o.name === 'string') me.name = o.name.trim().slice(0, 80);
    if (typeof o.email === 'string') me.email = o.email.trim().slice(0, 254);
    note();
  };
  /** @type {Record<string, Function>} */
  const fns = { open: () => toggle(true), close: () => toggle(false), identify };
  /** [method, args] or arguments-like ['method', ...args] @param {any} e */
  const call = (e) => {
    try {
      if (!e || !fns.hasOwnProperty(e[0])) return;
      fns[e[0]](...(Array.isArray(e[1]) ? e[1] : Array.prototype.slice.call(e, 1)));
    } catch (_) { /* never break the page */ }
  };
  const pre = W.Parley;
  /** @param {string} m @param {...any} a */
  const Parley = (m, ...a) => call([m, a]);
  W.Parley = Object.assign(Parley, fns, { _l: 1, q: { push: call } });
  if (pre && Array.isArray(pre.q)) pre.q.forEach(call);
})();
