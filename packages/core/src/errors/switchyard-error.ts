import { ERROR_CONTRACT, type ErrorCode } from './codes.js';

const BRAND = Symbol.for('switchyard.error');

/**
 * Options of {@link SwitchyardError}.
 * @public
 * @category Errors and the error contract
 */
export interface SwitchyardErrorOptions {
  /** The underlying error, if any. */
  readonly cause?: unknown;
  /** Overrides the contract's HTTP status (rarely needed). */
  readonly status?: number;
  /**
   * The option or config path that is wrong (`gateway.upstream.maxAttempts`), for errors about
   * bad settings; made by `invalidOption`.
   */
  readonly field?: string;
}

/**
 * The one error class of Switchyard. `code` is stable across versions; `status` and `reason`
 * come from the error contract ({@link ERROR_CONTRACT}).
 * @public
 * @category Errors and the error contract
 */
export class SwitchyardError extends Error {
  /** Stable machine-readable code. */
  readonly code: ErrorCode;
  /** HTTP status a gateway answers with. */
  readonly status: number;
  /** Value of `x-llm-d-request-dropped-reason`, when the contract defines one. */
  readonly reason: string | undefined;
  /** The bad option or config path, when the error is about one (`CONFIG_INVALID`). */
  readonly field: string | undefined;
  /** @internal brand read by {@link isSwitchyardError}; survives duplicate package copies */
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: SwitchyardErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchyardError';
    this.code = code;
    this.status = options.status ?? ERROR_CONTRACT[code].status;
    this.reason = ERROR_CONTRACT[code].reason;
    this.field = options.field;
  }

  /** Brand check that also works for instances made by another copy of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isSwitchyardError(value);
  }
}

/**
 * True when `value` is a {@link SwitchyardError}, from this or any other copy of the package
 * (ESM and CJS builds loaded side by side, or two versions in one tree).
 * @public
 * @category Errors and the error contract
 */
export function isSwitchyardError(value: unknown): value is SwitchyardError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
