import { pino, type Logger } from 'pino';
import { SwitchyardError } from '../errors/switchyard-error.js';
import { formatLogLine } from './pretty.js';

/**
 * Log levels, least to most severe. @public
 * @category Logging
 */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/**
 * A log level. @public
 * @category Logging
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Where log lines go: anything with `write` (a stream, or a test's collector).
 * @public
 * @category Logging
 */
export interface LogSink {
  write(text: string): unknown;
  /** Whether it is a terminal (then lines are human-readable by default). */
  readonly isTTY?: boolean;
}

/**
 * Options of {@link createLogger}.
 * @public
 * @category Logging
 */
export interface LoggerOptions {
  /** Least severe level written. @default 'info' */
  readonly level?: LogLevel;
  /** `json`: one JSON object per line; `pretty`: human-readable; `auto`: pretty on a terminal. @default 'auto' */
  readonly format?: 'auto' | 'json' | 'pretty';
  /** Where lines go. @default process.stdout */
  readonly sink?: LogSink;
  /** `name` field of every line (`switchyard-gateway`, `switchyard-epp`). */
  readonly name?: string;
}

/**
 * Parses a `--log-level` value.
 * @throws SwitchyardError `CONFIG_INVALID` naming the flag and the levels
 * @public
 * @category Logging
 */
export function parseLogLevel(raw: string, flag = '--log-level'): LogLevel {
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new SwitchyardError('CONFIG_INVALID', `${flag}: expected one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
}

/**
 * Creates a pino logger writing JSON lines with levels, or human-readable lines on a terminal.
 * Lines are written synchronously on the calling thread (no transport worker threads), so a
 * crash never loses the last lines and nothing keeps the process alive.
 * @public
 * @category Logging
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const sink: LogSink = options.sink ?? process.stdout;
  const pretty = options.format === 'pretty' || (options.format !== 'json' && sink.isTTY === true);
  const destination = pretty ? { write: (line: string) => sink.write(`${formatLogLine(line)}\n`) } : { write: (line: string) => sink.write(line) };
  return pino({ level: options.level ?? 'info', base: options.name === undefined ? {} : { name: options.name } }, destination);
}

export type { Logger };
