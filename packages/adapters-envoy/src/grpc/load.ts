import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SwitchyardError } from '@switchyard/core';
import type * as GrpcJs from '@grpc/grpc-js';
import type * as ProtoLoader from '@grpc/proto-loader';

/** The two optional peer dependencies, loaded at server start. */
export interface GrpcModules {
  /** `@grpc/grpc-js`. */
  readonly grpc: typeof GrpcJs;
  /** `@grpc/proto-loader`. */
  readonly protoLoader: typeof ProtoLoader;
}

/** Service definitions the server registers. */
export interface EppServices {
  /** `envoy.service.ext_proc.v3.ExternalProcessor`. */
  readonly extProc: GrpcJs.ServiceDefinition;
  /** `grpc.health.v1.Health`. */
  readonly health: GrpcJs.ServiceDefinition;
}

const MISSING =
  '@switchyard/envoy needs its optional peer dependencies "@grpc/grpc-js" and "@grpc/proto-loader" to serve ext_proc; ' +
  'install them next to it: npm install @grpc/grpc-js @grpc/proto-loader';

function unwrap<T extends object>(mod: T): T {
  // CommonJS modules imported from ESM may arrive as a namespace whose `default` is the exports object.
  const inner = (mod as { default?: unknown }).default;
  return typeof inner === 'object' && inner !== null ? (inner as T) : mod;
}

/**
 * Loads `@grpc/grpc-js` and `@grpc/proto-loader` with dynamic imports, so importing this package
 * never requires them; throws a SwitchyardError (`CONFIG_INVALID`) naming the missing packages.
 */
export async function loadGrpcModules(): Promise<GrpcModules> {
  try {
    const [grpc, protoLoader] = await Promise.all([import('@grpc/grpc-js'), import('@grpc/proto-loader')]);
    return { grpc: unwrap(grpc), protoLoader: unwrap(protoLoader) };
  } catch (error) {
    throw new SwitchyardError('CONFIG_INVALID', MISSING, { cause: error });
  }
}

/**
 * Directory of the shipped .proto files: `proto/` at the package root, found from this module
 * whether it runs from `src/` (tests) or from the bundled `dist/`.
 */
export function defaultProtoDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, '..', 'proto'), join(here, '..', '..', 'proto')]) {
    if (existsSync(join(candidate, 'envoy', 'service', 'ext_proc', 'v3', 'external_processor.proto'))) return candidate;
  }
  throw new SwitchyardError('CONFIG_INVALID', `cannot find the ext_proc .proto files near ${here}; pass protoDir`);
}

/**
 * Loads the ext_proc and health service definitions. Field names stay as in the .proto files
 * (`keepCase`), oneofs get a discriminator, bytes stay Buffers, enums are numbers.
 */
export function loadServices(modules: GrpcModules, protoDir: string = defaultProtoDir()): EppServices {
  const definition = modules.protoLoader.loadSync(['envoy/service/ext_proc/v3/external_processor.proto', 'grpc/health/v1/health.proto'], {
    includeDirs: [protoDir],
    keepCase: true,
    oneofs: true,
    defaults: false,
    enums: Number,
    longs: Number,
  });
  const extProc = definition['envoy.service.ext_proc.v3.ExternalProcessor'];
  const health = definition['grpc.health.v1.Health'];
  if (extProc === undefined || health === undefined || !('Process' in extProc) || !('Check' in health)) {
    throw new SwitchyardError('CONFIG_INVALID', `the .proto files in ${protoDir} do not define the ext_proc and health services`);
  }
  return { extProc, health };
}
