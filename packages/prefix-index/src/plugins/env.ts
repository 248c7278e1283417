import type { PrefixIndexLogger } from '../api/logger.js';
import type { PrefixHasher } from '../hashing/prefix-hasher.js';
import type { PrefixIndexMetrics } from '../metrics/prefix-metrics.js';
import type { ZmqModule } from '../subscriber/zmq-types.js';
import type { Tokenizer } from '../tokenizer/types.js';

/**
 * What the plugin factories share: created once by `loadPrefixIndexPlugins`.
 * @public
 * @category Plugins
 */
export interface PrefixPluginEnv {
  /** Block hasher. */
  readonly hasher: PrefixHasher;
  /** Metrics. */
  readonly metrics: PrefixIndexMetrics;
  /** Logger for first occurrences of problems. */
  readonly logger: PrefixIndexLogger;
  /** Tokenizer for `token-producer` backend `custom`. */
  readonly tokenizer: Tokenizer | undefined;
  /** zeromq module override (tests); default `import('zeromq')`. */
  readonly zeromq: ZmqModule | undefined;
}
