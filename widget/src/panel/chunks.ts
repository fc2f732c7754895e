import type { ChunkApis } from "../shared/chunk-apis";
import { session } from "../shared/session";
import type { ParleyWindow } from "../shared/global";

// Chunks the panel loads on need (public/widget/<name>-<hash>.js): each registers itself with
// Parley._chunk and imports the shared modules (scripts/build-widget.mjs hands them the panel's
// instances), so nothing of the panel is loaded twice. A chunk that fails to load answers null;
// asked again, it retries.

declare const __CHUNKS__: Record<keyof ChunkApis, string>;

const loads = new Map<string, Promise<unknown>>();
const arrived = new Map<string, (api: unknown) => void>();

export function loadChunk<Name extends keyof ChunkApis>(name: Name): Promise<ChunkApis[Name] | null> {
  let loading = loads.get(name);
  if (!loading) {
    loading = new Promise((done) => {
      const parley = (window as ParleyWindow).Parley;
      if (parley) parley._chunk = (got, api) => arrived.get(got)?.(api);
      arrived.set(name, done);
      session.boot.inject(__CHUNKS__[name], () => {
        loads.delete(name);
        done(null);
      });
    });
    loads.set(name, loading);
  }
  return loading as Promise<ChunkApis[Name] | null>;
}
