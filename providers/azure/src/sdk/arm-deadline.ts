import { Agent, type AgentOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';

/**
 * How long one ARM request (one attempt: connect, send, the whole answer) may take before it is
 * abandoned and retried per the retry policy: a call ARM never answers must not hold a launch,
 * and the worker running it, for ever. AWS's request deadline, for the same reason.
 */
export const ArmRequestTimeoutMs = 60_000;
/** How long opening a connection, TLS handshake included, may take. */
export const ArmConnectTimeoutMs = 10_000;

/** Deadlines for every ARM and Retail Prices call; AwsCallDeadlines' shape. */
export interface ArmCallDeadlines {
  readonly requestTimeoutMs: number;
  readonly connectionTimeoutMs: number;
}

/** An ARM request that got no (complete) answer within its deadline; retried like a reset. */
export class ArmRequestTimeoutError extends Error {
  override readonly name = 'ArmRequestTimeoutError';
  /** Read by the retry policy, which retries transport failures by code. */
  readonly code = 'REQUEST_TIMEOUT';
  constructor(operation: string, deadlineMs: number) {
    super(`${operation}: no answer from ARM within ${deadlineMs / 1000} s (the request deadline)`);
  }
}

/**
 * `GET Microsoft.Compute/virtualMachines/vm-1`: the method and the resource past the
 * subscription and resource group, which name the operation as ARM's docs do.
 */
export function armOperation(method: string, url: string): string {
  const path = new URL(url).pathname;
  const provider = /\/providers\/(.+)$/i.exec(path)?.[1];
  return `${method} ${provider ?? path}`;
}

/**
 * The pipeline policy that gives each attempt its deadline (position `perRetry`, inside the
 * retry policy): the request is aborted at the deadline and fails with ArmRequestTimeoutError.
 * The caller's own abort signal still works and is reported as itself.
 */
export function armDeadlinePolicy(requestTimeoutMs: number): PipelinePolicy {
  return {
    name: 'nodewrightArmDeadline',
    async sendRequest(request, next) {
      const parent = request.abortSignal as AbortSignal | undefined;
      const own = new AbortController();
      request.abortSignal = parent === undefined ? own.signal : AbortSignal.any([parent, own.signal]);
      const timer = setTimeout(() => own.abort(), requestTimeoutMs);
      try {
        return await next(request);
      } catch (err) {
        if (own.signal.aborted && parent?.aborted !== true) {
          throw new ArmRequestTimeoutError(armOperation(request.method, request.url), requestTimeoutMs);
        }
        // connectDeadlineAgent's failure knows the host, not the call: name the call too.
        if (err instanceof Error && (err as { code?: unknown }).code === 'ETIMEDOUT') {
          err.message = `${armOperation(request.method, request.url)}: ${err.message}`;
        }
        throw err;
      } finally {
        clearTimeout(timer);
        // The retry policy sends the same request object again, with a fresh deadline.
        request.abortSignal = parent;
      }
    },
  };
}

/**
 * An HTTPS agent whose connections fail when connecting (TCP and TLS) takes longer than
 * `connectTimeoutMs`: node:https has no connect timeout of its own, and a host that accepts
 * but never completes the handshake would otherwise hold the request until its deadline.
 */
export function connectDeadlineAgent(connectTimeoutMs: number, options: AgentOptions = {}): Agent {
  return new ConnectDeadlineAgent(connectTimeoutMs, options);
}

class ConnectDeadlineAgent extends Agent {
  readonly #connectTimeoutMs: number;

  constructor(connectTimeoutMs: number, options: AgentOptions) {
    super(options);
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  override createConnection(...args: Parameters<Agent['createConnection']>): Socket {
    const socket = super.createConnection(...args) as Socket;
    const ms = this.#connectTimeoutMs;
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`connecting to ARM took longer than ${ms / 1000} s`), {
        code: 'ETIMEDOUT',
      });
      socket.destroy(err);
    }, ms);
    timer.unref();
    socket.once('secureConnect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  }
}
