import type { AttachArgs } from '../cli/commands/attach.js';
import type { EngineBridge } from './engine.js';
import { FileProtocolBridge } from './file-protocol.js';
import { NboardBridge } from './nboard.js';
import { PiskvorkBridge } from './piskvork.js';
import { UciBridge } from './uci.js';

/** A new engine for one game, in the protocol the command line named. */
export function engineBridge(args: AttachArgs, log: (line: string) => void): EngineBridge {
  switch (args.protocol) {
    case 'piskvork':
      return new PiskvorkBridge({ command: args.command, log });
    case 'file':
      return new FileProtocolBridge({ command: args.command, log });
    case 'nboard':
      return new NboardBridge({ command: args.command, log });
    case 'uci':
      return new UciBridge({ command: args.command, log }, { ...(args.uciVariant ? { variant: args.uciVariant } : {}), ...(args.uciVariantsFile ? { variantsFile: args.uciVariantsFile } : {}), options: args.uciOptions });
  }
}
