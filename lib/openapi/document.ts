import { z } from "zod";
import { statusOfCode, type ErrorCode } from "../core/errors";
import type { Family, Operation } from "./operation";
import { FAMILY_ERRORS, operations } from "./operations";
import { wireSchemas } from "../contracts/wire";

// The OpenAPI 3.1 document of the API, generated from the zod schemas the routes validate with and
// the wire shapes they answer (lib/contracts/wire.ts). Served at /api/v1/openapi.json.

type JsonSchema = Record<string, unknown>;

const COMPONENT = "#/components/schemas/";

/** Security requirements per family (names of components.securitySchemes). */
const SECURITY: Record<Family, Record<string, string[]>[]> = {
  widget: [{ origin: [] }],
  visitor: [{ visitorToken: [], origin: [] }],
  admin: [{ adminToken: [] }],
  upload: [{ uploadSignature: [] }],
  inbox: [{ staffSession: [] }],
  cron: [{ cronSecret: [] }],
  inbound: [{ inboundSecret: [] }],
  probe: [],
};

const TAGS: Record<Family, string> = {
  widget: "Widget",
  visitor: "Visitor",
  admin: "Operator",
  upload: "Uploads",
  inbox: "Inbox",
  cron: "Operations",
  inbound: "Operations",
  probe: "Operations",
};

// For these string checks zod writes a `format` of its own name beside the `pattern` that says the
// same thing. No JSON Schema or OpenAPI format has those names, so every validator and viewer of
// the document would meet an unknown format (ajv logs one line per schema): only the pattern stays.
const ZOD_ONLY_FORMATS = new Set(["starts_with", "ends_with", "includes", "lowercase", "uppercase"]);
const override = ({ jsonSchema }: { jsonSchema: JsonSchema }): void => {
  if (typeof jsonSchema.format === "string" && ZOD_ONLY_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
};

/** Drops the per-schema `$schema` and moves `$defs` of named wire shapes to components. */
function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const converted = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", metadata: wireSchemas, override }) as JsonSchema;
  delete converted.$schema;
  delete converted.$defs; // every $def is a named wire shape, emitted once under components
  return JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', `"${COMPONENT}`)) as JsonSchema;
}

function components(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(wireSchemas, { target: "draft-2020-12", io: "output", unrepresentable: "any", uri: (id) => `${COMPONENT}${id}`, override });
  const named: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
    named[id] = rest;
  }
  named.Error = {
    type: "object",
    required: ["success", "result", "message"],
    properties: {
      success: { const: false },
      result: {
        type: "object",
        required: ["code"],
        properties: {
          code: { type: "string", pattern: "^[a-z_]+$" },
          fields: {
            type: "array",
            description: "validation problems, one per field",
            items: { type: "object", required: ["path", "problem"], properties: { path: { type: "string" }, problem: { type: "string" } } },
          },
        },
      },
      message: { type: "string", maxLength: 256 },
    },
  };
  return named;
}

function envelope(result: JsonSchema | null): JsonSchema {
  return {
    type: "object",
    required: ["success", "result", "message"],
    additionalProperties: false,
    properties: { success: { const: true }, result: result ?? { type: "null" }, message: { type: "string", maxLength: 256 } },
  };
}

function resultSchema(schema: z.ZodType | null): JsonSchema | null {
  if (schema === null) return null;
  const id = wireSchemas.get(schema)?.id;
  return id ? { $ref: `${COMPONENT}${id}` } : toSchema(schema, "output");
}

function parameters(operation: Operation): JsonSchema[] {
  const path = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string", minLength: 1, maxLength: 100 },
  }));
  const query = operation.query ? toSchema(operation.query, "input") : null;
  const queryParams = Object.entries((query?.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
    name,
    in: "query",
    required: ((query?.required ?? []) as string[]).includes(name),
    schema,
  }));
  const headers = (operation.headers ?? []).map((header) => ({ ...header, in: "header", required: false }));
  return [...path, ...queryParams, ...headers];
}

