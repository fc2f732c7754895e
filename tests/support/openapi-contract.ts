import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../lib/openapi/document";

// Every answer the integration suite receives through tests/support/api.ts is checked against the
// OpenAPI document: the status must be documented for that operation, and the body must match its
// schema. A service that starts answering something else fails the test that saw it.

type JsonSchema = Record<string, unknown>;
interface Compiled {
  pattern: RegExp;
  template: string;
  method: string;
  responses: Map<string, ValidateFunction | null>;
}

let compiled: Compiled[] | undefined;

/** Compiles the answer schemas of every operation; `logger` receives what ajv says meanwhile (tests). */
export function compileContract(logger?: Options["logger"]): Compiled[] {
  const document = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: JsonSchema }>; headers?: JsonSchema }> }>>; components: { schemas: JsonSchema } };
  const ajv = new Ajv2020({ strict: false, allErrors: true, ...(logger ? { logger } : {}) });
  addFormats.default(ajv);
  ajv.addFormat("base64", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/); // zod's z.base64()
  ajv.addSchema({ $id: "parley-openapi", components: document.components }, "parley-openapi");
  const refsToDocument = (schema: JsonSchema) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"parley-openapi#/components/')) as JsonSchema;
  const result: Compiled[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}/?$`);
    for (const [method, operation] of Object.entries(methods)) {
      const responses = new Map<string, ValidateFunction | null>();
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.["application/json"]?.schema;
        if (schema) responses.set(status, ajv.compile(refsToDocument(schema)));
        // A documented non-JSON answer (a file, a stream) or a redirect: no body to check.
        else if (response.content || response.headers) responses.set(status, null);
      }
      result.push({ pattern, template, method: method.toUpperCase(), responses });
    }
  }
  return result;
}

/** Throws when a documented operation answered an undocumented status or a body off its schema. */
export function assertDocumentedAnswer(method: string, pathname: string, status: number, body: unknown): void {
  if (method === "OPTIONS" || method === "HEAD") return;
  compiled ??= compileContract();
  const operation = compiled.find((candidate) => candidate.method === method && candidate.pattern.test(pathname));
  if (!operation) return; // an undocumented route or method: the route coverage test names it
  const validate = operation.responses.get(String(status));
  if (validate === undefined) throw new Error(`OpenAPI: ${method} ${operation.template} answered ${status}, which the document does not list`);
  if (validate === null) return;
  if (!validate(body)) {
    throw new Error(`OpenAPI: ${method} ${operation.template} ${status} does not match the document: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(body).slice(0, 500)}`);
  }
}
