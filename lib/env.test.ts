import { describe, expect, test } from "vitest";
import { parseEnv } from "./env";

describe("the configuration on Vercel", () => {
  const postgres = { DATABASE_URL: "postgresql://db.example/parley", ADMIN_TOKEN: "a-long-enough-admin-token" };

  test("refuses to start without DATABASE_URL: the embedded database would vanish with the function", () => {
    expect(() => parseEnv({ VERCEL: "1", S3_BUCKET: "files" })).toThrow(/DATABASE_URL is required on Vercel/);
  });

  test("refuses to start without S3 storage for ticket files", () => {
    expect(() => parseEnv({ VERCEL: "1", ...postgres })).toThrow(/S3_BUCKET is required on Vercel/);
  });

  test("starts with both", () => {
    expect(parseEnv({ VERCEL: "1", S3_BUCKET: "files", ...postgres }).DATABASE_URL).toBe(postgres.DATABASE_URL);
  });

  test("elsewhere the embedded database and local files are fine", () => {
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
  });
});
