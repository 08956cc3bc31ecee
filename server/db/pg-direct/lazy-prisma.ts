import type { Prisma } from "../generated/prisma/client";

type Tx = Prisma.TransactionClient;

/**
 * A stand-in for a Prisma transaction client that opens the real one on first use (`open`): a direct transaction
 * whose body touches only direct store methods never starts a Prisma transaction. `db.model.method(args)` and
 * `db.$method(args)` (tagged templates included) are forwarded once it is open; each returns a plain promise.
 */
export function lazyPrisma(open: () => Promise<Tx>): Tx {
  const forward =
    (pick: (tx: Tx) => (...args: unknown[]) => unknown) =>
    (...args: unknown[]) =>
      open().then((tx) => pick(tx)(...args));
  const models = new Map<string, unknown>();
  return new Proxy({} as Tx, {
    get(_target, prop) {
      if (typeof prop !== "string" || prop === "then") return undefined;
      if (prop.startsWith("$")) {
        return forward((tx) => {
          const fn = (tx as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]!;
          return fn.bind(tx);
        });
      }
      let model = models.get(prop);
      if (!model) {
        model = new Proxy(
          {},
          {
            get(_m, method) {
              if (typeof method !== "string" || method === "then") return undefined;
              return forward((tx) => {
                const delegate = (tx as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>)[prop]!;
                return delegate[method]!.bind(delegate);
              });
            },
          },
        );
        models.set(prop, model);
      }
      return model;
    },
  });
}
