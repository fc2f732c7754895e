// The panel's styles (the theme variables and the launcher are the loader's: loader-style.ts).
export const PANEL_CSS = `.r{--bg:#fff;--fg:#1c1f24;--mu:#5b616b;--ln:#e3e6eb;--bo:#868c96;--th:#f1f3f6;--er:#b3261e;color-scheme:light;color:var(--fg);text-align:start}
@media (prefers-color-scheme:dark){.r{--bg:#17191d;--fg:#eceef1;--mu:#a9afb9;--ln:#30353d;--bo:#6f7682;--th:#24282e;--lk:#9dbdff;--er:#ff8f87;color-scheme:dark}}
input,textarea{font:inherit;font-size:14px;color:inherit;margin:0;border:1px solid var(--bo);border-radius:10px;padding:9px 11px;background:var(--bg);min-width:0}
.p svg{width:22px;height:22px}
.p{position:fixed;right:20px;bottom:88px;width:376px;height:min(640px,calc(100vh - 108px));display:flex;flex-direction:column;background:var(--bg);border-radius:18px;box-shadow:0 16px 48px #0003,0 2px 8px #0001,0 0 0 1px #0000000d;overflow:hidden;animation:pin .2s ease-out}
[dir=rtl] .p,.L .p{right:auto;left:20px}
@keyframes pin{from{opacity:0;transform:translateY(12px)}}
.hd{display:flex;align-items:center;gap:10px;padding:16px 10px 16px 20px;background:var(--a);color:var(--af)}
[dir=rtl] .hd{padding:16px 20px 16px 10px}
.hd>div{flex:1;min-width:0}
.ti{font-size:17px;font-weight:700;margin:0;letter-spacing:-.01em}
.su{font-size:13px;margin:2px 0 0}
.ib{flex:none;width:36px;height:36px;border:0;border-radius:10px;background:none;color:inherit;display:grid;place-items:center}
.ib:hover{background:#ffffff29}
.hd :focus-visible{outline-color:currentColor}
.v,.t{flex:1;min-height:0;display:flex;flex-direction:column}
.n{margin:10px 12px 0;padding:9px 12px;border-radius:10px;background:var(--th);font-size:13px}
.ls{flex:1;overflow-y:auto;padding:16px 16px 8px;display:flex;flex-direction:column;gap:2px;overscroll-behavior:contain}
.e0{margin:auto 8px;text-align:center;color:var(--mu);display:grid;justify-items:center;gap:10px}
.e0 p,.gr{font-size:18px;font-weight:700;color:var(--fg);line-height:1.3}
.fc{display:flex;justify-content:center}
.fc .av{width:44px;height:44px;font-size:15px;border:3px solid var(--bg);margin:0 -6px}
.m{display:flex;gap:8px;align-items:flex-start;max-width:86%;margin-top:12px}
.m.g{margin-top:3px}
.me{align-self:flex-end;flex-direction:row-reverse}
.sy{align-self:center;max-width:100%;margin:14px 0 4px}
.av{flex:none;width:28px;height:28px;border-radius:50%;background:var(--ln);color:var(--fg);display:grid;place-items:center;overflow:hidden;font-size:11px;font-weight:700}
.av img{width:100%;height:100%;object-fit:cover}
.me .av{display:none}
.g .av{visibility:hidden;height:0}
.bd{min-width:0;display:flex;flex-direction:column;align-items:flex-start}
.me .bd{align-items:flex-end}
.nm{font-size:12px;color:var(--mu);margin:0 4px 3px}
.mt{font-size:11.5px;color:var(--mu);margin:3px 4px 0}
.mt:empty,.tx:empty,.m.nx:not(.pd):not(.f) .mt{display:none}
.me .nm,.g .nm,.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.tx{padding:9px 13px;border-radius:18px;background:var(--th);white-space:pre-wrap;overflow-wrap:anywhere}
.th .tx{border-top-left-radius:6px}
.th.nx .tx{border-bottom-left-radius:6px}
.me .tx{background:var(--a);color:var(--af);border-top-right-radius:6px}
.me.nx .tx{border-bottom-right-radius:6px}
[dir=rtl] .th .tx{border-radius:18px 6px 18px 18px}
[dir=rtl] .me .tx{border-radius:6px 18px 18px 18px}
.tx a{color:var(--lk)}
.me .tx a{color:inherit}
.tx code{font:12.5px ui-monospace,monospace;padding:1px 4px;border-radius:4px;background:#8882}
.sy .tx{background:var(--th);padding:5px 12px;color:var(--mu);font-size:12.5px;text-align:center;border-radius:12px}
.f .mt{color:var(--er)}
.lk{border:0;background:none;padding:0 2px;color:var(--lk);text-decoration:underline;font-size:inherit}
.ty{display:flex;align-items:center;gap:8px;min-height:26px;padding:0 18px 4px;font-size:12px;color:var(--mu)}
.dt{display:inline-flex;gap:3px;padding:7px 9px;border-radius:12px;background:var(--th)}
.dt i{width:6px;height:6px;border-radius:50%;background:var(--mu);animation:dot 1.2s infinite ease-in-out}
.dt i:nth-child(2){animation-delay:.15s}.dt i:nth-child(3){animation-delay:.3s}
@keyframes dot{0%,60%,100%{transform:none;opacity:.45}30%{transform:translateY(-3px);opacity:1}}
.cl{margin:6px 12px 0;padding:12px 14px;border:1px solid var(--ln);border-radius:12px;display:grid;gap:8px;font-size:13px;text-align:center;max-height:35%;overflow-y:auto}
.cl p{margin:0}
.ea{display:grid;gap:6px;padding:10px 12px;border-top:1px solid var(--ln);font-size:13px}
.rw{display:flex;gap:8px}
.rw input{flex:1;min-width:0}
.c{display:flex;gap:4px;align-items:flex-end;margin:8px 12px 4px;padding:4px;border:1px solid var(--bo);border-radius:22px;background:var(--bg)}
.ab{flex:none;width:36px;height:36px;border-radius:50%;display:grid;place-items:center;color:var(--mu);cursor:pointer}
.ab svg{width:20px;height:20px}
.ab:focus-within{outline:2px solid var(--lk)}
.c:focus-within{border-color:var(--a);box-shadow:0 0 0 1px var(--a)}
.c textarea{flex:1;resize:none;height:36px;max-height:120px;padding:8px 0;line-height:20px;border:0;border-radius:0;background:none;outline:0}
input:focus,.t textarea:focus{outline:2px solid var(--a);outline-offset:-1px}
.sb{flex:none;width:36px;height:36px;border:0;border-radius:50%;background:var(--a);color:var(--af);display:grid;place-items:center}
.sb svg{width:18px;height:18px}
[dir=rtl] .sb svg{transform:scaleX(-1)}
.go{align-self:center;margin:2px 0 10px;font-size:12.5px;color:var(--mu)}
.bt{padding:10px 18px;border:0;border-radius:10px;background:var(--a);color:var(--af);font-weight:600}
.bt:disabled{opacity:.6;cursor:default}
@media (max-width:480px){.p{inset:0;width:auto;height:auto;border-radius:0}}
@media (prefers-reduced-motion:reduce){.dt i{animation:none;opacity:.7}}`;
