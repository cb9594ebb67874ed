/** `edmonds-blossom-fixed`: Joris van Rantwijk's maximum weighted matching (Edmonds' blossom, O(n³)), ported to JavaScript. */
declare module 'edmonds-blossom-fixed' {
  /**
   * `edges`: [u, v, weight] with vertices numbered from 0; `maxCardinality`: only the matchings of
   * the most pairs count. Returns each vertex's mate, or -1.
   */
  export default function blossom(edges: readonly (readonly [number, number, number])[], maxCardinality?: boolean): number[];
}
