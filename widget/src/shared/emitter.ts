import type { Listener } from "./events";

/** Typed events: `on` adds a listener for one event, `emit` calls its listeners in the order added. */
export interface Emitter<Events> {
  on<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): void;
  emit<Name extends keyof Events>(name: Name, ...payload: Events[Name] extends undefined ? [] : [Events[Name]]): void;
}

export function createEmitter<Events>(): Emitter<Events> {
  const listeners: { [Name in keyof Events]?: Listener<Events[Name]>[] } = {};
  return {
    on: (name, listener) => void (listeners[name] ||= []).push(listener),
    emit: (name, ...payload) => listeners[name]?.forEach((listener) => listener(payload[0] as Events[typeof name])),
  };
}
