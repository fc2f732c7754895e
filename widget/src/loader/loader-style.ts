// The launcher's styles. --a is the brand colour and --af the text colour on it (the site config
// may set both); the panel's theme is in panel-style.ts.
export const LAUNCHER_CSS = `:host{all:initial}
.r{--a:#1f56c8;--af:#fff;--lk:#1a4fb8;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
*{box-sizing:border-box}
[hidden]{display:none!important}
button{font:inherit;color:inherit;margin:0;cursor:pointer}
:focus-visible{outline:2px solid var(--lk);outline-offset:2px}
svg{display:block;width:28px;height:28px}
.l{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border:0;border-radius:28px;background:var(--a);color:var(--af);display:grid;place-items:center;box-shadow:0 4px 14px #0003;transition:transform .15s}
.l:hover{transform:scale(1.06)}
.l:focus-visible{outline-width:3px;outline-offset:3px}
.o .i1,.r:not(.o) .i2{display:none}
[data-label]{width:auto;padding:0 16px;grid-auto-flow:column;gap:8px}
.r:not(.o) [data-label]::after{content:attr(data-label)}
.bg{position:absolute;top:-3px;right:-3px;min-width:20px;padding:0 6px;border-radius:10px;background:#c4251c;color:#fff;font-size:12px;font-weight:700;line-height:20px}
[dir=rtl] .l,.L .l{right:auto;left:20px}
@media (max-width:480px){.o .l{display:none}}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}`;
