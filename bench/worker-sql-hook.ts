/**
 * Loaded into each worker process of bench/worker-scale.ts (`--import`): counts the process's SQL statements
 * (sql-counter.ts). SIGUSR2 resets the counts (after the warm-up), SIGUSR1 writes them as JSON to
 * `$BENCH_SQL_COUNTS.<pid>`.
 */
import fs from "node:fs";
import { installSqlCounter, resetSqlCounts, sqlCounts } from "./sql-counter";

installSqlCounter();
process.on("SIGUSR2", () => resetSqlCounts());
process.on("SIGUSR1", () => {
  const file = process.env.BENCH_SQL_COUNTS;
  if (file) fs.writeFileSync(`${file}.${process.pid}`, JSON.stringify(sqlCounts()));
});
