/**
 * The CLI proper, imported by bin.ts once the Node version is known to be one it runs on
 * (this module already needs Node 24's node:module registerHooks).
 */
import { registerHooks } from 'node:module';
import { relaunchWithControllerFlags } from './operator/relaunch.js';

const argv = process.argv.slice(2);

// The controller is long-running: it runs under its heap flags (see ControllerNodeFlags). Node
// takes them only at start, so the process replaces itself with one that has them.
if (argv[0] === 'controller') relaunchWithControllerFlags(process.argv[1], argv);

// `nodewright crds | head` closes the pipe early; that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd() };
if (argv[0] === 'controller') {
  // The controller talks to a cluster through client-node's KubeConfig, which would otherwise
  // load every generated API client with it (see clientNodeSubsetHooks); registered before
  // anything loads it. Commands that read no kubeconfig skip the import.
  registerHooks((await import('@nodewright/core/kube')).clientNodeSubsetHooks());
  // It loads only its own command and the chosen provider's package (controller-main).
  const code = await (await import('./controller-main.js')).controllerMain(argv.slice(1), io);
  process.exitCode = code;
  // The operator has stopped, but a request the API server never answered (a partition, a hung
  // connection) would keep the event loop, and so the process, alive as a replica that neither
  // leads nor restarts: end it once the logs written so far are out.
  process.stdout.write('', () => process.exit(code));
} else {
  // A command reading a live cluster loads client-node's KubeConfig too (see above).
  if ((await import('./live/cluster-target.js')).mayReadCluster(argv))
    registerHooks((await import('@nodewright/core/kube')).clientNodeSubsetHooks());
  // Each other command line loads only what its command needs (see main and LazyCommands).
  process.exitCode = await (await import('./main.js')).main(argv, io);
}
