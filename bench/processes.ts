import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { send } from "./load";

// Starting servers for the bench and watching their memory.

export function startProcess(command: string, args: string[], env: Record<string, string>, logTo?: (line: string) => void): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const forward = (data: Buffer) => logTo?.(data.toString());
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  return child;
}

export async function waitForHttp(port: number, timeoutMs = 60_000): Promise<void> {
  const agent = new http.Agent();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await send(port, { method: "GET", path: "/api/v1/ready-check" }, agent);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing answered on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Resident set size of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

/** Samples RSS every 250 ms; `stop()` returns the peak and the samples with their times. */
export function watchMemory(pid: number) {
  const samples: { at: number; mib: number }[] = [];
  const startedAt = Date.now();
  const timer = setInterval(() => samples.push({ at: Date.now() - startedAt, mib: rssMiB(pid) }), 250);
  return {
    stop() {
      clearInterval(timer);
      const peak = samples.reduce((max, sample) => Math.max(max, sample.mib), 0);
      return { peak, samples };
    },
  };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
