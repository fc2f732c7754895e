import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

// A certificate made for this test run only (no key is committed), for loopback servers that speak
// TLS (the webhook receiver). The global setup makes it and hands it to every test process through
// NODE_EXTRA_CA_CERTS, so clients trust it, and nothing else, with certificate checks left on.

const KEY_FILE = "TEST_TLS_KEY_FILE";
const CERT_FILE = "TEST_TLS_CERT_FILE";

/** Global setup: writes a key and a self-signed certificate for localhost, 127.0.0.1 and ::1 into `folder`. */
export function makeRunCertificate(folder: string): void {
  const keyFile = path.join(folder, "tls-key.pem");
  const certFile = path.join(folder, "tls-cert.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
    "-keyout", keyFile, "-out", certFile,
  ], { stdio: "ignore" });
  Object.assign(process.env, { [KEY_FILE]: keyFile, [CERT_FILE]: certFile, NODE_EXTRA_CA_CERTS: certFile });
}

/** The run's key and certificate, for a server. */
export function runTls(): { key: string; cert: string } {
  const keyFile = process.env[KEY_FILE];
  const certFile = process.env[CERT_FILE];
  if (!keyFile || !certFile) throw new Error("No TLS certificate for this run: tests/support/global-setup.ts makes one.");
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8") };
}
