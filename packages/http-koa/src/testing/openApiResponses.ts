import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from '@jest/globals';

interface Operation {
  responses: Record<string, unknown>;
}
interface Document {
  paths: Record<string, Partial<Record<string, Operation>>>;
  components: { headers: Record<string, { required?: boolean }> };
  servers?: unknown;
}

const checkers = new Map<string, OpenApiResponseChecker>();

/**
 * The checker of a document, made once per test file for every test API that answers with the same one (whatever its
 * address, which only the document's `servers` names): compiling the schemas is most of the CPU a test API's start costs.
 */
export function responseCheckerFor(document: Document, prefix = '/v1'): OpenApiResponseChecker {
  const { servers: _servers, ...rest } = document;
  const key = `${prefix} ${JSON.stringify(rest)}`;
  let checker = checkers.get(key);
  if (!checker) checkers.set(key, (checker = new OpenApiResponseChecker(document, prefix)));
  return checker;
}

/**
 * Checks recorded responses against the OpenAPI document with a real JSON Schema 2020-12 validator (Ajv): the body
 * against the response schema of the operation and status, and every header the document marks required.
 */
export class OpenApiResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly templates: { pattern: RegExp; path: string }[];

  constructor(
    private readonly document: Document,
    private readonly prefix = '/v1',
  ) {
    this.ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isSafeInteger(value) });
    this.ajv.addFormat('uri', (value: string) => URL.canParse(value));
    this.ajv.addFormat(
      'date-time',
      (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)),
    );
    this.ajv.addFormat('date', (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));
    this.ajv.addSchema(document, 'openapi');
    this.templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** JSON pointer of the response object that describes this answer. */
  private responsePointer(method: string, path: string, status: number): string {
    const pathOnly = path.split('?')[0]!;
    const template = pathOnly.startsWith(`${this.prefix}/`)
      ? this.templates.find((t) => t.pattern.test(pathOnly.slice(this.prefix.length)))
      : undefined;
    const operationMethod = method === 'HEAD' ? 'get' : method.toLowerCase();
    const operation = template && this.document.paths[template.path]![operationMethod];
    const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    if (operation && operation.responses[String(status)]) {
      return this.followRefs(`#/paths/${escape(template.path)}/${operationMethod}/responses/${status}`);
    }
    // A path or method no operation has: the answer any counted operation describes for this status.
    const described = Object.entries(this.document.paths).find(([, item]) => item.get?.responses[String(status)]);
    if (!operation && described) return this.followRefs(`#/paths/${escape(described[0])}/get/responses/${status}`);
    throw new Error(`the OpenAPI document does not describe ${method} ${pathOnly} -> ${status}`);
  }

  private node(pointer: string): Record<string, unknown> {
    let node: unknown = this.document;
    for (const part of pointer.slice(2).split('/')) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return node as Record<string, unknown>;
  }

  private followRefs(pointer: string): string {
    const ref = (this.node(pointer) as { $ref?: string }).$ref;
    return ref ? this.followRefs(ref) : pointer;
  }

  private resolve(pointer: string): Record<string, unknown> {
    return this.node(this.followRefs(pointer));
  }

  check(method: string, path: string, status: number, headers: Record<string, string | string[] | undefined>, body: unknown): void {
    if (method === 'OPTIONS' || !path.startsWith(`${this.prefix}/`)) return;
    const pointer = this.responsePointer(method, path, status);
    const response = this.resolve(pointer) as { headers?: Record<string, { $ref?: string; required?: boolean }>; content?: object };
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const definition = header.$ref ? (this.resolve(header.$ref) as { required?: boolean }) : header;
      if (definition.required && status !== 503) {
        expect({ [name]: headers[name.toLowerCase()] }).toEqual({ [name]: expect.anything() });
      }
    }
    if (method === 'HEAD' || !response.content) return;
    const schemaRef = `openapi${pointer}/content/application~1json/schema`.replace(/\{/g, '%7B').replace(/\}/g, '%7D');
    const validate = this.ajv.getSchema(schemaRef) ?? this.ajv.compile({ $ref: schemaRef });
    if (!validate(body)) {
      throw new Error(`${method} ${path} -> ${status} does not match ${pointer}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
    }
  }
}
