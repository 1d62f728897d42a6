import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Timers } from '@nodewright/core/clock';
import { EC2_ACTIONS } from '../ec2/actions/index.js';
import type { Ec2Context } from '../ec2/context.js';
import { Ec2Error } from '../ec2/errors.js';
import type { AwsFaults, AwsService, InjectedFailure } from '../faults/faults.js';
import { IAM_ACTIONS, type IamContext } from '../iam/actions.js';
import { IamError } from '../iam/errors.js';
import { AwsJsonError, type JsonAction } from '../json/errors.js';
import { getProducts, type PricingContext } from '../pricing/get-products.js';
import { parseQueryForm, type QueryNode, str } from '../query/form.js';
import { ec2ErrorResponse, ec2Response, queryErrorResponse, queryResponse } from '../query/xml.js';
import { SQS_ACTIONS, type SqsContext } from '../sqs/actions.js';
import { SSM_ACTIONS, type SsmContext } from '../ssm/actions.js';

/** Everything the server dispatches to. */
export interface AwsServerDeps {
  readonly ec2: Ec2Context;
  readonly pricing: PricingContext;
  readonly sqs: SqsContext;
  readonly iam: IamContext;
  readonly ssm: SsmContext;
  readonly faults: AwsFaults;
  readonly timers: Timers;
}

interface Call {
  readonly service: AwsService;
  readonly action: string;
  readonly run: () => Promise<void>;
}

type JsonService = 'pricing' | 'sqs' | 'ssm';

const JSON_TYPES: Record<JsonService, string> = {
  pricing: 'application/x-amz-json-1.1',
  sqs: 'application/x-amz-json-1.0',
  ssm: 'application/x-amz-json-1.1',
};

/** Each JSON service's name for its own 500. */
const internalErrorType: Record<JsonService, string> = {
  pricing: 'InternalErrorException',
  sqs: 'com.amazonaws.sqs#InternalError',
  ssm: 'InternalServerError',
};

/** The API version IAM's Query requests carry; EC2's is 2016-11-15. */
export const IAM_VERSION = '2010-05-08';
const IAM_XMLNS = 'https://iam.amazonaws.com/doc/2010-05-08/';

/**
 * One HTTP server for EC2 and IAM (Query protocol), Pricing and SSM (JSON 1.1) and SQS (JSON
 * 1.0), told apart the way the SDKs send them: an `X-Amz-Target` header for the JSON services,
 * a form `Action` with `Version` 2010-05-08 for IAM and any other for EC2. Signatures are not
 * checked. Faults are applied before the action runs.
 */
export function createAwsServer(deps: AwsServerDeps): Server {
  return createServer((req, res) => {
    readBody(req)
      .then((body) => handle(deps, req, res, body))
      .catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain' });
        }
        res.end(`aws mock: ${error instanceof Error ? error.message : String(error)}`);
      });
  });
}

async function handle(
  deps: AwsServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
): Promise<void> {
  const requestId = randomUUID();
  const call = route(deps, req, res, body, requestId);
  const latency = deps.faults.latencyOf(call.action);
  if (latency > 0) await new Promise<void>((resolve) => deps.timers.after(latency, resolve));
  const failure = deps.faults.admit(call.service, call.action);
  if (failure) {
    writeFailure(res, call.service, failure, requestId);
    return;
  }
  await call.run();
}

function route(
  deps: AwsServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  requestId: string,
): Call {
  const target = req.headers['x-amz-target'];
  if (typeof target === 'string') {
    const [prefix, action = ''] = target.split('.');
    if (prefix === 'AWSPriceListService') {
      return {
        service: 'pricing',
        action,
        run: () => runJson(res, 'pricing', action, body, requestId, pricingAction(action), deps.pricing),
      };
    }
    if (prefix === 'AmazonSSM') {
      return {
        service: 'ssm',
        action,
        run: () => runJson(res, 'ssm', action, body, requestId, SSM_ACTIONS[action], deps.ssm),
      };
    }
    if (prefix === 'AmazonSQS') {
      return {
        service: 'sqs',
        action,
        run: () => runJson(res, 'sqs', action, body, requestId, SQS_ACTIONS[action], deps.sqs),
      };
    }
    return {
      service: 'sqs',
      action: target,
      run: async () =>
        writeJsonError(
          res,
          'sqs',
          new AwsJsonError('UnknownOperationException', `Unknown target ${target}`),
          requestId,
        ),
    };
  }
  const request = parseQueryForm(body);
  const action = str(request, 'Action') ?? '';
  if (str(request, 'Version') === IAM_VERSION) {
    return { service: 'iam', action, run: async () => runIam(res, action, request, requestId, deps.iam) };
  }
  return {
    service: 'ec2',
    action,
    run: async () => {
      const impl = EC2_ACTIONS[action];
      try {
        if (!impl)
          throw new Ec2Error('InvalidAction', `The action ${action} is not valid for this web service.`);
        const xml = ec2Response(action, requestId, impl(request, deps.ec2));
        if (deps.faults.takeLostResponse(action)) {
          // Done, but the caller never hears of it: the connection drops before the answer.
          res.socket?.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId });
        res.end(xml);
      } catch (error) {
        const e =
          error instanceof Ec2Error
            ? error
            : error instanceof TypeError
              ? new Ec2Error('InvalidParameterValue', error.message)
              : new Ec2Error('InternalError', error instanceof Error ? error.message : String(error), 500);
        res.writeHead(e.status, { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId });
        res.end(ec2ErrorResponse(e.code, e.message, requestId));
      }
    },
  };
}

