import { describe, expect, test } from "vitest";
import { familyOf, pathOf, routes } from "../../lib/openapi/operation";

// An operation's method, path and family come from its route file's folder and its method
// (lib/openapi/operation.ts), never written on the operation.

describe("routes()", () => {
  test("a route folder becomes the OpenAPI path: [param] is {param}", () => {
    expect(pathOf("v1/inbox/conversations/[id]/messages")).toBe("/api/v1/inbox/conversations/{id}/messages");
    expect(pathOf("v1/chat/widget/[siteID]/articles/[id]/feedback")).toBe("/api/v1/chat/widget/{siteID}/articles/{id}/feedback");
    expect(pathOf("health")).toBe("/api/health");
  });

  test("the family follows the part of the API the path is in", () => {
    expect(familyOf("/api/v1/chat/widget/{siteID}/conversations")).toBe("widget");
    expect(familyOf("/api/v1/chat/visitor/messages")).toBe("visitor");
    expect(familyOf("/api/v1/admin/sites")).toBe("admin");
    expect(familyOf("/api/v1/inbox/audit.csv")).toBe("inbox");
    expect(familyOf("/api/v1/uploads/{attachmentId}")).toBe("upload");
    expect(familyOf("/api/v1/cron/dispatch")).toBe("cron");
    expect(familyOf("/api/v1/inbound/email")).toBe("inbound");
    expect(familyOf("/api/health")).toBe("probe");
  });

  test("a path in no family is refused, not guessed", () => {
    expect(() => familyOf("/api/v1/email/unsubscribe")).toThrow(/No API family/);
    expect(() => familyOf("/api/healthz")).toThrow(/No API family/);
  });

  test("each method of each folder becomes one operation, in the order written", () => {
    const listed = routes({
      "v1/inbox/teams": { GET: { summary: "list", answers: {} }, POST: { summary: "create", answers: {} } },
      "v1/admin/search": { GET: { summary: "search", answers: {} } },
    });
    expect(listed.map(({ method, path, family, summary }) => [method, path, family, summary])).toEqual([
      ["GET", "/api/v1/inbox/teams", "inbox", "list"],
      ["POST", "/api/v1/inbox/teams", "inbox", "create"],
      ["GET", "/api/v1/admin/search", "admin", "search"],
    ]);
  });
});
