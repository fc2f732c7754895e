// @ts-check

// What must exist once per process: the database client, the LISTEN connection, the lifecycle,
// the secret the front shares with the handlers, the counters of open streams…
//
// A module-level `const` is not enough. Next loads a module more than once in one process (each
// server bundle — instrumentation, the routes, the pages — gets its own copy, and `next dev`
// reloads them), and `npm start`'s front loads its own copy without Next. So these values live
// in one registry on globalThis, under one Symbol.for key, which every copy of this module finds.
// Nothing else in lib/ puts anything on globalThis.

const KEY = Symbol.for("parley.process");

/** @returns {Map<string, unknown>} */
function registry() {
  const shared = /** @type {{ [KEY]?: Map<string, unknown> }} */ (globalThis);
  return (shared[KEY] ??= new Map());
}

/**
 * The process's one `name`, made by `create` the first time any copy of any module asks for it.
 * Call it at module load for a value used on every request (a lookup per call is a Map lookup).
 * @template T
 * @param {string} name  unique in the process
 * @param {() => T} create
 * @returns {T}
 */
export function processSingleton(name, create) {
  const values = registry();
  if (values.has(name)) return /** @type {T} */ (values.get(name));
  const value = create();
  values.set(name, value);
  return value;
}
