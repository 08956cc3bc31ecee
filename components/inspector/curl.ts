/** A string as one POSIX shell word: single-quoted, with each `'` closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The request as a cURL command a user can paste in a shell to replay it: the exact body, the endpoint, and the API
 * key read from the variable that holds it (the key itself is never in the command).
 */
export function curlCommand(url: string, apiKeyEnv: string, body: unknown): string {
  const json = JSON.stringify(body, null, 2);
  return [
    `curl ${shellQuote(url)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H "Authorization: Bearer $${apiKeyEnv}"`,
    `  --data-binary ${shellQuote(json)}`,
  ].join(" \\\n");
}
