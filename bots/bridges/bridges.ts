import type { AttachArgs } from './attach-settings.js';
import type { EngineBridge, EngineCommand } from './engine.js';
import { FileProtocolBridge } from './file-protocol.js';
import { NboardBridge } from './nboard.js';
import { PiskvorkBridge } from './piskvork.js';
import { UciBridge } from './uci.js';

/** A new engine for one game, in the protocol the command line named; `hooks` are its log and its restarts. */
export function engineBridge(args: AttachArgs, hooks: Omit<EngineCommand, 'command'>): EngineBridge {
  const spec = { command: args.command, ...hooks };
  switch (args.protocol) {
    case 'piskvork':
      return new PiskvorkBridge(spec);
    case 'file':
      return new FileProtocolBridge(spec);
    case 'nboard':
      return new NboardBridge(spec);
    case 'uci':
      return new UciBridge(spec, { ...(args.uciVariant ? { variant: args.uciVariant } : {}), ...(args.uciVariantsFile ? { variantsFile: args.uciVariantsFile } : {}), options: args.uciOptions });
  }
}

/** Starts the engine and runs its protocol's opening exchange once, before any seat is taken. */
export async function checkEngine(args: AttachArgs, log: (line: string) => void): Promise<void> {
  const bridge = engineBridge(args, { log });
  try {
    await bridge.check?.({ game: args.game, options: {} });
  } finally {
    await bridge.close();
  }
}
