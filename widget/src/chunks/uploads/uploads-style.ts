// The uploads chunk's styles: files in messages and the "leave a message" form (panel-style.ts has the rest).
export const UPLOADS_CSS = `.at{display:grid;gap:4px;margin-top:4px;justify-items:inherit}
.at img{display:block;width:200px;height:150px;object-fit:cover;border-radius:12px;background:var(--th)}
.fk{padding:7px 12px;border:1px solid var(--bo);border-radius:12px;background:var(--bg);color:var(--lk);cursor:pointer;max-width:240px;overflow-wrap:anywhere;text-align:start}
.bd progress{width:160px;margin-top:4px}
.t{overflow-y:auto;padding:16px 20px 20px;gap:12px}
.t h2{font-size:17px;margin:0}
.t p{margin:0}
.fd,.fa{display:grid;gap:5px}
.fd label{font-size:13px;font-weight:600}
.t textarea{resize:vertical}
[aria-invalid=true]{border-color:var(--er)}
.fe{font-size:12px;font-weight:400;color:var(--er)}
.fe:empty{display:none}
.fb{justify-self:start;display:inline-flex;align-items:center;gap:6px;padding:7px 12px;border:1px dashed var(--bo);border-radius:10px;font-weight:600;cursor:pointer}
.fb:focus-within{outline:2px solid var(--lk);outline-offset:2px}
.fh{font-weight:400;color:var(--mu);font-size:12px}
.fl{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:6px;font-size:12.5px}
.fl li{position:relative;display:grid;grid-template-columns:1fr auto;align-items:center;gap:2px 6px;flex:1 1 100%;padding:7px 8px 7px 12px;border:1px solid var(--ln);border-radius:10px;background:var(--th);overflow-wrap:anywhere}
.fl .fz{color:var(--mu);white-space:nowrap}
.fl progress{grid-column:1/-1;width:100%;height:4px;accent-color:var(--a)}
.fl .x{grid-row:1;grid-column:2;width:26px;height:26px;border:0;border-radius:50%;background:none;color:var(--mu);font-size:16px;line-height:1}
.fl .x:hover{background:var(--ln)}
.fs{grid-column:1/-1;color:var(--mu)}
.fs:empty{display:none}
.bad{border-color:var(--er)!important}
.bad .fs,.er{color:var(--er)}
.er{font-size:13px}
.er:empty{display:none}
.st{align-self:start}`;
