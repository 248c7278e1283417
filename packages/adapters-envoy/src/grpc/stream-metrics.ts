import { FastCounter, FastGauge, FastHistogram, type FastCounterChild } from '@switchyard/core';
import type { Registry } from 'prom-client';

// llm-d's bounds (pkg/epp/metrics/grpc_stream_metrics.go), so dashboards' quantiles read the same.
const STREAM_DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300, 600];

/** gRPC status numbers as Go's `codes.Code.String()` spells them: llm-d's `code` label values. */
const CODE_NAMES = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

/** The name llm-d's `code` label gives gRPC status `status` (`Code(n)` for one outside the table, as Go prints it). */
export function grpcCodeName(status: number): string {
  return CODE_NAMES[status] ?? `Code(${status})`;
}

/**
 * llm-d's ext_proc stream families (catalogue §4.6, only with `--enable-grpc-stream-metrics`):
 * `extproc_streams_inflight`, `extproc_stream_duration_seconds` and `extproc_streams_total{code}`,
 * recorded by the transport-independent call logic so both transports count alike.
 */
export class ExtProcStreamMetrics {
  readonly #inflight: FastGauge;
  readonly #duration: FastHistogram;
  readonly #total: FastCounter<'code'>;
  /** One child per status code seen: a stream's end costs no label lookup after the first. */
  readonly #byCode = new Map<number, FastCounterChild>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.#inflight = new FastGauge({ name: 'llm_d_epp_extproc_streams_inflight', help: 'Open ext_proc streams.', registers });
    this.#duration = new FastHistogram({ name: 'llm_d_epp_extproc_stream_duration_seconds', help: 'Lifetime of ext_proc streams, from open to the end of the call.', buckets: STREAM_DURATION_BUCKETS, registers });
    this.#total = new FastCounter({ name: 'llm_d_epp_extproc_streams_total', help: 'Completed ext_proc streams by gRPC status code.', labelNames: ['code'], registers });
  }

  /** A stream opened. */
  opened(): void {
    this.#inflight.inc();
  }

  /** A stream opened `ms` ago ended with gRPC status `status`. */
  ended(status: number, ms: number): void {
    this.#inflight.dec();
    this.#duration.observe(ms / 1000);
    let child = this.#byCode.get(status);
    if (child === undefined) this.#byCode.set(status, (child = this.#total.labels(grpcCodeName(status))));
    child.inc();
  }
}
