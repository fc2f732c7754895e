import { afterEach, expect, test } from "vitest";
import { agentFor, closeWebhookConnections } from "./keep-alive-agents";
import type { ResolvedTarget } from "./target-guard";

const target = (url: string, address: string): ResolvedTarget => ({ url: new URL(url), address, family: 4 });

afterEach(() => closeWebhookConnections());

test("one keep-alive agent per protocol, checked address, port and host name", () => {
  const agent = agentFor(target("https://hooks.example/a", "93.184.216.34"));
  expect((agent as typeof agent & { keepAlive: boolean }).keepAlive).toBe(true);
  expect(agentFor(target("https://hooks.example/other-path", "93.184.216.34"))).toBe(agent);
  expect(agentFor(target("https://hooks.example/a", "93.184.216.35"))).not.toBe(agent); // another checked address
  expect(agentFor(target("https://hooks.example:8443/a", "93.184.216.34"))).not.toBe(agent);
  expect(agentFor(target("https://other.example/a", "93.184.216.34"))).not.toBe(agent); // another name for TLS
  expect(agentFor(target("http://hooks.example/a", "93.184.216.34"))).not.toBe(agent);
});

test("at most 64 agents: the least recently used is retired and replaced when needed again", () => {
  const first = agentFor(target("https://hooks.example/", "93.184.216.1"));
  const second = agentFor(target("https://hooks.example/", "93.184.216.2"));
  for (let i = 3; i <= 64; i++) agentFor(target("https://hooks.example/", `93.184.216.${i}`));
  expect(agentFor(target("https://hooks.example/", "93.184.216.1"))).toBe(first); // now the most recent
  agentFor(target("https://hooks.example/", "93.184.216.65")); // the 65th pushes out the least recent: the second
  expect(second.maxFreeSockets).toBe(0); // keeps no socket once its answers end
  expect(first.maxFreeSockets).toBeGreaterThan(0);
  expect(agentFor(target("https://hooks.example/", "93.184.216.2"))).not.toBe(second);
});

test("closing retires every agent", () => {
  const agent = agentFor(target("https://hooks.example/", "93.184.216.34"));
  closeWebhookConnections();
  expect(agent.maxFreeSockets).toBe(0);
  expect(agentFor(target("https://hooks.example/", "93.184.216.34"))).not.toBe(agent);
});
