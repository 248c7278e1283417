/**
 * Minimal logger the package writes to (named apart from core's pino `Logger`, which has other
 * signatures). Pass your own (pino, console...) to the factories.
 * @public
 * @category API
 */
export interface PrefixIndexLogger {
  /** Something went wrong but processing continues. */
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  /** Informational event (connections, replays). */
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/**
 * Logger that drops everything.
 * @public
 * @category API
 */
export const silentLogger: PrefixIndexLogger = {
  warn: () => undefined,
  info: () => undefined,
};

/**
 * Logger writing to `console.warn` / `console.info` with a `[switchyard/prefix-index]` prefix.
 * @public
 * @category API
 */
export const consoleLogger: PrefixIndexLogger = {
  warn: (message, details) => {
    console.warn(`[switchyard/prefix-index] ${message}`, details ?? '');
  },
  info: (message, details) => {
    console.info(`[switchyard/prefix-index] ${message}`, details ?? '');
  },
};

/**
 * Wraps a logger so each distinct cause is logged once, however often it repeats: bad input
 * from an engine tends to repeat on every batch, and the counters already say how often.
 * @public
 * @category API
 */
export class OncePerCauseLogger {
  readonly #logger: PrefixIndexLogger;
  readonly #seen = new Set<string>();
  readonly #maxCauses: number;

  /**
   * @param logger - where the first occurrence goes
   * @param maxCauses - distinct causes remembered (bounds memory when causes embed ids); default 1024
   */
  constructor(logger: PrefixIndexLogger, maxCauses = 1024) {
    this.#logger = logger;
    this.#maxCauses = maxCauses;
  }

  /** Logs `message` at warn level the first time `cause` is seen; returns whether it logged. */
  warn(cause: string, message: string, details?: Readonly<Record<string, unknown>>): boolean {
    if (this.#seen.has(cause)) return false;
    if (this.#seen.size >= this.#maxCauses) return false;
    this.#seen.add(cause);
    this.#logger.warn(message, details === undefined ? { cause } : { cause, ...details });
    return true;
  }

  /** Passes an info message through unchanged. */
  info(message: string, details?: Readonly<Record<string, unknown>>): void {
    this.#logger.info(message, details);
  }
}
