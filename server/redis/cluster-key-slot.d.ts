// Types for `cluster-key-slot` (ioredis's own slot function), which ships none.
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot (0–16383) of a key, honouring its {hash tag}. */
  export default function slotOf(key: string | Buffer): number;
}