function runIam(
  res: ServerResponse,
  action: string,
  request: QueryNode,
  requestId: string,
  ctx: IamContext,
): void {
  try {
    const impl = IAM_ACTIONS[action];
    if (!impl)
      throw new IamError('InvalidAction', `Could not find operation ${action} for version ${IAM_VERSION}`);
    const xml = queryResponse(action, IAM_XMLNS, requestId, impl(request, ctx));
    res.writeHead(200, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId });
    res.end(xml);
  } catch (error) {
    const e =
      error instanceof IamError
        ? error
        : new IamError(
            'ServiceFailure',
            error instanceof Error ? error.message : String(error),
            500,
            'Receiver',
          );
    writeIamError(res, e, requestId);
  }
}

function writeIamError(res: ServerResponse, e: IamError, requestId: string): void {
  res.writeHead(e.status, { 'content-type': 'text/xml', 'x-amzn-requestid': requestId });
  res.end(queryErrorResponse(IAM_XMLNS, { type: e.type, code: e.code, message: e.message }, requestId));
}

function pricingAction(action: string): JsonAction<PricingContext> | undefined {
  return action === 'GetProducts' ? getProducts : undefined;
}

async function runJson<C>(
  res: ServerResponse,
  service: JsonService,
  action: string,
  body: string,
  requestId: string,
  impl: JsonAction<C> | undefined,
  ctx: C,
): Promise<void> {
  try {
    if (!impl) throw new AwsJsonError('UnknownOperationException', `The mock does not implement ${action}`);
    let input: unknown;
    try {
      input = body.length === 0 ? {} : JSON.parse(body);
    } catch {
      throw new AwsJsonError('SerializationException', 'The request body is not valid JSON');
    }
    const output = await impl((input ?? {}) as Record<string, unknown>, ctx);
    res.writeHead(200, { 'content-type': JSON_TYPES[service], 'x-amzn-requestid': requestId });
    res.end(JSON.stringify(output));
  } catch (error) {
    const e =
      error instanceof AwsJsonError
        ? error
        : new AwsJsonError(internalErrorType[service], String(error), 500);
    writeJsonError(res, service, e, requestId);
  }
}

function writeJsonError(res: ServerResponse, service: JsonService, e: AwsJsonError, requestId: string): void {
  const headers: Record<string, string> = {
    'content-type': JSON_TYPES[service],
    'x-amzn-requestid': requestId,
  };
  if (e.queryError) headers['x-amzn-query-error'] = e.queryError;
  res.writeHead(e.status, headers);
  res.end(JSON.stringify({ __type: e.type, message: e.message }));
}

function writeFailure(
  res: ServerResponse,
  service: AwsService,
  failure: InjectedFailure,
  requestId: string,
): void {
  if (service === 'ec2') {
    const [code, message, status] =
      failure.kind === 'throttle'
        ? (['RequestLimitExceeded', 'Request limit exceeded.', 503] as const)
        : failure.kind === 'unavailable'
          ? (['ServiceUnavailable', 'The service is unavailable. Please try again shortly.', 503] as const)
          : (['InternalError', 'An internal error has occurred', 500] as const);
    res.writeHead(status, { 'content-type': 'text/xml;charset=UTF-8', 'x-amzn-requestid': requestId });
    res.end(ec2ErrorResponse(code, message, requestId));
    return;
  }
  if (service === 'iam') {
    writeIamError(
      res,
      failure.kind === 'throttle'
        ? new IamError('Throttling', 'Rate exceeded', 400)
        : failure.kind === 'unavailable'
          ? new IamError('ServiceUnavailable', 'Service is unavailable', 503, 'Receiver')
          : new IamError('ServiceFailure', 'An internal error has occurred', 500, 'Receiver'),
      requestId,
    );
    return;
  }
  const ns = service === 'sqs' ? 'com.amazonaws.sqs#' : '';
  const e =
    failure.kind === 'throttle'
      ? new AwsJsonError(
          `${ns}ThrottlingException`,
          'Rate exceeded',
          400,
          service === 'sqs' ? 'ThrottlingException;Sender' : undefined,
        )
      : failure.kind === 'unavailable'
        ? new AwsJsonError(
            service === 'sqs' ? `${ns}ServiceUnavailable` : 'ServiceUnavailableException',
            'Service is unavailable',
            503,
            service === 'sqs' ? 'ServiceUnavailable;Receiver' : undefined,
          )
        : new AwsJsonError(
            internalErrorType[service],
            'We encountered an internal error. Please try again.',
            500,
            service === 'sqs' ? 'InternalError;Receiver' : undefined,
          );
  writeJsonError(res, service, e, requestId);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
