// @ts-check
import { processSingleton } from "./process-registry.mjs";

// Where the front of `npm start` (scripts/start.mjs, lib/runtime/) and the app Next loads
// meet, in one process. Next bundles the app's modules apart from the front's (and may load a
// module more than once), so the meeting point is one object per process (process-registry.mjs).
//
// - The app hands over what the front needs (instrumentation.ts calls `provideApp` once the
//   service is prepared); the front awaits `appProvided()` before it listens.
// - On SIGTERM/SIGINT the front calls `startDraining()`: /api/ready answers 503, held long-polls
//   answer at once (lib/realtime/message-signals.ts listens through `onDrain`).
// - Work that outlives its request (lib/http/after-response.ts) is awaited before the app closes.

/**
 * @typedef {import("./reply-handlers.mjs").HotRoutes} HotRoutes
 * @typedef {{ hotRoutes: HotRoutes, close: () => Promise<void> }} ProvidedApp
 *   `close` ends what the app holds open (notification worker, LISTEN connections, database)
 * @typedef {{ app: Promise<ProvidedApp>, provide: (app: ProvidedApp) => void, draining: boolean, drainListeners: Set<() => void>, work: Set<Promise<unknown>>, stopRequested: boolean }} Lifecycle
 */

const state = processSingleton("lifecycle", createLifecycle);

/** @returns {Lifecycle} */
function createLifecycle() {
  /** @type {(app: ProvidedApp) => void} */
  let provide = () => {};
  /** @type {Promise<ProvidedApp>} */
  const app = new Promise((resolve) => (provide = resolve));
  return { app, provide, draining: false, drainListeners: new Set(), work: new Set(), stopRequested: false };
}

/**
 * A stop was asked for while the service was still starting (SIGTERM during migrations): the
 * migration step in progress finishes (or rolls back), no further step begins (lib/db/migrations.ts),
 * and the front stops once the start has unwound (scripts/start.mjs).
 */
export function requestStop() {
  state.stopRequested = true;
}

export function stopRequested() {
  return state.stopRequested;
}

/**
 * Called by the app once it is ready to serve (instrumentation.ts).
 * @param {ProvidedApp} app
 */
export function provideApp(app) {
  state.provide(app);
}

/** Resolves with what the app handed over (the front of `npm start`). */
export function appProvided() {
  return state.app;
}

/** The process is shutting down: readiness fails, and nothing new waits. Idempotent. */
export function startDraining() {
  if (state.draining) return;
  state.draining = true;
  for (const listener of state.drainListeners) listener();
}

export function isDraining() {
  return state.draining;
}

/**
 * Calls `listener` when draining starts (at once if it has). Returns the unsubscribe.
 * @param {() => void} listener
 * @returns {() => void}
 */
export function onDrain(listener) {
  if (state.draining) {
    listener();
    return () => {};
  }
  state.drainListeners.add(listener);
  return () => void state.drainListeners.delete(listener);
}

/**
 * Work begun by a request that outlives its answer: a shutdown waits for it before closing the
 * database under it.
 * @param {Promise<unknown>} work
 */
export function holdShutdownFor(work) {
  const pending = state.work;
  /** @type {Promise<unknown>} */
  const settled = work.then(
    () => pending.delete(settled),
    () => pending.delete(settled),
  );
  pending.add(settled);
}

/** Resolves once all work held by `holdShutdownFor` (now and meanwhile) has settled. */
export async function pendingWorkSettled() {
  const pending = state.work;
  while (pending.size > 0) await Promise.all([...pending]);
}
