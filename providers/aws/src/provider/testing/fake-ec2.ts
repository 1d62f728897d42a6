import type { Ec2Api, IamApi, SqsApi, SsmApi } from '../../sdk/index.js';

type AnyFn = (input: never) => Promise<unknown>;
type Methods<T> = { [K in keyof T]: T[K] extends AnyFn ? K : never }[keyof T];

/** One recorded call: the method and a copy of its input. */
export interface RecordedCall<T> {
  readonly method: Methods<T> & string;
  readonly input: unknown;
}

/** An SDK-shaped error: `name` is the AWS code, as the real clients throw them. */
export function awsError(code: string, message = code): Error {
  return Object.assign(new Error(message), { name: code, $metadata: { httpStatusCode: 400 } });
}

/**
 * A call-recording fake of a narrowed SDK interface, for tests: every call is recorded with a
 * copy of its input, and answered by the handler set with `on` (or an empty answer).
 */
export class RecordingFake<T extends object> {
  readonly calls: RecordedCall<T>[] = [];
  readonly #handlers = new Map<string, (input: never) => unknown>();

  /** Answers `method` with `handler` from now on (it may throw to fail the call). */
  on<M extends Methods<T> & string>(
    method: M,
    handler: T[M] extends (input: infer I, ...rest: never[]) => Promise<infer O>
      ? (input: I) => Partial<O> | Promise<Partial<O>>
      : never,
  ): this {
    this.#handlers.set(method, handler as (input: never) => unknown);
    return this;
  }

  /** Inputs of the calls of one method, in order. */
  inputs<M extends Methods<T> & string>(
    method: M,
  ): (T[M] extends (input: infer I, ...rest: never[]) => unknown ? I : never)[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.input) as never;
  }

  /** The fake as the interface it stands for. */
  get api(): T {
    return new Proxy({} as T, {
      get: (_target, prop) => {
        if (typeof prop !== 'string') return undefined;
        return async (input: unknown) => {
          this.calls.push({ method: prop as Methods<T> & string, input: structuredClone(input) });
          const handler = this.#handlers.get(prop);
          const out = handler === undefined ? {} : await handler(input as never);
          return { $metadata: {}, ...(out as object) };
        };
      },
    });
  }
}

/** A recording fake Ec2Api. */
export const fakeEc2 = (): RecordingFake<Ec2Api> => new RecordingFake<Ec2Api>();
/** A recording fake SqsApi. */
export const fakeSqs = (): RecordingFake<SqsApi> => new RecordingFake<SqsApi>();
/** A recording fake IamApi. */
export const fakeIam = (): RecordingFake<IamApi> => new RecordingFake<IamApi>();
/** A recording fake SsmApi. */
export const fakeSsm = (): RecordingFake<SsmApi> => new RecordingFake<SsmApi>();
