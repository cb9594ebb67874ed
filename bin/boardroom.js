#!/usr/bin/env node
import { main } from '../dist/bots/cli/main.js';

// performance.now() counts from the process's start: --ms budgets include start-up.
process.exitCode = await main(process.argv.slice(2), undefined, 0);
