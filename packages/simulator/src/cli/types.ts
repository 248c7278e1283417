/**
 * Where the CLI writes, and how it is told to stop.
 * @public
 * @category CLI
 */
export interface CliIo {
  /** Normal output (addresses, report paths). */
  readonly stdout: { write(s: string): unknown };
  /** Progress and errors. */
  readonly stderr: { write(s: string): unknown };
  /** Aborts long-running commands (the bin wires SIGINT/SIGTERM to it). */
  readonly signal?: AbortSignal;
}
