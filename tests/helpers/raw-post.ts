import http from "node:http";

/**
 * A JSON POST through plain `http`, as a client other than `fetch` sends it: with Content-Length, or chunked (the body
 * split in two writes after `splitAt` characters). Answers the status and the body as text.
 */
export function rawPost(url: string, body: string, opts: { chunked?: boolean; splitAt?: number } = {}): Promise<{ status: number; text: string }> {
  const { chunked = false, splitAt = 10 } = opts;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": "application/json" };
    if (!chunked) headers["content-length"] = Buffer.byteLength(body);
    const req = http.request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    if (chunked) {
      req.write(body.slice(0, splitAt));
      req.end(body.slice(splitAt));
    } else req.end(body);
  });
}
