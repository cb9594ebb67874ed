/** A cookie's value in a Cookie header, decoded, if it is there. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  const value = new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(header ?? '')?.[1];
  return value ? decodeURIComponent(value) : undefined;
}
