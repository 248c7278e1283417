/**
 * Which command accepts a Kubernetes flag.
 * @public
 * @category CLI flags
 */
export type KubernetesCli = 'epp' | 'gateway';

/**
 * One Kubernetes discovery or leader-election flag: the single definition the CLIs' `parseArgs`
 * options, their `--help` sections and the flag table of the Kubernetes docs are checked against.
 * @public
 * @category CLI flags
 */
export interface KubernetesFlag {
  /** Flag name without the dashes. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** Placeholder of the value in usage lines (string flags). */
  readonly arg?: string | undefined;
  /** One-line meaning, as `--help` prints it. */
  readonly help: string;
  /** Longer meaning for the docs table (defaults to `help`). */
  readonly doc?: string | undefined;
  /** Commands that accept it. */
  readonly clis: readonly KubernetesCli[];
  /** True for flags llm-d's EPP does not have (Switchyard's own). */
  readonly switchyardOnly?: boolean | undefined;
}

const BOTH: readonly KubernetesCli[] = ['epp', 'gateway'];
const EPP: readonly KubernetesCli[] = ['epp'];

/**
 * Every Kubernetes flag, in `--help` order. llm-d's names where llm-d has the flag.
 * @public
 * @category CLI flags
 */
export const KUBERNETES_FLAGS: readonly KubernetesFlag[] = [
  { name: 'pool-name', type: 'string', arg: 'NAME', clis: BOTH, help: 'follow this InferencePool (inference.networking.k8s.io/v1)', doc: 'follow this `InferencePool` (`inference.networking.k8s.io/v1`) and its objectives and rewrites' },
  { name: 'pool-namespace', type: 'string', arg: 'NS', clis: BOTH, help: 'namespace of the pool, its pods, objectives, ConfigMaps and the Lease (default: $NAMESPACE, then the kubeconfig context, then default)', doc: 'namespace of the pool, its pods, objectives, model-mapping ConfigMaps and the Lease; default `$NAMESPACE`, then the kubeconfig context\'s, then `default`' },
  { name: 'pool-group', type: 'string', arg: 'GROUP', clis: BOTH, help: 'InferencePool API group (only inference.networking.k8s.io)', doc: 'only `inference.networking.k8s.io` is supported' },
  { name: 'endpoint-selector', type: 'string', arg: 'SEL', clis: BOTH, help: 'instead of a pool: select model-server pods by label selector', doc: 'instead of a pool: pods by label selector (`a=b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`); no objectives or rewrites, as in llm-d\'s standalone mode' },
  { name: 'endpoint-target-ports', type: 'string', arg: 'P', clis: BOTH, help: 'comma-separated ports (1-8), required with --endpoint-selector', doc: '1–8 ports, required with `--endpoint-selector`' },
  { name: 'kubeconfig', type: 'string', arg: 'FILE', clis: BOTH, help: 'kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)', doc: 'kubeconfig file; default `KUBECONFIG`, `~/.kube/config`, then the in-cluster service account', switchyardOnly: true },
  { name: 'ha-enable-leader-election', type: 'boolean', clis: EPP, help: 'elect a leader on Lease epp-<ns>-<pool>.llm-d.ai; readiness is SERVING only on the leader, standbys still route', doc: 'Lease `epp-<ns>-<pool>.llm-d.ai` (selector mode: `epp-<ns>-epp.llm-d.ai`); readiness SERVING only on the leader, standbys still route' },
  { name: 'ha-lease-duration', type: 'string', arg: 'D', clis: EPP, switchyardOnly: true, help: 'how long a Lease is valid without renewal (default 15s, whole seconds)', doc: 'how long the Lease is valid without renewal (default `15s`, controller-runtime\'s; rounded up to whole seconds as the Lease stores it)' },
  { name: 'ha-renew-deadline', type: 'string', arg: 'D', clis: EPP, switchyardOnly: true, help: 'a leader that cannot renew for this long steps down (default 10s)', doc: 'a leader that cannot renew for this long steps down (default `10s`); must be below the lease duration' },
  { name: 'ha-retry-period', type: 'string', arg: 'D', clis: EPP, switchyardOnly: true, help: 'interval of acquire and renew attempts (default 2s)', doc: 'interval of acquire and renew attempts (default `2s`); the renew deadline must exceed 1.2 × this' },
  { name: 'drain-timeout', type: 'string', arg: 'D', clis: EPP, help: 'on SIGTERM: NOT_SERVING and the Lease released at once, ext_proc keeps serving this long (default 30s)', doc: 'on SIGTERM: NOT_SERVING and the Lease released at once, ext_proc keeps serving this long (default `30s`)' },
];

/**
 * The flags `cli` accepts, as `node:util` `parseArgs` option definitions.
 * @public
 * @category CLI flags
 */
export function kubernetesCliOptions(cli: KubernetesCli): Record<string, { type: 'string' | 'boolean' }> {
  const out: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const f of KUBERNETES_FLAGS) if (f.clis.includes(cli)) out[f.name] = { type: f.type };
  return out;
}

const COLUMN = 28;

/** Wraps `text` into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * The flag lines of `cli`'s `--help` (one flag per entry, help wrapped at 98 columns).
 * @public
 * @category CLI flags
 */
export function kubernetesCliUsage(cli: KubernetesCli): string {
  const out: string[] = [];
  for (const f of KUBERNETES_FLAGS) {
    if (!f.clis.includes(cli)) continue;
    const head = `  --${f.name}${f.arg === undefined ? '' : ` ${f.arg}`}`;
    const help = wrap(f.help, 98 - COLUMN);
    const pad = ' '.repeat(COLUMN);
    if (head.length >= COLUMN) out.push(head, ...help.map((l) => pad + l));
    else out.push(head.padEnd(COLUMN) + (help[0] ?? ''), ...help.slice(1).map((l) => pad + l));
  }
  return `${out.join('\n')}\n`;
}

/**
 * The Markdown table of every flag and the commands that take it (docs/kubernetes.md holds it).
 * @public
 * @category CLI flags
 */
export function kubernetesFlagTable(): string {
  const rows = KUBERNETES_FLAGS.map((f) => {
    const name = `\`--${f.name}${f.arg === undefined ? '' : ` ${f.arg}`}\`${f.switchyardOnly === true ? ' ¹' : ''}`;
    const mark = (cli: KubernetesCli): string => (f.clis.includes(cli) ? '✓' : '—');
    return `| ${name} | ${mark('epp')} | ${mark('gateway')} | ${f.doc ?? f.help} |`;
  });
  return ['| flag | EPP | gateway | meaning |', '|---|---|---|---|', ...rows, '', '¹ Switchyard\'s own (llm-d reads `KUBECONFIG` only and uses fixed lease timings).', ''].join('\n');
}
