import { boot } from "./session";
import type { ParleyWindow } from "./types";
import type { Hours } from "./hours";
import type { Rating } from "./rating";
import type { Uploads } from "./uploads";

// Chunks the panel loads on need (public/widget/<name>-<hash>.js): each registers itself with
// Parley._chunk and imports the panel's own modules (scripts/build-widget.mjs shares them), so
// nothing of the panel is loaded twice. A chunk that fails to load answers null; asked again, it retries.

declare const __CHUNKS__: { uploads: string; rating: string; hours: string };

export interface ChunkApis {
  uploads: Uploads;
  rating: Rating;
  hours: Hours;
}

const loads = new Map<string, Promise<unknown>>();
const arrived = new Map<string, (api: unknown) => void>();

export function loadChunk<K extends keyof ChunkApis>(name: K): Promise<ChunkApis[K] | null> {
  let p = loads.get(name);
  if (!p) {
    p = new Promise((done) => {
      const parley = (window as ParleyWindow).Parley;
      if (parley) parley._chunk = (got, api) => arrived.get(got)?.(api);
      arrived.set(name, done);
      boot.inject(__CHUNKS__[name], () => {
        loads.delete(name);
        done(null);
      });
    });
    loads.set(name, p);
  }
  return p as Promise<ChunkApis[K] | null>;
}
