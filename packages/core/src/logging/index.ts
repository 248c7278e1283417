export { LOG_LEVELS, createLogger, parseLogLevel } from './logger.js';
export type { LogLevel, LogSink, Logger, LoggerOptions } from './logger.js';
export { formatLogLine } from './pretty.js';
export { requestLogger } from './request-log.js';
