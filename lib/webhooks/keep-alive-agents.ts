import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedTarget } from "./target-guard";

// Keep-alive agents for webhook attempts, so that deliveries to one receiver share connections
// instead of paying TCP (and TLS) setup each time. One agent per checked address and name: its
// sockets only ever go to the address the guard checked (the pinned lookup), and TLS (SNI, the
// certificate) is checked against that name.
//
// The number of sockets per agent is not capped beyond the attempts in flight: an attempt queued
// behind others for a socket would spend its timeout (and its hold on the delivery) waiting. Each
// agent keeps as many idle sockets as attempts can be in flight, so a busy receiver's connections
// are reused rather than closed and opened again; idle ones close after IDLE_SOCKET_MS.

/** Webhook attempts in flight per process (lib/webhooks/delivery-loop.ts). */
export const ATTEMPTS_IN_FLIGHT = 64;
const MAX_AGENTS = 64;
const MAX_IDLE_SOCKETS_PER_AGENT = ATTEMPTS_IN_FLIGHT;
// An idle socket is closed after this long, or 1 s before the receiver's own `Keep-Alive: timeout=`
// when it announces a shorter one (Node's agent reads it only when a timeout is set).
const IDLE_SOCKET_MS = 30_000;

const agents = new Map<string, http.Agent>(); // least recently used first

/** The address the guard checked, whatever name the connection asks for. */
export function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

export function agentFor(target: ResolvedTarget): http.Agent {
  const { protocol, port, hostname } = target.url;
  const key = `${protocol}|${target.address}|${port}|${hostname}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    const Agent = protocol === "https:" ? https.Agent : http.Agent;
    agent = new Agent({
      keepAlive: true,
      maxFreeSockets: MAX_IDLE_SOCKETS_PER_AGENT,
      timeout: IDLE_SOCKET_MS,
      lookup: pinnedLookup(target),
    });
  }
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value!;
    agents.delete(oldestKey);
    retire(oldest);
  }
  return agent;
}

/** Closes every kept connection (the worker's shutdown); attempts in flight finish first. */
export function closeWebhookConnections(): void {
  for (const agent of agents.values()) retire(agent);
  agents.clear();
}

/**
 * Closes the agent's idle sockets now and the others as their answers end. Not `destroy()`,
 * which would also cut the attempts still using it.
 */
function retire(agent: http.Agent): void {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets)) {
    for (const socket of sockets ?? []) socket.destroy();
  }
}
