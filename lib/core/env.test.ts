import { describe, expect, test } from "vitest";
import { parseEnv } from "./env";

describe("the configuration on Vercel", () => {
  const postgres = {
    DATABASE_URL: "postgresql://db.example/parley",
    ADMIN_TOKEN: "a-long-enough-admin-token",
    SECRET_KEY: "a-secret-key-of-at-least-32-characters",
  };

  test("refuses to start without DATABASE_URL: the embedded database would vanish with the function", () => {
    expect(() => parseEnv({ VERCEL: "1", S3_BUCKET: "files" })).toThrow(/DATABASE_URL is required on Vercel/);
  });

  test("refuses to start without S3 storage for ticket files", () => {
    expect(() => parseEnv({ VERCEL: "1", ...postgres })).toThrow(/S3_BUCKET is required on Vercel/);
  });

  test("refuses to start without SECRET_KEY: a key file on the function's disk would vanish", () => {
    expect(() => parseEnv({ VERCEL: "1", S3_BUCKET: "files", ...postgres, SECRET_KEY: "" })).toThrow(/SECRET_KEY is required on Vercel/);
  });

  test("starts with both", () => {
    expect(parseEnv({ VERCEL: "1", S3_BUCKET: "files", ...postgres }).DATABASE_URL).toBe(postgres.DATABASE_URL);
  });

  test("elsewhere the embedded database and local files are fine", () => {
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
  });
});

describe("SECRET_KEY and SECRET_KEYS_OLD", () => {
  test("old keys are a comma-separated list, each as long as a key must be", () => {
    const key = (letter: string) => letter.repeat(32);
    expect(parseEnv({ SECRET_KEY: key("a"), SECRET_KEYS_OLD: ` ${key("b")} ,${key("c")}` }).SECRET_KEYS_OLD).toEqual([key("b"), key("c")]);
    expect(parseEnv({}).SECRET_KEYS_OLD).toEqual([]);
    expect(() => parseEnv({ SECRET_KEY: "short" })).toThrow(/SECRET_KEY must be at least 32 characters/);
    expect(() => parseEnv({ SECRET_KEYS_OLD: `${key("b")},short` })).toThrow(/SECRET_KEYS_OLD/);
  });
});

describe("WEBHOOK_ALLOWED_TARGETS", () => {
  test("takes host names and CIDRs (IPv4 and IPv6), separated by commas", () => {
    const { WEBHOOK_ALLOWED_TARGETS } = parseEnv({ WEBHOOK_ALLOWED_TARGETS: " n8n , Hooks.Corp.Example,10.0.0.0/8, fd00::/8,192.168.1.20" });
    expect(WEBHOOK_ALLOWED_TARGETS).toEqual({
      names: ["n8n", "hooks.corp.example"],
      ranges: [
        { network: "10.0.0.0", prefix: 8, family: "ipv4" },
        { network: "fd00::", prefix: 8, family: "ipv6" },
        { network: "192.168.1.20", prefix: 32, family: "ipv4" },
      ],
    });
  });

  test("is empty when unset", () => {
    expect(parseEnv({}).WEBHOOK_ALLOWED_TARGETS).toEqual({ names: [], ranges: [] });
  });

  test.each(["10.0.0.0/33", "fd00::/129", "hooks.example.com/24", "*.corp.example", "https://hooks.corp.example", "hooks.corp.example.", "a..b", "10.0.0.0/8,,n8n", "[::1]"])(
    "a bad entry (%s) stops the start with a message naming the variable",
    (value) => {
      expect(() => parseEnv({ WEBHOOK_ALLOWED_TARGETS: value })).toThrow(/WEBHOOK_ALLOWED_TARGETS .*not a host name or a CIDR/);
    },
  );
});

describe("replies by email", () => {
  test("the reply domain is a domain name, kept in lower case", () => {
    expect(parseEnv({ MAIL_REPLY_DOMAIN: "Reply.Acme.Example" }).MAIL_REPLY_DOMAIN).toBe("reply.acme.example");
    expect(() => parseEnv({ MAIL_REPLY_DOMAIN: "r+x@acme.example" })).toThrow(/MAIL_REPLY_DOMAIN must be a domain name/);
  });

  test("the listener needs the reply domain, a port in range, and its certificate and key together", () => {
    expect(() => parseEnv({ INBOUND_SMTP_PORT: "2525" })).toThrow(/MAIL_REPLY_DOMAIN is required when INBOUND_SMTP_PORT is set/);
    expect(() => parseEnv({ MAIL_REPLY_DOMAIN: "reply.acme.example", INBOUND_SMTP_PORT: "70000" })).toThrow(/INBOUND_SMTP_PORT/);
    expect(() => parseEnv({ INBOUND_SMTP_TLS_CERT: "/etc/cert.pem" })).toThrow(/INBOUND_SMTP_TLS_KEY must be set together/);
    expect(parseEnv({ MAIL_REPLY_DOMAIN: "reply.acme.example", INBOUND_SMTP_PORT: "2525" }).INBOUND_SMTP_PORT).toBe(2525);
  });

  test("the route's secret has a minimum length", () => {
    expect(() => parseEnv({ INBOUND_EMAIL_SECRET: "short" })).toThrow(/INBOUND_EMAIL_SECRET must be at least 16 characters/);
  });
});
