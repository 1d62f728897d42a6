import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { ArmContext, ArmReply } from '../arm/context.js';
import { ArmError } from '../arm/errors.js';
import { match } from './routes.js';

/** The server's key pair, signed by a CA the clients trust. */
export interface ServingCertificate {
  readonly key: string;
  readonly cert: string;
}

/**
 * The ARM endpoint over TLS: bearer token required (any value; the mock checks its presence,
 * as ARM checks its validity), subscription checked, faults applied before the handler runs,
 * every error as `{error:{code,message}}`, every reply with an `x-ms-request-id`.
 */
export function createArmServer(ctx: ArmContext, tls: ServingCertificate): Server {
  return createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    readBody(req)
      .then((body) => handle(ctx, req, res, body))
      .catch((error: unknown) => write(res, errorReply(error)));
  });
}

async function handle(
  ctx: ArmContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
): Promise<void> {
  const url = new URL(req.url ?? '/', ctx.origin);
  const found = match(req.method ?? 'GET', url.pathname);
  if (found === undefined) {
    throw new ArmError(404, 'InvalidResourceType', `The mock does not serve ${req.method} ${url.pathname}.`);
  }
  if (found.route.auth) {
    if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) {
      throw new ArmError(
        401,
        'AuthenticationFailed',
        "Authentication failed. The 'Authorization' header is missing.",
      );
    }
    if (found.params.subscription !== ctx.subscriptionId) {
      throw new ArmError(
        404,
        'SubscriptionNotFound',
        `The subscription '${found.params.subscription}' could not be found.`,
      );
    }
  }
  const latency = ctx.faults.latencyOf(found.route.handler.name);
  // unref'd: a request held for minutes must not keep a finished test run alive.
  if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency).unref());
  const failure = ctx.faults.admit();
  if (failure !== undefined) throw failure;
  let parsed: unknown;
  if (body.length > 0) {
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ArmError(
        400,
        'InvalidRequestContent',
        'The request content was invalid and could not be deserialized.',
      );
    }
  }
  write(
    res,
    found.route.handler(
      { method: req.method ?? 'GET', params: found.params, query: url.searchParams, body: parsed },
      ctx,
    ),
  );
}

function errorReply(error: unknown): ArmReply {
  const e =
    error instanceof ArmError
      ? error
      : new ArmError(500, 'InternalServerError', error instanceof Error ? error.message : String(error));
  return { status: e.status, body: e.body(), headers: e.headers };
}

function write(res: ServerResponse, reply: ArmReply): void {
  const headers: Record<string, string> = {
    'x-ms-request-id': crypto.randomUUID(),
    ...reply.headers,
  };
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(reply.body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