function errorResponses(operation: Operation): Record<string, JsonSchema> {
  const codes = [...new Set<ErrorCode>([...FAMILY_ERRORS[operation.family], ...(operation.errors ?? []), "not_found"])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOfCode[code], [...(byStatus.get(statusOfCode[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, statusCodes]) => [
      String(status),
      {
        description: statusCodes.map((code) => `\`${code}\``).join(", "),
        content: {
          "application/json": {
            schema: {
              allOf: [
                { $ref: `${COMPONENT}Error` },
                { properties: { result: { properties: { code: { enum: statusCodes.sort() } } } } },
              ],
            },
          },
        },
      },
    ]),
  );
}

function operationObject(operation: Operation): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(operation.answers)) {
    responses[status] = {
      description: ({ "201": "Created", "202": "Accepted" } as Record<string, string>)[status] ?? "OK",
      content: { "application/json": { schema: envelope(resultSchema(schema as z.ZodType | null)) } },
    };
  }
  if (operation.rawAnswer) {
    const { status, contentType, description } = operation.rawAnswer;
    const schema = contentType.startsWith("text/") ? { type: "string" } : { type: "string", format: "binary" };
    responses[String(status)] = { description, content: { [contentType]: { schema } } };
  }
  if (operation.redirect) {
    responses["302"] = {
      description: operation.redirect,
      headers: { Location: { description: "Where the browser goes next", schema: { type: "string" } } },
    };
  }
  Object.assign(responses, errorResponses(operation));
  const requestBody = operation.body
    ? { required: true, content: { "application/json": { schema: toSchema(operation.body, "input") } } }
    : operation.rawBody
      ? { required: true, content: Object.fromEntries(operation.rawBody.map((type) => [type, { schema: { type: "string", format: "binary" } }])) }
      : undefined;
  return {
    operationId: operationId(operation),
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [TAGS[operation.family]],
    security: SECURITY[operation.family],
    parameters: parameters(operation),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(operation.extension ? { "x-parley-extension": true } : {}),
  };
}

const operationId = ({ method, path }: Operation) =>
  `${method.toLowerCase()}${path
    .replace(/^\/api(\/v1)?/, "")
    .split("/")
    .filter(Boolean)
    .map((part) => part.replace(/[{}]/g, "").replace(/(^|[-_])(\w)/g, (_, _sep, letter: string) => letter.toUpperCase()))
    .join("")}`;

let built: JsonSchema | undefined;

/** The whole document; built once per process. */
export function openApiDocument(): JsonSchema {
  if (built) return built;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = operationObject(operation);
  }
  built = {
    openapi: "3.1.1",
    info: {
      title: "Parley API",
      version: "1",
      description:
        "The visitor chat service (`/api/v1/chat`), the operator API (`/api/v1/admin`) and the service's own routes. " +
        "Every JSON answer is the envelope `{success, result, message}`. Operations marked `x-parley-extension` are not in the visitor-service spec. " +
        "Prose, examples and choices: docs/api.md.",
    },
    tags: Object.values(TAGS).map((name) => ({ name })),
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        origin: { type: "apiKey", in: "header", name: "Origin", description: "Exactly one of the site's allowlisted origins (the browser sets it)." },
        visitorToken: { type: "http", scheme: "bearer", description: "The visitor token from the start or renew reply (`vt_…`), bound to its Origin." },
        adminToken: { type: "http", scheme: "bearer", description: "The operator token, ADMIN_TOKEN." },
        cronSecret: { type: "http", scheme: "bearer", description: "CRON_SECRET, which Vercel Cron sends; while it is unset every request is refused." },
        inboundSecret: { type: "http", scheme: "bearer", description: "INBOUND_EMAIL_SECRET, which a provider forwarding raw MIME sends; while it is unset every request is refused." },
        staffSession: {
          type: "apiKey",
          in: "cookie",
          name: "parley_session",
          description: "The inbox's session cookie (sign in at /inbox/sign-in); state changes also need Origin equal to PUBLIC_URL's.",
        },
        uploadSignature: { type: "apiKey", in: "query", name: "signature", description: "The signed upload URL from the ticket reply is the credential." },
      },
    },
  };
  return built;
}
