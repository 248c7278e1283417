import { SwitchyardError } from '@switchyard/core';

/**
 * The parts of a zeromq v6 socket this package uses (structural, so `zeromq` stays an optional
 * peer dependency and its types are not needed to compile against this package).
 * @public
 * @category Subscriber
 */
export interface ZmqSocketLike {
  /** Connects to an endpoint such as `tcp://10.0.0.1:5557`. */
  connect(address: string): void;
  /** Closes the socket; pending receives reject. */
  close(): void;
  /** Milliseconds to keep unsent messages after close. */
  linger: number;
  /** Socket event observer (`connect`, `disconnect`, ...). */
  readonly events: { on(type: string, listener: (event: { readonly type: string; readonly address?: string }) => void): unknown };
}

/**
 * A SUB socket.
 * @public
 * @category Subscriber
 */
export interface ZmqSubscriberLike extends ZmqSocketLike, AsyncIterable<Buffer[]> {
  /** Subscribes to topics starting with a prefix. */
  subscribe(...prefixes: string[]): void;
}

/**
 * A DEALER socket (talks to the engine's replay ROUTER).
 * @public
 * @category Subscriber
 */
export interface ZmqDealerLike extends ZmqSocketLike {
  /** Sends a multipart message. */
  send(message: readonly (Buffer | Uint8Array | string)[]): Promise<void>;
  /** Receives the next multipart message. */
  receive(): Promise<Buffer[]>;
}

/**
 * The constructors this package needs from `zeromq`.
 * @public
 * @category Subscriber
 */
export interface ZmqModule {
  /** SUB socket constructor. */
  readonly Subscriber: new () => ZmqSubscriberLike;
  /** DEALER socket constructor. */
  readonly Dealer: new () => ZmqDealerLike;
}

/**
 * Loads the optional `zeromq` peer dependency.
 * @throws SwitchyardError `CONFIG_INVALID` when it is not installed
 * @public
 * @category Subscriber
 */
export async function loadZeromq(): Promise<ZmqModule> {
  try {
    const specifier = 'zeromq';
    const mod: unknown = await import(specifier);
    return mod as ZmqModule;
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', 'kv events: the optional peer dependency "zeromq" (v6) is not installed; run `npm install zeromq`', { cause: err });
  }
}
