#!/usr/bin/env node
// The provider's own controller binary: `nodewright controller`'s flags, leader election,
// health and metrics servers and shutdown, over this provider alone.
import { runController } from '@nodewright/cli/controller';
import providerPlugin from './index.js';

process.exitCode = await runController({ providers: [providerPlugin] });
