/**
 * Attribute values spans carry. @public
 * @category Tracing
 */
export type SpanAttributes = Record<string, string | number | boolean | string[]>;

/**
 * The part of an OpenTelemetry `Span` Switchyard uses.
 * @public
 * @category Tracing
 */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean | string[]): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}

/**
 * The part of an OpenTelemetry `Tracer` Switchyard uses (`startTime` in epoch milliseconds).
 * @public
 * @category Tracing
 */
export interface TracerLike {
  startSpan(name: string, options?: { startTime?: number; attributes?: SpanAttributes }, context?: unknown): SpanLike;
}

/**
 * The part of `@opentelemetry/api` Switchyard uses; the package itself satisfies it. Core's types
 * do not name the package, so it stays an optional peer dependency.
 * @public
 * @category Tracing
 */
export interface OpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): TracerLike;
    setSpan(context: never, span: never): unknown;
  };
  readonly context: { active(): unknown };
}

/**
 * Loads `@opentelemetry/api` when it is installed (an optional peer dependency).
 * @returns the API, or undefined when the package is missing
 * @public
 * @category Tracing
 */
export async function loadOpenTelemetry(): Promise<OpenTelemetryApi | undefined> {
  try {
    const name = '@opentelemetry/api';
    return (await import(name)) as OpenTelemetryApi;
  } catch {
    return undefined;
  }
}
