// The answers chunk's styles (panel-style.ts has the rest): "Talk to a person", a bot answer's
// sources, the suggested articles over the composer and an article read inside the panel.
export const ANSWERS_CSS = `.ho{align-self:center;margin:4px 0 2px;font-size:12.5px;color:var(--mu)}
.ho p{margin:0}
.src{font-size:12px;margin-top:4px;color:var(--mu)}
.src a{color:var(--lk);margin-inline-end:8px}
.sg{margin:6px 12px 0;padding:8px 0 4px;border:1px solid var(--ln);border-radius:12px;max-height:45%;overflow-y:auto}
.sg h2{margin:0 12px 4px;font-size:12px;font-weight:600;color:var(--mu)}
.sg ul{list-style:none;margin:0;padding:0}
.sg button{display:block;width:100%;padding:7px 12px;border:0;background:none;color:inherit;text-align:start;font-size:13px;cursor:pointer}
.sg button:hover,.sg button:focus-visible{background:var(--th)}
.sg b{display:block;color:var(--lk)}
.sg span{display:block;color:var(--mu);font-size:12px;overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.sg mark{background:none;color:var(--fg);font-weight:600}
.aw{flex:1;min-height:0;overflow-y:auto;padding:12px 20px 20px;display:flex;flex-direction:column;gap:10px;font-size:14px;line-height:1.5}
.aw>.lk{align-self:start;font-size:13px}
.aw article>h2{font-size:19px;margin:0;line-height:1.3}
.ak{overflow-wrap:anywhere}
.ak h2{font-size:15px;margin:18px 0 4px}
.ak h3{font-size:14px;margin:14px 0 4px}
.ak p{margin:8px 0}
.ak img{max-width:100%;height:auto}
.ak a{color:var(--lk)}
.ak pre{overflow-x:auto;padding:8px;border-radius:8px;background:var(--th)}
.ak blockquote{margin:0;padding-inline-start:12px;border-inline-start:3px solid var(--ln);color:var(--mu)}
.fbk{display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding-top:10px;border-top:1px solid var(--ln);font-size:13px}
.fbk p{margin:0}
.fbk button{padding:4px 12px;border:1px solid var(--bo);border-radius:999px;background:none;color:inherit}
.nh{display:grid;justify-items:start;gap:8px;font-size:13px}
.nh p{margin:0}`;
